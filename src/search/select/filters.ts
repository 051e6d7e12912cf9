/**
 * Filters (CONTRACT.md §5): each operator is allowed only where its field's type makes sense; the
 * operator table here is what GetSearchFilters advertises and what validation (service/read-selection.ts)
 * enforces. A filter compiles to a test per ordinal over the contact table's columns.
 */
import type { FieldDef, FieldType } from '../../fields/schema.ts';
import { normalize } from '../normalize.ts';
import { includes, meetsVariant, startsWith } from '../value-match.ts';
import { letterVariants } from '../variants.ts';
import type { Dictionary } from '../table/dictionary.ts';
import { rankBound, ranksOf } from '../table/ranks.ts';
import type { Column, ContactTable } from '../table/contact-table.ts';
import type { Contact } from '../../fields/contact.ts';

export const OPERATORS = [
  'Eq',
  'Ne',
  'In',
  'NotIn',
  'Prefix',
  'Contains',
  'Between',
  'Gt',
  'Gte',
  'Lt',
  'Lte',
  'Exists',
  'Missing',
] as const;
export type Operator = (typeof OPERATORS)[number];

export const OPERATORS_BY_TYPE: Record<FieldType, readonly Operator[]> = {
  String: ['Eq', 'Ne', 'In', 'NotIn', 'Prefix', 'Contains', 'Exists', 'Missing'],
  List: ['Eq', 'Ne', 'In', 'NotIn', 'Prefix', 'Contains', 'Exists', 'Missing'],
  Date: ['Eq', 'Ne', 'Between', 'Gt', 'Gte', 'Lt', 'Lte', 'Exists', 'Missing'],
  Number: ['Eq', 'Ne', 'In', 'NotIn', 'Between', 'Gt', 'Gte', 'Lt', 'Lte', 'Exists', 'Missing'],
  Boolean: ['Eq', 'Ne', 'Exists', 'Missing'],
};

/** How many values each operator takes: [min, max]. */
export const ARITY: Record<Operator, [number, number]> = {
  Eq: [1, 1],
  Ne: [1, 1],
  Prefix: [1, 1],
  Contains: [1, 1],
  Gt: [1, 1],
  Gte: [1, 1],
  Lt: [1, 1],
  Lte: [1, 1],
  In: [1, Infinity],
  NotIn: [1, Infinity],
  Between: [2, 2],
  Exists: [0, 0],
  Missing: [0, 0],
};

export interface Filter {
  readonly field: FieldDef;
  readonly op: Operator;
  readonly values: readonly string[];
}

