/**
 * Membership bitmaps of big buckets kept from query to query (issue 22). A several-token query
 * tests its driver's ordinals against the other tokens' buckets by bits (buckets.ts BucketMarks);
 * marking a bucket writes a bit per posting and clearing it another, which for a short prefix's
 * bucket ("j", "ma": tens of thousands of postings) was most of what a keystroke cost. Short prefixes
 * recur in every typing stream, so such a bucket's bitmap is kept per index base (its postings never
 * change until the next build; deleted contacts are told apart by `isLive`, not by these bits) and
 * the next query reads it without marking or clearing anything.
 *
 * Bounded: at most KEPT_MARKS.most bitmaps per base (each a bit per base ordinal: 122 KiB at a
 * million contacts), the least recently used one reused (zeroed) for a new bucket, so the set stays
 * allocated once and a query makes no garbage here.
 */
import { bitsFor } from '../bits.ts';
import type { SearchIndex } from '../search-index.ts';
import type { Range } from './compile.ts';
import { markPostings, postingSlices } from './postings.ts';

/**
 * Thresholds (tests lower them). Here, not in heads.ts's TUNING: that file is part of the index code
 * version (index/version.ts), and a query-time setting must not make every snapshot rebuild.
 */
export const KEPT_MARKS = {
  /** A bucket of at least this many postings keeps its bitmap once marked. */
  min: 16_384,
  /** At most this many bitmaps per base (a bit per contact each: 128 are 16 MB at a million contacts). */
  most: 128,
};

/** A bucket as membership sees it: a field class and term-id ranges. */
export interface BucketKey {
  readonly cls: number;
  readonly ranges: readonly Range[];
}

/** Keys made, by bucket: a bucket lives as long as its compiled token (kept per base), so its key is built once, not at each lookup and again when it is marked. */
const keys = new WeakMap<BucketKey, string>();

/** The key of a bucket's membership: its class and term-id ranges (the tier is in the ranges). */
function keyOf(bk: BucketKey): string {
  let k = keys.get(bk);
  if (k === undefined) {
    k = `${bk.cls}`;
    for (const r of bk.ranges) k += `:${r.lo}-${r.hi}`;
    keys.set(bk, k);
  }
  return k;
}

/** Per base: bitmaps by bucket key, least recently used first (a Map keeps insertion order). */
const kept = new WeakMap<object, Map<string, Uint32Array>>();

/** Whether a bucket of `size` postings is kept once marked. */
export const keepable = (size: number): boolean => KEPT_MARKS.most > 0 && size >= KEPT_MARKS.min;

/** The kept bitmap of bucket `bk` of the base, or undefined (not kept, or pushed out since). */
export function keptBits(index: SearchIndex, bk: BucketKey): Uint32Array | undefined {
  const byKey = kept.get(index.base);
  if (!byKey) return undefined;
  const key = keyOf(bk);
  const bits = byKey.get(key);
  if (bits) {
    byKey.delete(key); // most recently used: last
    byKey.set(key, bits);
  }
  return bits;
}

/** Marks bucket `bk`'s postings in a bitmap kept for the base (the least recently used one reused) and returns it. */
export function keepBits(index: SearchIndex, bk: BucketKey): Uint32Array {
  const b = index.base;
  let byKey = kept.get(b);
  if (!byKey) kept.set(b, (byKey = new Map()));
  let bits: Uint32Array;
  if (byKey.size >= KEPT_MARKS.most) {
    const [oldest, reused] = byKey.entries().next().value as [string, Uint32Array];
    byKey.delete(oldest);
    bits = reused;
    bits.fill(0);
  } else bits = bitsFor(b.n);
  markPostings(b.post, postingSlices(index, bk.ranges, bk.cls), bits);
  byKey.set(keyOf(bk), bits);
  return bits;
}
