/**
 * A selection: Query + Filters + Sort, evaluated against a database's index. Shared by
 * GetSearchResults, GetSearchFilters, GetPredictiveOptions, ExportContacts and saved searches.
 */
import type { Checkpoint } from '../../security/deadline.ts';
import { FIELDS, type FieldDef } from '../../fields/schema.ts';
import {
  andWords,
  forEachListed,
  intact,
  hasBit,
  listedOrdinals,
  scratchBits,
  withDense,
  wordList,
  type WordList,
} from '../bits.ts';
import { matchBits, search, type Admitted, type Hit, type MatchResult } from '../match.ts';
import type { SearchIndex } from '../search-index.ts';
import type { Contact } from '../../fields/contact.ts';
import { filterBits } from './filter-bits.ts';
import type { Filter } from './filters.ts';
import { DEFAULT_SORT, fieldKey, fieldOrder, type SortKey } from './sort.ts';

export interface Selection {
  readonly query: string;
  readonly filters: readonly Filter[];
  /** Empty: relevance when there is a query, else LastName, FirstName. */
  readonly sort: readonly SortKey[];
  /** The requested fields, when given (exports and saved searches). */
  readonly fields?: readonly FieldDef[];
  /** The request's time budget, checked in the loops over candidates (absent: no budget). */
  readonly budget?: Checkpoint;
}

/** The last few full query results per index (a search and its facets ask for the same query several times). */
const queryCache = new WeakMap<object, { version: number; entries: Map<string, MatchResult> }>();

const setCache = new WeakMap<object, { version: number; entries: Map<string, QuerySet> }>();

/** Memoised per index version, by key: the last few results (`usable`: whether a kept one still is). */
function remember<T>(
  cache: WeakMap<object, { version: number; entries: Map<string, T> }>,
  idx: SearchIndex,
  key: string,
  make: () => T,
  usable?: (r: T) => boolean,
): T {
  let c = cache.get(idx);
  if (!c || c.version !== idx.version) {
    c = { version: idx.version, entries: new Map() };
    cache.set(idx, c);
  }
  let r = c.entries.get(key);
  if (r === undefined || (usable && !usable(r))) {
    r = make();
    c.entries.delete(key);
    if (c.entries.size >= 8) c.entries.delete(c.entries.keys().next().value!);
    c.entries.set(key, r);
  }
  return r;
}

/** Every match of a query, ranked (deep pages and After cursors of a relevance order). */
function queryHits(idx: SearchIndex, query: string, budget?: Checkpoint): MatchResult {
  return remember(queryCache, idx, query, () =>
    search(idx, query, undefined, undefined, undefined, budget),
  );
}

/** The matches of a query, unranked (Total, filters, facets). */
function querySet(idx: SearchIndex, query: string, budget?: Checkpoint): QuerySet {
  return remember(
    setCache,
    idx,
    query,
    () => matchBits(idx, query, undefined, budget),
    (q) => intact(q.set), // its words live in the ring (bits.ts)
  );
}

export interface Matched {
  /** Matching ordinals, ascending. */
  readonly ords: number[];
  readonly candidates: number;
}

/**
 * A selection's sets, made once per query, filters and index version: the query's matches (the
 * non-empty words of their bitmap: search/bits.ts) and per filter a bitmap of the ordinals that pass
 * it (filter-bits.ts). The results are the query's words ANDed with every filter; a field's
 * disjunctive facet counts, with every filter but that field's. Each combination is made when first
 * asked and kept with the selection (`combined`).
 */
const FIELD_BITS = new Map(FIELDS.map((f, i) => [f.name as string, 1 << i]));
const fieldBit = (name: string) => FIELD_BITS.get(name) ?? 0;

interface QuerySet {
  set: WordList;
  candidates: number;
}
/** A combined set, with its ordinals once a search asked for them. */
interface Combined extends WordList {
  ords?: number[];
}
interface Masked {
  version: number;
  sig: string;
  query: QuerySet;
  /** Per filter: its field's bit and its passing ordinals (possibly beyond the query's: ANDed with it). */
  filters: { bit: number; bits: Uint32Array }[];
  /** By which filters are applied (their indices): the combined set. */
  combos: Map<string, Combined>;
}
const maskCache = new WeakMap<object, Masked[]>();

function masked(idx: SearchIndex, sel: Selection): Masked {
  const sig = JSON.stringify([sel.query, sel.filters.map((f) => [f.field.name, f.op, f.values])]);
  let list = maskCache.get(idx);
  if (!list) {
    list = [];
    maskCache.set(idx, list);
  }
  const found = list.find((m) => m.version === idx.version && m.sig === sig);
  if (found && intact(found.query.set)) return found;
  if (found) list.splice(list.indexOf(found), 1);
  const query: QuerySet = sel.query.trim()
    ? querySet(idx, sel.query, sel.budget)
    : {
        set: wordList(idx.liveBits().subarray(0, (idx.ordinalCount + 31) >>> 5)),
        candidates: idx.size,
      };
  const filters = sel.filters.map((f) => ({
    bit: fieldBit(f.field.name),
    bits: filterBits(idx, f, query.set, sel.budget),
  }));
  const out: Masked = { version: idx.version, sig, query, filters, combos: new Map() };
  list.push(out);
  if (list.length > 4) list.shift();
  return out;
}

