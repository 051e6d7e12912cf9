/**
 * A selection's field order (Sort, or LastName, FirstName): each contact's sort key, every live
 * ordinal in that order (cached per index and order, writes patched in), and key comparison for
 * GetSearchResults' paging.
 */
import type { Checkpoint } from '../../security/deadline.ts';
import { field, type FieldDef } from '../../fields/schema.ts';
import { normalize } from '../normalize.ts';
import type { SearchIndex } from '../search-index.ts';
import { ranksOf } from '../table/ranks.ts';

export interface SortKey {
  readonly field: FieldDef;
  readonly desc: boolean;
}

/** Without a Sort: LastName, FirstName. */
export const DEFAULT_SORT = (): SortKey[] => [
  { field: field('LastName')!, desc: false },
  { field: field('FirstName')!, desc: false },
];

/** Sort key values of one contact for a field order (strings compare after normalisation; missing last; then ContactId). */
export function fieldKey(
  idx: SearchIndex,
  keys: readonly SortKey[],
  ord: number,
): (string | number)[] {
  const out: (string | number)[] = [];
  for (const k of keys) {
    const v = idx.table.value(ord, k.field.name);
    // '\uffff' sorts a missing value last in either direction.
    out.push(v === undefined || v === '' ? (k.desc ? '' : '\uffff') : normKey(v));
  }
  out.push(idx.table.value(ord, 'ContactId')!);
  return out;
}

const normKeys = new Map<string, string>();
function normKey(v: string): string {
  let n = normKeys.get(v);
  if (n === undefined) {
    if (normKeys.size > 500_000) normKeys.clear();
    n = normalize(v);
    normKeys.set(v, n);
  }
  return n;
}

export function compareKeys(
  a: readonly (string | number)[],
  b: readonly (string | number)[],
  sel: { readonly sort: readonly SortKey[] },
  relevance: boolean,
): number {
  return compareBy(relevance ? [] : sel.sort.length ? sel.sort : DEFAULT_SORT(), a, b);
}

function compareBy(
  keys: readonly SortKey[],
  a: readonly (string | number)[],
  b: readonly (string | number)[],
): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    const lt = a[i] < b[i] ? -1 : 1;
    return keys[i]?.desc ? -lt : lt;
  }
  return 0;
}

/**
 * Every live ordinal in a field order, cached per index and order. Writes since the cache was made
 * are patched in (new ordinals inserted by binary search; deleted ones skipped when read), so a write
 * does not cost a full re-sort; a rebuilt base (ordinals renumbered) does.
 */
const orderCache = new WeakMap<
  object,
  Map<string, { base: number; version: number; upTo: number; order: number[] }>
>();

export function fieldOrder(
  idx: SearchIndex,
  keys: readonly SortKey[],
  budget?: Checkpoint,
): number[] {
  const sig = keys.map((k) => `${k.field.name}:${k.desc ? 'd' : 'a'}`).join(',');
  let byIndex = orderCache.get(idx);
  if (!byIndex) {
    byIndex = new Map();
    orderCache.set(idx, byIndex);
  }
  let c = byIndex.get(sig);
  const cmp = (a: (string | number)[], b: (string | number)[]) => compareBy(keys, a, b);
  if (!c || c.base !== idx.buildId) {
    c = {
      base: idx.buildId,
      version: idx.version,
      upTo: idx.ordinalCount,
      order: sortedOrdinals(idx, keys, budget),
    };
    byIndex.set(sig, c);
  } else if (c.version !== idx.version) {
    const old = c.order.filter((o) => idx.isLive(o));
    // The new rows by key, each placed by binary search in the old order, then one merge: a
    // segment appends a hundred thousand rows, and a splice each would move the million others.
    const added: { ord: number; key: (string | number)[]; at: number }[] = [];
    for (let ord = c.upTo; ord < idx.ordinalCount; ord++) {
      if (!idx.isLive(ord)) continue;
      const key = fieldKey(idx, keys, ord);
      let lo = 0,
        hi = old.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cmp(fieldKey(idx, keys, old[mid]), key) < 0) lo = mid + 1;
        else hi = mid;
      }
      added.push({ ord, key, at: lo });
    }
    added.sort((a, b) => a.at - b.at || cmp(a.key, b.key));
    const order = new Array<number>(old.length + added.length);
    let i = 0,
      k = 0;
    for (const a of added) {
      while (i < a.at) order[k++] = old[i++];
      order[k++] = a.ord;
    }
    while (i < old.length) order[k++] = old[i++];
    c.order = order;
    c.upTo = idx.ordinalCount;
    c.version = idx.version;
  }
  return c.order;
}

/**
 * Every live ordinal in a field order, by the ranks of the columns' values (the order of fieldKey:
 * normalised values, missing last either way, then ContactId); values newer than a rank table are
 * compared as keys.
 */
function sortedOrdinals(idx: SearchIndex, keys: readonly SortKey[], budget?: Checkpoint): number[] {
  const t = idx.table;
  const cols = keys.map((k) => t.column(k.field.name));
  const ranks = cols.map((c) => ranksOf(c.dict, 'normalized'));
  const idCol = t.column('ContactId');
  const idRanks = ranksOf(idCol.dict, 'raw');
  const order = Uint32Array.from(idx.ordinals());
  const slow = (a: number, b: number) =>
    compareBy(keys, fieldKey(idx, keys, a), fieldKey(idx, keys, b));
  order.sort((a, b) => {
    budget?.check();
    for (let k = 0; k < cols.length; k++) {
      const ids = cols[k].ids.a,
        r = ranks[k];
      const ia = ids[a],
        ib = ids[b];
      if (ia === ib) continue;
      if (ia >= r.size || ib >= r.size) return slow(a, b);
      const ra = r.rank[ia],
        rb = r.rank[ib];
      if (ra === rb) continue;
      if (ra === r.missing || rb === r.missing) return ra === r.missing ? 1 : -1;
      return keys[k].desc ? rb - ra : ra - rb;
    }
    const ia = idCol.ids.a[a],
      ib = idCol.ids.a[b];
    if (ia >= idRanks.size || ib >= idRanks.size) return slow(a, b);
    return idRanks.rank[ia] - idRanks.rank[ib];
  });
  return Array.from(order);
}
