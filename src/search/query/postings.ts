/**
 * Reading posting lists: the loops every step of a query shares. A bucket is the postings of one
 * field class under some term-id ranges (one contiguous slice per range: the postings are
 * class-major); the forward index answers the same question for one ordinal.
 */
import { CLASSES, CLS_SHIFT, TERM_MASK, type SearchIndex } from '../search-index.ts';
import type { Work } from '../work.ts';
import { RANGE_STRIDE, type Range } from './compile.ts';

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

/** Whether term id `tid` is under one of `flat`'s ranges (compile.ts flatRanges). */
export const inFlatRanges = (tid: number, flat: Int32Array): boolean => {
  for (let k = 0; k < flat.length; k += RANGE_STRIDE)
    if (tid >= flat[k] && tid < flat[k + 1]) return true;
  return false;
};

/** Whether base ordinal `ord` has a token of class `cls` under `flat`'s ranges (the forward index: a few dozen entries). */
export function inBucket(
  b: SearchIndex['base'],
  ord: number,
  bk: { readonly cls: number; readonly flat: Int32Array },
): boolean {
  const cls = bk.cls,
    entTerm = b.entTerm;
  for (let e = b.entOff[ord], to = b.entOff[ord + 1]; e < to; e++) {
    const x = entTerm[e];
    if (x >>> CLS_SHIFT === cls && inFlatRanges(x & TERM_MASK, bk.flat)) return true;
  }
  return false;
}

/**
 * Sets bit `ord` of bitmap `w` for every posting in `slices` of `post` (postingSlices' pairs).
 * Each slice is read as four runs side by side: a bucket's ordinals come in runs (contacts sort by
 * name, so half of a bucket's neighbours share a word), and the read-modify-write of a word the
 * last posting wrote waits for that write; four independent streams keep four in flight. A replay
 * of 3,000 real buckets at 1M: 2.2 ns a posting against 3.3 one by one (docs/perf-log/2026-11-27-walk.md).
 */
export function markPostings(post: Uint32Array, slices: readonly number[], w: Uint32Array): void {
  for (let k = 0; k < slices.length; k += 2) {
    const a = slices[k],
      q = (slices[k + 1] - a) >>> 2,
      b = a + q,
      c = b + q,
      d = c + q;
    for (let j = 0; j < q; j++) {
      const x = post[a + j],
        y = post[b + j],
        u = post[c + j],
        v = post[d + j];
      w[x >>> 5] |= 1 << (x & 31);
      w[y >>> 5] |= 1 << (y & 31);
      w[u >>> 5] |= 1 << (u & 31);
      w[v >>> 5] |= 1 << (v & 31);
    }
    for (let i = d + q, end = slices[k + 1]; i < end; i++) {
      const z = post[i];
      w[z >>> 5] |= 1 << (z & 31);
    }
  }
}

/**
 * Calls `f` for each posting in `slices` of `post` whose bit is set in bitmap `w`, in posting order.
 * Four postings to a test (their bits ORed): most of a small driver is not in the bucket it is
 * tested against, and `f` is called only for the few that are.
 */
export function eachMarked(
  post: Uint32Array,
  slices: readonly number[],
  w: Uint32Array,
  f: (ord: number) => unknown,
): void {
  for (let k = 0; k < slices.length; k += 2) {
    let i = slices[k];
    const end = slices[k + 1];
    for (; i + 4 <= end; i += 4) {
      const a = post[i],
        b = post[i + 1],
        c = post[i + 2],
        d = post[i + 3];
      const ha = w[a >>> 5] & (1 << (a & 31)),
        hb = w[b >>> 5] & (1 << (b & 31)),
        hc = w[c >>> 5] & (1 << (c & 31)),
        hd = w[d >>> 5] & (1 << (d & 31));
      if ((ha | hb | hc | hd) === 0) continue;
      if (ha !== 0) f(a);
      if (hb !== 0) f(b);
      if (hc !== 0) f(c);
      if (hd !== 0) f(d);
    }
    for (; i < end; i++) {
      const ord = post[i];
      if ((w[ord >>> 5] & (1 << (ord & 31))) !== 0) f(ord);
    }
  }
}
