/**
 * A typed token's buckets for several-token type-ahead (top-multi.ts): one per (tier, field class)
 * that has postings, with its rank part; and BucketMarks, which answers "is this ordinal in that
 * bucket" by one bit load for the buckets asked about often.
 */
import { TUNING } from '../heads.ts';
import { CLASSES, type SearchIndex } from '../search-index.ts';
import { flatRanges, spelled, variants, wholes, type Compiled, type Range } from './compile.ts';
import { KEPT_MARKS, keepable, keepBits, keptBits } from './kept-marks.ts';
import { markPostings, postingCount, postingSlices } from './postings.ts';
import type { QueryRun } from './run.ts';
import { partial } from './score.ts';

/** One (tier, class) bucket of one typed token: tier 0 whole word, 1 prefix, 3 variant, 2 one typo. */
export interface TokBucket {
  readonly cls: number;
  readonly ranges: readonly Range[];
  /** `ranges` flat (compile.ts flatRanges): what the forward-index test reads. */
  readonly flat: Int32Array;
  readonly size: number;
  readonly sum: number;
  readonly typo: boolean;
  /** A variant-tier bucket (tier 3). */
  readonly variant: boolean;
  /**
   * BucketMarks' state for the query numbered `query` (a bucket is kept from query to query, so a
   * stale number means none): its bitmap's number (-1: none) and the ordinals tested against it.
   */
  query: number;
  bit: number;
  tested: number;
  /** Its postings' slices of `post` (bucketSlices), made on first need: the base never changes under it. */
  slices?: readonly number[];
}

/** The [start, end) pairs of `post` holding bucket `bk`'s postings, kept with it (read, never changed). */
export function bucketSlices(index: SearchIndex, bk: TokBucket): readonly number[] {
  return (bk.slices ??= postingSlices(index, bk.ranges, bk.cls));
}

/**
 * A compiled token's buckets by tier, kept with it (compiled tokens are kept per index base,
 * compile.ts): the typo pass gets the exact pass's objects (their marks, `BucketMarks`), and the next
 * query typing the same token does not count its postings again.
 */
const bucketsOf = new WeakMap<Compiled, Map<number, TokBucket[]>>();

/** The map of a token's buckets by tier (see bucketsOf). */
export function madeBuckets(tok: Compiled): Map<number, TokBucket[]> {
  let m = bucketsOf.get(tok);
  if (!m) bucketsOf.set(tok, (m = new Map()));
  return m;
}

/**
 * A token's buckets of `tiers` (read only: kept and shared); `made` keeps them by tier (madeBuckets),
 * so a later pass gets the same objects.
 */
export function tokenBuckets(
  index: SearchIndex,
  tok: Compiled,
  tiers: readonly (0 | 1 | 2 | 3)[],
  made: Map<number, TokBucket[]>,
): TokBucket[] {
  // The passes' tier lists are constants, so their concatenation is kept under a key of its own
  // (tiers as base-4 digits, above the tiers' own keys 0–3): a new array a pass was garbage.
  let key = 0;
  for (const tier of tiers) key = key * 4 + tier;
  key += 4 ** tiers.length * 4;
  const kept = made.get(key);
  if (kept) return kept;
  const out: TokBucket[] = [];
  for (const tier of tiers) {
    let list = made.get(tier);
    if (!list) {
      list = [];
      const ranges =
        tier === 0
          ? wholes(tok)
          : tier === 1
            ? spelled(tok)
            : tier === 3
              ? variants(tok)
              : (tok.typo ?? []);
      const flat = flatRanges(ranges);
      for (let c = 0; c < CLASSES; c++) {
        const size = postingCount(index, ranges, c);
        if (size > 0)
          list.push({
            cls: c,
            ranges,
            flat,
            size,
            sum: partial(tier === 2 ? 1 : 0, tier === 0 ? 0 : 1, c, tier === 3 ? 1 : 0),
            typo: tier === 2,
            variant: tier === 3,
            query: 0,
            bit: -1,
            tested: 0,
          });
      }
      made.set(tier, list);
    }
    for (const bk of list) out.push(bk);
  }
  made.set(key, out);
  return out;
}

const pooled = new WeakMap<object, BucketMarks>();
/** Queries numbered so far (BucketMarks.query). */
let queries = 0;

/**
 * Which buckets a multi-token query tests by bits instead of the forward index. The combinations
 * test the same few buckets again and again (every combination that holds one, for each ordinal of
 * its smallest); a forward-index test reads a contact's few dozen entries against every range of the
 * bucket (a typo bucket has dozens), where a marked bucket answers with one load. A bucket is marked
 * once the ordinals tested against it reach 1/TUNING.markRatio of its postings (marking and clearing
 * cost a write per posting each), up to 32 buckets per query; the rest keep the forward index. Each
 * marked bucket is a bitmap of its own (the run's scratch, zero between queries: `clear` leaves them
 * so): one bit per ordinal keeps a million contacts' marks in 122 KiB, where the word per ordinal
 * these replaced (bit k: in the k-th bucket) took 4 MB and made every mark a cache miss.
 */