/** The query's matches that pass every filter but those of the fields in `skip` (a mask of field bits). */
function combined(m: Masked, skip: number): Combined {
  const use = m.filters.filter((f) => (f.bit & skip) === 0);
  if (use.length === 0) return m.query.set;
  const key = use.map((f) => m.filters.indexOf(f)).join();
  let c = m.combos.get(key);
  if (!c || !intact(c)) {
    c = andWords(
      m.query.set,
      use.map((f) => f.bits),
    );
    m.combos.set(key, c);
  }
  return c;
}

const skipOf = (skipField?: string) => (skipField ? fieldBit(skipField) : 0);

/** Ordinals matching the query and every filter except those for `skipField` (disjunctive facets), ascending. */
export function matching(idx: SearchIndex, sel: Selection, skipField?: string): Matched {
  const m = masked(idx, sel);
  return { ords: listedOrdinals(combined(m, skipOf(skipField))), candidates: m.query.candidates };
}

/**
 * `matching` as the words of a bitmap (search/bits.ts) — for totals and facet counts, which need no
 * list of a quarter of the contacts. Read only.
 */
export function matchingWords(idx: SearchIndex, sel: Selection, skipField?: string): WordList {
  return combined(masked(idx, sel), skipOf(skipField));
}

/** Calls `each` per matching ordinal, ascending, and returns how many there are. */
export function eachMatching(
  idx: SearchIndex,
  sel: Selection,
  skipField: string | undefined,
  each?: (ord: number) => void,
): number {
  const c = matchingWords(idx, sel, skipField);
  if (each) {
    sel.budget?.spend(c.count);
    forEachListed(c, each);
  }
  return c.count;
}

export interface Evaluated {
  /** Matching ordinals in result order: all of them, or the first `upTo` when evaluate was given it. */
  readonly ords: number[];
  /** How many match. */
  readonly total: number;
  readonly candidates: number;
  /** Relevance order (a query and no Sort). */
  readonly relevance: boolean;
  /** The sort key of ords[i] (for cursors). */
  keyAt(i: number): (string | number)[];
}

/** The bitmap per index that `withDense` lends a combined set while a search reads it. */
const denseScratch = new WeakMap<SearchIndex, Uint32Array>();
const inDense = <T>(idx: SearchIndex, c: WordList, f: (dense: Uint32Array) => T): T =>
  withDense(c, scratchBits(denseScratch, idx, idx.ordinalCount), f);

/** A filtered selection up to this size is handed to the top-k search as a list (`search`'s `among`). */
const AMONG_MAX = 65_536;

/** Relevance results up to this deep come from the search that stops early; deeper ones (and After cursors) rank every match. */
export const TOP_K_MAX = 1000;

/**
 * The selection's results in order. With a query and no Sort the order is relevance: a caller that
 * needs only the first `upTo` (a page) gets them from the early-stopping search, and Total from the
 * unranked match set — a short prefix no longer ranks its hundred thousand matches for one page.
 */
export function evaluate(idx: SearchIndex, sel: Selection, upTo?: number): Evaluated {
  const mk = masked(idx, sel);
  const res = combined(mk, 0);
  if (sel.query.trim() && sel.sort.length === 0) {
    const ranked = (within?: (ord: number) => boolean, among?: Admitted): Hit[] => {
      if (upTo !== undefined && upTo <= TOP_K_MAX)
        return search(idx, sel.query, within, upTo, among, sel.budget).hits;
      const all = queryHits(idx, sel.query, sel.budget).hits;
      return within ? all.filter((h) => within(h.ord)) : all;
    };
    let hits: Hit[];
    if (sel.filters.length) {
      // The top-k search may read buckets through the selection's ordinals (`among`).
      const among: Admitted | undefined =
        res.count <= AMONG_MAX
          ? { count: res.count, list: () => (res.ords ??= listedOrdinals(res)) }
          : undefined;
      hits = inDense(idx, res, (dense) => ranked((ord) => hasBit(dense, ord), among));
    } else hits = ranked();
    return {
      ords: hits.map((h) => h.ord),
      total: res.count,
      candidates: mk.query.candidates,
      relevance: true,
      keyAt: (i) => [...hits[i].rank, idx.sortKey(hits[i].ord)],
    };
  }
  const keys = sel.sort.length ? sel.sort : DEFAULT_SORT();
  const order = fieldOrder(idx, keys, sel.budget);
  let ords: number[];
  if (res.count === idx.size) ords = order.slice();
  else ords = inDense(idx, res, (dense) => order.filter((o) => hasBit(dense, o)));
  return {
    ords,
    total: ords.length,
    candidates: mk.query.candidates,
    relevance: false,
    keyAt: (i) => fieldKey(idx, keys, ords[i]),
  };
}

/** Every contact of the selection, in result order (ExportContacts). */
export function selectContacts(idx: SearchIndex, sel: Selection): Contact[] {
  return evaluate(idx, sel).ords.map((o) => idx.doc(o)!);
}
