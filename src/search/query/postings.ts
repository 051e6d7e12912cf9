/**
 * Reading posting lists: the loops every step of a query shares. A bucket is the postings of one
 * field class under some term-id ranges (one contiguous slice per range: the postings are
 * class-major); the forward index answers the same question for one ordinal.
 */
import { CLASSES, CLS_SHIFT, TERM_MASK, type SearchIndex } from '../search-index.ts';
import type { Work } from '../work.ts';
import type { Range } from './compile.ts';

/**
 * The slices of `index.base.post` holding class `c`'s postings under `ranges` (every class, class by
 * class, when `c` is undefined), flat: [from0, to0, from1, to1, …], empty ones left out. `work`, when
 * given, is charged every posting. Callers loop over the slices themselves: a callback per posting
 * (an `eachPosting(…, f)`) measured up to twice as slow on the match-set path (docs/perf-log/2026-11-25-engine-split.md).
 */
export function postingSlices(
  index: SearchIndex,
  ranges: readonly Range[],
  c?: number,
  work?: Work,
): number[] {
  const out: number[] = [];
  for (let k = c ?? 0, to = c === undefined ? CLASSES : c + 1; k < to; k++) {
    for (const r of ranges) {
      const x = index.postingFrom(k, r.lo, r.hi),
        z = index.postingTo(k, r.lo, r.hi);
      work?.spend(z - x);
      if (z > x) out.push(x, z);
    }
  }
  return out;
}

/** How many postings class `c` (every class when undefined) holds under `ranges`. */
export function postingCount(index: SearchIndex, ranges: readonly Range[], c?: number): number {
  let n = 0;
  for (let k = c ?? 0, to = c === undefined ? CLASSES : c + 1; k < to; k++) {
    for (const r of ranges) n += index.postingTo(k, r.lo, r.hi) - index.postingFrom(k, r.lo, r.hi);
  }
  return n;
}

/** Whether term id `tid` is under one of `ranges`. */
export const inRanges = (tid: number, ranges: readonly Range[]): boolean => {
  for (let k = 0; k < ranges.length; k++)
    if (tid >= ranges[k].lo && tid < ranges[k].hi) return true;
  return false;
};

/** Whether base ordinal `ord` has a token of class `cls` under `ranges` (the forward index: a few dozen entries). */
export function inBucket(
  b: SearchIndex['base'],
  ord: number,
  bk: { readonly cls: number; readonly ranges: readonly Range[] },
): boolean {
  for (let e = b.entOff[ord], to = b.entOff[ord + 1]; e < to; e++) {
    const x = b.entTerm[e];
    if (x >>> CLS_SHIFT !== bk.cls) continue;
    if (inRanges(x & TERM_MASK, bk.ranges)) return true;
  }
  return false;
}