/** Values of a field on a contact, as strings (lists give several). Read per shown row only. */
export function fieldValues(c: Contact, f: FieldDef): string[] {
  const v = c[f.name];
  if (v === undefined || v === null || v === '') return [];
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

function dateBound(s: string, end: boolean): string {
  // A bare date as an upper bound covers that whole day. As a lower bound it is the date itself: it
  // sorts before every timestamp of that day and equals a stored bare date (Birthday), which
  // "YYYY-MM-DDT00:00:00.000Z" would have left out.
  return /^\d{4}-\d{2}-\d{2}$/.test(s)
    ? end
      ? `${s}T23:59:59.999Z`
      : s
    : new Date(s).toISOString();
}

/** What a filter asks of one value: a test, and whether a contact passes when some value does (or when none does). */
function valueTest(f: Filter): { test: (v: string) => boolean; negate: boolean } {
  const norm = f.values.map(normalize);
  const date = f.field.type === 'Date';
  const set = new Set(norm);
  const eq = date
    ? (v: string) => norm.some((n) => v.slice(0, n.length) === n)
    : (v: string) => set.has(normalize(v));
  switch (f.op) {
    case 'Exists':
      return { test: () => true, negate: false };
    case 'Missing':
      return { test: () => true, negate: true };
    case 'Eq':
    case 'In':
      return { test: eq, negate: false };
    case 'Ne':
    case 'NotIn':
      return { test: eq, negate: true };
    case 'Prefix':
      return { test: spelledAlike(norm[0], startsWith), negate: false };
    case 'Contains':
      return { test: spelledAlike(norm[0], includes), negate: false };
    case 'Between':
    case 'Gt':
    case 'Gte':
    case 'Lt':
    case 'Lte': {
      const { lo, loOpen, hi, hiOpen } = interval(f)!;
      const above = (v: string) =>
        lo === undefined || (loOpen ? cmp(f, v, lo) > 0 : cmp(f, v, lo) >= 0);
      const below = (v: string) =>
        hi === undefined || (hiOpen ? cmp(f, v, hi) < 0 : cmp(f, v, hi) <= 0);
      return { test: (v) => above(v) && below(v), negate: false };
    }
  }
}

/**
 * Prefix and Contains meet a value as search meets a word (CONTRACT §4 "Names however they are
 * written"): as spelled (case and accents folded), or through the ä/ae, ö/oe, ü/ue, å/aa, æ/ae, ø/oe
 * family both ways, by search's own rules (variants.ts, value-match.ts): "mueller" meets Müller,
 * Mueller and Muller. Eq, In, Ne and NotIn make no variants: they select values chosen from a list, whose counts
 * (facets, GetPredictiveOptions) are per value. The value's variants are made only when its spelling
 * does not meet the operand, once per value and filter (the verdict cache below).
 */
function spelledAlike(q: string, meets: (s: string, q: string) => boolean) {
  return (v: string): boolean => {
    const n = normalize(v);
    return meets(n, q) || meetsVariant([n], letterVariants(v, n), q, meets);
  };
}

/**
 * Verdicts per dictionary id (1 pass, -1 fail, 0 not yet tested), kept across requests: a value's
 * verdict never changes and dictionaries only grow, so each distinct value is tested once per filter.
 */
const verdictCache = new WeakMap<Dictionary, Map<string, Int8Array>>();

function verdicts(dict: Dictionary, key: string): Int8Array {
  let byKey = verdictCache.get(dict);
  if (!byKey) {
    byKey = new Map();
    verdictCache.set(dict, byKey);
  }
  let v = byKey.get(key);
  if (!v || v.length < dict.size) {
    const grown = new Int8Array(dict.size + (dict.size >> 4));
    if (v) grown.set(v);
    v = grown;
  }
  byKey.delete(key);
  byKey.set(key, v); // most recent last
  if (byKey.size > 32) byKey.delete(byKey.keys().next().value!);
  return v;
}

/**
 * A filter as a test of an ordinal, over the table's columns. An absent or empty value is no value
 * (so Missing holds for it and Exists does not).
 */
export function compileFilter(f: Filter, table: ContactTable): (ord: number) => boolean {
  const { test, negate } = valueTest(f);
  const col = table.column(f.field.name);
  const dict = col.dict;
  const seen = verdicts(dict, JSON.stringify([f.op, f.values]));
  const ids = col.ids.a;
  const range = rankRange(f, dict);
  const pass = (id: number): boolean => {
    if (id === 0) return false;
    if (range && id < range.size) {
      const r = range.rank[id];
      return r >= range.lo && r < range.hi;
    }
    let m = seen[id];
    if (m === 0) {
      const v = dict.value(id);
      m = v !== '' && test(v) ? 1 : -1;
      seen[id] = m;
    }
    return m === 1;
  };
  const offs = col.offs?.a;
  const byRow = range && !offs ? rowRanks(col, range.rank, range.size) : undefined;
  const any = offs
    ? (ord: number) => {
        for (let i = offs[ord], to = offs[ord + 1]; i < to; i++) if (pass(ids[i])) return true;
        return false;
      }
    : byRow && range
      ? (ord: number) => {
          const r = ord < byRow.length ? byRow[ord] : NEWER;
          return r < NEWER ? r >= range.lo && r < range.hi : r === NEWER && pass(ids[ord]);
        }
      : (ord: number) => pass(ids[ord]);
  return negate ? (ord) => !any(ord) : any;
}

/** rowRanks marks: a row without a value, and a row whose value is newer than the ranks (compared as a string). */
const ABSENT = 0xffffffff,
  NEWER = 0xfffffffe;
const rowRankCache = new WeakMap<object, { rank: Uint32Array; rows: Uint32Array }>();

/**
 * Each row's rank (`rank[ids[row]]`), made once per column and ranks. A date range over a query's
 * matches (ascending ordinals) then reads one array in order, instead of jumping through a
 * million-entry rank array by value id — a cache miss per row ("Le " with CreatedAt Gte at 1M).
 */
function rowRanks(col: Column, rank: Uint32Array, size: number): Uint32Array {
  const hit = rowRankCache.get(col);
  if (hit && hit.rank === rank) return hit.rows;
  const ids = col.ids.a,
    n = col.ids.n;
  const rows = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    rows[i] = id === 0 ? ABSENT : id < size ? rank[id] : NEWER;
  }
  rowRankCache.set(col, { rank, rows });
  return rows;
}

/**
 * A comparison (Gt … Between) on a string or date column as a rank interval [lo, hi): the column's
 * values in plain order are ranked once, and the bounds are found by binary search — a date filter
 * over a million distinct timestamps then reads no value per row. Undefined for other operators.
 */
function rankRange(
  f: Filter,
  dict: Dictionary,
): { rank: Uint32Array; size: number; lo: number; hi: number } | undefined {
  const iv = f.field.type === 'Number' ? undefined : interval(f);
  if (!iv) return undefined;
  const r = ranksOf(dict, 'raw');
  const firstAtLeast = (b: string) => rankBound(dict, r, (v) => v < b);
  const firstAbove = (b: string) => rankBound(dict, r, (v) => v <= b);
  const lo = iv.lo === undefined ? 0 : iv.loOpen ? firstAbove(iv.lo) : firstAtLeast(iv.lo);
  const hi = iv.hi === undefined ? r.missing : iv.hiOpen ? firstAtLeast(iv.hi) : firstAbove(iv.hi);
  return { rank: r.rank, size: r.size, lo, hi };
}

/**
 * What a comparison asks for, as bounds (open: the bound itself excluded). A bare date as an upper
 * bound covers that whole day, so Gt and Lte bound at its end. Undefined for other operators.
 */
function interval(
  f: Filter,
): { lo?: string; loOpen: boolean; hi?: string; hiOpen: boolean } | undefined {
  const at = (i: number, end: boolean) =>
    f.field.type === 'Date' ? dateBound(f.values[i], end) : f.values[i];
  switch (f.op) {
    case 'Gt':
      return { lo: at(0, true), loOpen: true, hiOpen: false };
    case 'Gte':
      return { lo: at(0, false), loOpen: false, hiOpen: false };
    case 'Lt':
      return { hi: at(0, false), hiOpen: true, loOpen: false };
    case 'Lte':
      return { hi: at(0, true), hiOpen: false, loOpen: false };
    case 'Between':
      return { lo: at(0, false), loOpen: false, hi: at(1, true), hiOpen: false };
    default:
      return undefined;
  }
}

function cmp(f: Filter, a: string, b: string): number {
  if (f.field.type === 'Number') return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}
