/**
 * Bucket heads (docs/SEARCH.md "The query plan"): the first TUNING.headSize ordinals of a term-id
 * range's postings in one field class. Type-ahead asks for the first 10 of a bucket; for a short
 * prefix ("a", "+3") that bucket holds hundreds of thousands of postings, so its head is kept per
 * base (immutable until the next build). The build makes the heads of the prefixes people type first
 * (1–2 letters, 1–4 phone digits) so no first keystroke pays the pass; others are made on first use.
 */
import type { Lengths } from './table/lengths.ts';

/** Thresholds of the plan (tests lower them to exercise every path on a small data set). */
export const TUNING = {
  /** Above this many postings a bucket is read by scanning ordinals in order instead of sorting its slice. */
  dense: 20_000,
  /** Below this many candidates a multi-token query just scores them all. */
  multiCap: 60_000,
  /** Above this many bucket combinations a multi-token query takes the intersect-and-score path. */
  maxCombos: 1024,
  /** Buckets of more postings than this read their first ordinals from kept heads (short prefixes recur: "a", "+1"). */
  headMin: 4_096,
  /** How many of a range's first ordinals a head keeps. */
  headSize: 64,
  /** A multi-token combination whose smallest bucket holds more postings than this reads it in ordinal order and may stop early. */
  orderedDriver: 2_000,
  /**
   * Such a driver bucket of over headMin postings first reads its first driverHead ordinals (a head
   * kept per base, made on first use), testing the other tokens in the forward index: most short
   * two-token prefixes ("s p", "and b") are settled there, without marking or reading whole buckets.
   */
  driverHead: 512,
  /** A bucket (or a combination's smallest) is read through the caller's admitted ordinals (`search`'s `among`) when it has over this many times as many postings. */
  amongFactor: 4,
  /** A multi-token query tests a bucket by marked bits once it has tested 1/markRatio as many ordinals against it as it has postings (query/buckets.ts BucketMarks). */
  markRatio: 64,
};

/** The key of a head: size, class and term-id range (the size, because tests change it). */
export const headKey = (size: number, c: number, lo: number, hi: number) =>
  `${size}:${c}:${lo}-${hi}`;

/**
 * The `k` smallest distinct ordinals under `slices` that `accept` takes, ascending, in one pass
 * keeping a small sorted array (`accept` is asked only of ordinals that would enter it).
 */
export function smallestDistinct(
  post: Uint32Array,
  slices: readonly [number, number][],
  k: number,
  accept: (ord: number) => boolean = () => true,
): number[] {
  const best: number[] = [];
  for (const [x, y] of slices) {
    for (let i = x; i < y; i++) {
      const ord = post[i];
      if (best.length === k && ord >= best[k - 1]) continue;
      let lo = 0,
        hi = best.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (best[mid] < ord) lo = mid + 1;
        else hi = mid;
      }
      if (best[lo] === ord || !accept(ord)) continue;
      best.splice(lo, 0, ord);
      if (best.length > k) best.pop();
    }
  }
  return best;
}

/** What the head precompute reads of a freshly built base. */
export interface HeadSource {
  /** How many terms, term i of the sorted dictionary (namespaced: words plain, phones after PHONE_NS), the first term id ≥ s. */
  T: number;
  termAt(i: number): string;
  lowerBound(s: string): number;
  post: Uint32Array;
  /** Where each offset slot's postings start in `post` (table/lengths.ts). */
  postOff: Pick<Lengths, 'start'>;
  cLo: Uint32Array;
  cHi: Uint32Array;
  cBase: Uint32Array;
  /** Class c holds no term id in [cGapLo[c], cGapHi[c]): they have no offsets (a gap of 0: none). */
  cGapLo: Uint32Array;
  cGapHi: Uint32Array;
}

/** The offset slot of term id t (cLo[c] ≤ t ≤ cHi[c]) in class c: ids in the class's gap share one. */
export function slotOf(
  b: Pick<HeadSource, 'cLo' | 'cBase' | 'cGapLo' | 'cGapHi'>,
  c: number,
  t: number,
): number {
  const lo = b.cGapLo[c],
    hi = b.cGapHi[c];
  return b.cBase[c] + (t <= lo ? t : t >= hi ? t - (hi - lo) : lo) - b.cLo[c];
}

type SliceSource = Omit<HeadSource, 'T' | 'termAt' | 'lowerBound' | 'post'>;

/** Postings of term ids [lo, hi) in class c: one contiguous slice of `post` (class-major layout, docs/SEARCH.md). */
export function classSlice(b: SliceSource, c: number, lo: number, hi: number): [number, number] {
  return [classFrom(b, c, lo, hi), classTo(b, c, lo, hi)];
}

/** classSlice's start, without the pair (the query's posting loops make no garbage): 0 when empty. */
export function classFrom(b: SliceSource, c: number, lo: number, hi: number): number {
  const l = Math.max(lo, b.cLo[c]);
  return l >= Math.min(hi, b.cHi[c]) ? 0 : b.postOff.start(slotOf(b, c, l));
}

/** classSlice's end, without the pair: 0 when empty. */
export function classTo(b: SliceSource, c: number, lo: number, hi: number): number {
  const h = Math.min(hi, b.cHi[c]);
  return Math.max(lo, b.cLo[c]) >= h ? 0 : b.postOff.start(slotOf(b, c, h));
}

/** Stores the head of term ids [lo, hi) in class c when its bucket is over TUNING.headMin postings. */
function headOf(
  src: HeadSource,
  c: number,
  lo: number,
  hi: number,
  into: Map<string, Uint32Array>,
): void {
  const [x, y] = classSlice(src, c, lo, hi);
  if (y - x > TUNING.headMin)
    into.set(
      headKey(TUNING.headSize, c, lo, hi),
      Uint32Array.from(smallestDistinct(src.post, [[x, y]], TUNING.headSize)),
    );
}

/**
 * The heads of every prefix range of `lengths` characters after the namespace `ns` ('' for words)
 * whose bucket in some class is over TUNING.headMin postings, and of the prefix as a whole term:
 * two binary searches per distinct prefix, one pass per such bucket.
 */
export function prefixHeads(
  src: HeadSource,
  ns: string,
  lengths: readonly number[],
  into = new Map<string, Uint32Array>(),
): Map<string, Uint32Array> {
  // Namespaced terms (a control character first) sort before every word.
  const start = src.lowerBound(ns || ' '),
    end = ns ? src.lowerBound(ns + '\uffff') : src.T;
  for (const len of lengths) {
    for (let i = start; i < end;) {
      const t = src.termAt(i);
      if (t.length < ns.length + len) {
        i++;
        continue;
      }
      const prefix = t.slice(0, ns.length + len);
      const lo = src.lowerBound(prefix),
        hi = src.lowerBound(prefix + '\uffff');
      const whole = src.termAt(lo) === prefix; // the prefix typed whole: the first tier's bucket
      for (let c = 0; c < src.cLo.length; c++) {
        headOf(src, c, lo, hi, into);
        if (whole) headOf(src, c, lo, lo + 1, into);
      }
      i = hi;
    }
  }
  return into;
}
