/**
 * The sort position of every value of a dictionary: equal ranks for values equal under the order,
 * absent and empty values last. Made once per dictionary when a sort or range first needs it (at
 * 1M distinct values, about a second); values added later (the delta) have no rank and are
 * compared as strings by the caller — so a write never pays for a re-rank.
 */
import { normalize } from '../normalize.ts';
import { sortedStrings, StringRun } from '../sort-strings.ts';
import type { Dictionary } from './dictionary.ts';

export type RankOrder = 'raw' | 'normalized';

export interface Ranks {
  /** rank[id] for ids < size. */
  readonly rank: Uint32Array;
  /** The ids < size in rank order; sorted[first..] are the ids with a value (absent and empty come first). */
  readonly sorted: Uint32Array;
  readonly first: number;
  readonly size: number;
  /** The rank of absent and empty values (greater than every other). */
  readonly missing: number;
}

const cache = new WeakMap<Dictionary, Partial<Record<RankOrder, Ranks>>>();

/** The ranks made so far for `dict` (an index image keeps them: index/image.ts). */
export function madeRanks(dict: Dictionary): Partial<Record<RankOrder, Ranks>> {
  return cache.get(dict) ?? {};
}

/** Ranks made elsewhere (an index image's) for `dict`, as if ranksOf had made them. */
export function keepRanks(dict: Dictionary, order: RankOrder, r: Ranks): void {
  cache.set(dict, { ...cache.get(dict), [order]: r });
}

/** The rank of the first value (in rank order) for which `before(value)` is false; `missing` when none. */
export function rankBound(dict: Dictionary, r: Ranks, before: (v: string) => boolean): number {
  let lo = r.first,
    hi = r.size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(dict.value(r.sorted[mid]))) lo = mid + 1;
    else hi = mid;
  }
  return lo < r.size ? r.rank[r.sorted[lo]] : r.missing;
}

/**
 * Ids in key order. A string sort with no comparator call per pair (sort-strings.ts) on "key NUL
 * id" — the id in two trailing characters — unless a key holds NUL itself.
 */
function sortedIds(keys: string[]): Uint32Array {
  const size = keys.length;
  if (keys.some((k) => k.includes('\u0000'))) {
    const ids = new Uint32Array(size);
    for (let i = 0; i < size; i++) ids[i] = i;
    return ids.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  }
  const tagged = new StringRun(size);
  for (let id = 0; id < size; id++) {
    tagged.write(keys[id]);
    tagged.unit(0);
    tagged.unit(id >>> 16);
    tagged.unit(id & 0xffff);
    tagged.end();
  }
  return sortedStrings(tagged);
}

export function ranksOf(dict: Dictionary, order: RankOrder): Ranks {
  let byOrder = cache.get(dict);
  if (!byOrder) {
    byOrder = {};
    cache.set(dict, byOrder);
  }
  const hit = byOrder[order];
  if (hit) return hit;
  const size = dict.size;
  const keys = new Array<string>(size);
  const empty: number[] = [];
  for (let id = 0; id < size; id++) {
    const v = dict.value(id);
    if (v === '') empty.push(id);
    keys[id] = order === 'raw' ? v : normalize(v);
  }
  const ids = sortedIds(keys);
  const rank = new Uint32Array(size);
  let r = 0;
  for (let i = 0; i < size; i++) {
    if (i > 0 && keys[ids[i]] !== keys[ids[i - 1]]) r++;
    rank[ids[i]] = r;
  }
  const missing = r + 1;
  for (const id of empty) rank[id] = missing;
  let first = 0;
  while (first < size && rank[ids[first]] === missing) first++;
  const out = { rank, sorted: ids, first, size, missing };
  byOrder[order] = out;
  return out;
}