export class BucketMarks {
  private readonly marked: TokBucket[] = [];
  private readonly sets: Uint32Array[] = [];
  /** Per marked bucket: whether its bitmap is a kept one (kept-marks.ts) rather than the run's scratch. */
  private readonly kept: boolean[] = [];
  private keptInUse = 0;
  /** This query's number (TokBucket.query). */
  private query = 0;
  /**
   * How many buckets are marked (the arrays above are read up to it, never cut: a JS array cut to
   * length 0 drops its backing store, and the next push allocates another).
   */
  private count = 0;
  /** What the last `plan` wrote: `sets[0 .. setCount)`, `slow[0 .. slowCount)`. */
  setCount = 0;
  slowCount = 0;
  private index!: SearchIndex;
  private run!: QueryRun;

  /**
   * The marks of `run`'s query, empty: one object per index's scratch, reused query after query (its
   * arrays and maps were a few hundred bytes of garbage a request).
   */
  static of(run: QueryRun): BucketMarks {
    let m = pooled.get(run.scratch);
    if (!m) pooled.set(run.scratch, (m = new BucketMarks()));
    m.run = run;
    m.index = run.index;
    m.count = 0;
    m.keptInUse = 0;
    m.query = ++queries;
    return m;
  }

  /**
   * The test of membership in every bucket of `others[0 .. nOthers)`, about to be asked `count`
   * more times: the bitmaps the ordinal must be in (into `sets`, `setCount` of them), and the buckets
   * left to the forward index (into `slow`, `slowCount`): the caller's arrays, reused from
   * combination to combination.
   */
  plan(
    others: readonly TokBucket[],
    nOthers: number,
    count: number,
    sets: Uint32Array[],
    slow: TokBucket[],
  ): void {
    this.setCount = this.slowCount = 0;
    for (let o = 0; o < nOthers; o++) {
      const bk = others[o];
      if (bk.query !== this.query) {
        bk.query = this.query;
        bk.bit = -1;
        bk.tested = 0;
      }
      let bit: number | undefined = bk.bit < 0 ? undefined : bk.bit;
      if (bit === undefined) {
        // A big bucket marked by an earlier query: its bits at no cost.
        // Fewer in use than are kept: the least recently used one, reused for a new bucket, is never
        // one this query reads (every one it reads was used more recently).
        const keep = keepable(bk.size) && this.keptInUse < KEPT_MARKS.most - 1;
        const kept = keep ? keptBits(this.index, bk) : undefined;
        if (kept) bit = this.use(bk, kept, true);
        else {
          bk.tested += count;
          if (this.count < 32 && bk.size <= bk.tested * TUNING.markRatio)
            bit = keep ? this.use(bk, keepBits(this.index, bk), true) : this.mark(bk);
        }
      }
      if (bit === undefined) slow[this.slowCount++] = bk;
      else sets[this.setCount++] = this.sets[bit];
    }
  }

  /** Registers bitmap `w` for `bk`; a kept one (kept-marks.ts) is not cleared by `clear`. */
  private use(bk: TokBucket, w: Uint32Array, kept: boolean): number {
    const bit = this.count++;
    this.marked[bit] = bk;
    this.sets[bit] = w;
    this.kept[bit] = kept;
    if (kept) this.keptInUse++;
    bk.bit = bit;
    return bit;
  }

  private mark(bk: TokBucket): number {
    const bit = this.count,
      w = this.run.scratch.memberBits(bit, this.index.base.n),
      post = this.index.base.post;
    markPostings(post, bucketSlices(this.index, bk), w);
    return this.use(bk, w, false);
  }

  /**
   * Leaves the bitmaps as found: zero, by one fill unless the bucket is small enough that zeroing its
   * postings' words is cheaper. A fill is a memset (122 KiB at a million contacts: ~1.5 µs here);
   * a posting's word ~2 ns: the fill wins from about a posting per 32 words.
   */
  clear(): void {
    const post = this.index.base.post;
    for (let k = 0; k < this.count; k++) {
      if (this.kept[k]) continue; // kept for the next queries (kept-marks.ts), not scratch
      const bk = this.marked[k],
        w = this.sets[k];
      if (bk.size * 32 >= w.length) {
        w.fill(0);
        continue;
      }
      const s = bucketSlices(this.index, bk);
      for (let j = 0; j < s.length; j += 2)
        for (let i = s[j], end = s[j + 1]; i < end; i++) w[post[i] >>> 5] = 0;
    }
  }
}
