/**
 * Type-ahead for several typed tokens, top `limit` exactly, without scoring every match. The rank
 * tiers add up over tokens (typo, not-whole and class are sums; the order tier is the lowest), so a
 * contact whose best assignment puts token i in bucket B_i scores at least Σ sum(B_i). Bucket
 * combinations are visited by increasing Σ; each is intersected from its smallest bucket (membership
 * in the others by BucketMarks or the forward index) and its contacts scored in full; the search
 * stops once `limit` hits score below the next combination's Σ — no contact not yet scored can beat
 * or tie them. Variant buckets (Σ ≥ the variant weight) are read only if the spelled ones leave fewer
 * than `limit` hits, and typo buckets (Σ ≥ the typo weight) only if those leave fewer still. When the combinations are too many, candidates of the most selective token are
 * scored and cut instead, or, every token being dense, the tokens' postings are intersected first.
 */
import { TUNING } from '../heads.ts';
import { stepAt } from '../index/base.ts';
import { CLS_SHIFT, TERM_MASK, type SearchIndex } from '../search-index.ts';
import type { Work } from '../work.ts';
import { allBase } from './all-hits.ts';
import { BucketMarks, bucketSlices, madeBuckets, tokenBuckets, type TokBucket } from './buckets.ts';
import { forEachCandidate, pickDriver } from './candidates.ts';
import { ensureTypo, typoAllowed, variants } from './compile.ts';
import { evalBase } from './evaluate.ts';
import { byRank, type Hit } from './hit.ts';
import { eachMarked, inBucket, inFlatRanges, postingCount } from './postings.ts';
import { bucketHead } from './read-bucket.ts';
import { sortSmall } from '../sort-small.ts';
import type { OrderedBits } from './ordered-bits.ts';
import type { QueryRun } from './run.ts';
import { orderPart } from './score.ts';

/**
 * Every choice of one bucket per token (`lists[i][pick[k·n + i]]` for combination k), and the order
 * to visit them in, by increasing sum: the first `count` of `order`. Flat typed arrays, not an object
 * and an array per combination: those were the biggest share of a type-ahead request's garbage.
 */
interface Combos {
  readonly lists: readonly TokBucket[][];
  readonly count: number;
  readonly pick: Int32Array;
  readonly sum: Float64Array;
  readonly order: Uint32Array;
}

/**
 * The arrays every Combos is made in, grown when short and reused query after query: a pass's
 * combinations are visited before the next pass makes its own, and searches run one at a time. Three
 * typed arrays made per pass were off-heap allocations, ~5 µs of a type-ahead request (7% at 10k
 * contacts).
 */
const room = {
  pick: new Int32Array(256),
  sum: new Float64Array(128),
  order: new Uint32Array(128),
  at: new Int32Array(16),
};

/** Combination k's buckets into `into` (its first n, its length set to n). */
function bucketsOf(c: Combos, k: number, into: TokBucket[]): TokBucket[] {
  const n = c.lists.length;
  if (into.length !== n) into.length = n; // a length write is a runtime call: once per query, not per combination
  for (let i = 0; i < n; i++) into[i] = c.lists[i][c.pick[k * n + i]];
  return into;
}

/**
 * Every choice of one bucket per token, by increasing sum; undefined when there are too many. A token
 * with no bucket means no choice at all — checked first, or twelve tokens of ten buckets each would be
 * enumerated before the product reached zero (the "a a … a xx" that exhausted the heap).
 */
function combos(lists: readonly TokBucket[][], work: Work, ordered: boolean): Combos | undefined {
  const n = lists.length;
  let product = 1;
  for (let i = 0; i < n; i++) if (lists[i].length === 0) product = 0;
  for (let i = 0; i < n && product > 0; i++)
    if ((product *= lists[i].length) > TUNING.maxCombos) return undefined;
  // Counted as building them prefix by prefix would (the work cap is also the memory cap), then each
  // made once, the last token's bucket changing fastest (the order ties keep below).
  let prefixes = 1;
  for (let i = 0; i < n && product > 0; i++) {
    work.spend(prefixes * lists[i].length);
    prefixes *= lists[i].length;
  }
  if (room.pick.length < product * n) room.pick = new Int32Array(product * n);
  if (room.sum.length < product) {
    room.sum = new Float64Array(product);
    room.order = new Uint32Array(product);
  }
  if (room.at.length < n) room.at = new Int32Array(n);
  const { pick, sum, order, at } = room;
  at.fill(0, 0, n);
  for (let k = 0; k < product; k++) {
    let s = 0,
      inv = 0;
    for (let i = 0; i < n; i++) {
      const bk = lists[i][(pick[k * n + i] = at[i])];
      s += bk.sum;
      // surelyInverted, read off the picks
      if (i > 0 && bk.cls < lists[i - 1][at[i - 1]].cls) inv++;
    }
    sum[k] = ordered ? s + orderPart(inv) : s;
    order[k] = k;
    for (let i = n - 1; i >= 0 && ++at[i] === lists[i].length; i--) at[i] = 0;
  }
  const bySum = (x: number, y: number) => sum[x] - sum[y] || x - y;
  sortSmall(order, bySum, product);
  return { lists, count: product, pick, sum, order };
}

/*
 * The inversions (rule `order`) every contact of a combination has (combos counts them): a contact's
 * tokens are in display order class by class (name, organisation, emails, phones, the others:
 * contact-tokens.ts), so typed neighbours whose buckets' classes go down are out of display order in
 * every one of them ("and b" meeting "and" in an Organization and "b…" in a name scores an inversion
 * however it is read). The combination's bound with them counted lets its contacts read in ordinal
 * order settle it: without them no hit could ever reach the bound, and the whole driver was read
 * ("and b": 113,000 postings).
 */

/**
 * Whether some display position of the base reached its cap (loader.ts: 65,535, a contact of that
 * many tokens): positions are then not in class order for sure, and no inversion is counted in a
 * bound. The build says so (Base.posCapped).
 */
const positionsCapped = (run: QueryRun): boolean => run.index.base.posCapped;

/** Several typed tokens (see the module comment). */
export function topMulti(run: QueryRun, limit: number): Hit[] {
  const bucketed = topMultiBuckets(run, limit);
  if (bucketed) return bucketed;
  const { index, toks, within, work: stats } = run;
  const cut = (hits: Hit[]) => sortSmall(hits, byRank).slice(0, limit);
  const driver = pickDriver(run, false);
  if (postingCount(index, driver.exact) <= TUNING.multiCap) {
    // Exact first: typo matches rank below every exact match, so they are needed only when too few.
    const hits: Hit[] = [];
    forEachCandidate(
      run,
      driver.exact,
      (ord) => {
        if (within && !within(ord)) return;
        stats.looked++;
        const h = evalBase(run, ord, false, stats);
        if (h) hits.push(h);
      },
      false,
    );
    if (hits.length >= limit || !toks.some((t) => typoAllowed(t.q))) return cut(hits);
    for (const t of toks) ensureTypo(index, t);
    const withTypo: Hit[] = [];
    forEachCandidate(
      run,
      [...driver.exact, ...(driver.typo ?? [])],
      (ord) => {
        if (within && !within(ord)) return;
        stats.looked++;
        const h = evalBase(run, ord, true, stats);
        if (h) withTypo.push(h);
      },
      false,
    );
    return cut(withTypo);
  }
  // Every token is dense: intersect the tokens' postings first, then score what is left.
  return cut(allBase(run));
}

/** The tiers of each pass's buckets (constants: tokenBuckets keeps each list's concatenation). */
const SPELLED = [0, 1] as const,
  WITH_VARIANT = [0, 1, 3] as const,
  WITH_TYPO = [0, 1, 3, 2] as const;

/** The bucket-combination walk; undefined when the combinations are too many (the caller scores every match instead). */
function topMultiBuckets(run: QueryRun, limit: number): Hit[] | undefined {
  const made = run.toks.map(madeBuckets);
  const spelled = combos(
    run.toks.map((t, i) => tokenBuckets(run.index, t, SPELLED, made[i])),
    run.work,
    !positionsCapped(run),
  );
  if (!spelled) return undefined;
  const marks = BucketMarks.of(run);
  const arrays = walkPool.busy ? newWalkArrays() : walkPool; // a walk inside a walk (none today): its own
  arrays.busy = true;
  try {
    return topCombos(run, limit, made, spelled, marks, arrays);
  } finally {
    marks.clear();
    arrays.busy = false;
  }
}

/**
 * The walk's working arrays (each read up to a count the walk keeps, never cut), one set reused
 * query after query: four arrays grown again per query were ~0.7 KB of a type-ahead request's
 * garbage. Searches run one at a time; `busy` guards the reuse all the same.
 */
interface WalkArrays {
  readonly sets: Uint32Array[];
  readonly slow: TokBucket[];
  readonly others: TokBucket[];
  readonly buckets: TokBucket[];
  busy: boolean;
}
const newWalkArrays = (): WalkArrays => ({
  sets: [],
  slow: [],
  others: [],
  buckets: [],
  busy: false,
});
const walkPool = newWalkArrays();

/**
 * topMultiBuckets' visit of the combinations in three passes — spelled, with a variant, with a typo —
 * each read only when the ones before leave fewer than `limit` hits (every combination of a pass sums
 * to more than every one of the pass before); `made` keeps each token's buckets from pass to pass.
 */
function topCombos(
  run: QueryRun,
  limit: number,
  made: Map<number, TokBucket[]>[],
  spelled: Combos,
  marks: BucketMarks,
  arrays: WalkArrays,
): Hit[] | undefined {
  const { index, toks, within, work: stats } = run;
  const b = index.base;
  const { stamp, gen } = index.newStamp();
  const hits: Hit[] = [];
  // Hits past the first `limit` can never come back (each contact is scored once), so they are dropped.
  const top = () => {
    sortSmall(hits, byRank); // usually limit + 1 at most: no TimSort copy (sort-small.ts)
    if (hits.length > limit) hits.length = limit;
    return hits;
  };
  /** The last of the top `limit` once there are that many: a contact that cannot rank before it is not scored. */
  let bar: Hit | undefined;
  const settled = (next: number) => bar !== undefined && bar.score < next;
  // The state of the combination being read, which the callbacks below read: they are made once
  // per query, not per combination (each closure made is garbage, and under tsx a `__name` call).
  let sum = 0,
    withTypo = false; // the pass: typo options scored too
  const { sets, slow, others, buckets } = arrays;
  /** The combination's two buckets when they are one class with overlapping ranges (sharedClass). */
  let shared: readonly TokBucket[] | undefined;
  /**
   * Whether a contact of this combination at `ord`, not scored yet, cannot enter the top: it scores
   * at least `sum`, so with a tie at the bar it needs a lower ordinal than the bar's. Read in ordinal
   * order, the rest of the combination after a hit at `ord` is then out too.
   */
  const beyondTop = (ord: number) =>
    bar !== undefined && (bar.score < sum || (bar.score === sum && bar.ord < ord));
  /** Scores `ord` if it is in every bucket of the combination; true when it became a hit. */
  const consider = (ord: number): boolean => {
    // The marked buckets first: most of a driver's ordinals fail them, and their bitmaps stay in
    // cache where `stamp` (a word per ordinal) does not.
    for (let j = 0, n = marks.setCount; j < n; j++)
      if ((sets[j][ord >>> 5] & (1 << (ord & 31))) === 0) return false;
    if (stamp[ord] === gen || !index.isLive(ord) || beyondTop(ord)) return false;
    // Outside `within` is outside every combination (and the test is cheaper than the forward index).
    if (within && !within(ord)) {
      stamp[ord] = gen;
      return false;
    }
    for (let j = 0, n = marks.slowCount; j < n; j++) if (!inBucket(b, ord, slow[j])) return false;
    // Two buckets of one class whose ranges overlap ("jac ja", "ric ric"): most of their contacts
    // hold one such word only, so they are not in this combination (each typed token needs a word of
    // its own); told from the forward index, not scored. Such a contact is met again in its own
    // combination, so none is stamped here.
    if (shared && !twoSources(b, ord, shared[0], shared[1])) return false;
    stats.looked++;
    // Its best assignment: exact whenever one exists (any typo costs more than every exact rank).
    const h = evalBase(run, ord, withTypo, stats);
    if (!h) return false;
    stamp[ord] = gen;
    hits.push(h);
    if (hits.length >= limit) bar = top()[limit - 1];
    return true;
  };
  /** A driver read in ordinal order: whether the rest of it is settled after `ord`. */
  const inOrder = (ord: number): boolean => consider(ord) && beyondTop(ord);
  let driver: TokBucket | undefined;
  const admitted = (ord: number): boolean => inBucket(b, ord, driver!) && inOrder(ord);
  /** Visits the combinations of `list` holding a bucket `fresh` picks (the others were visited before). */
  const visit = (list: Combos, typo: boolean, fresh?: (bk: TokBucket) => boolean): void => {
    withTypo = typo;
    for (let o = 0; o < list.count; o++) {
      const k = list.order[o];
      bucketsOf(list, k, buckets);
      if (fresh && !buckets.some(fresh)) continue; // visited in an earlier pass
      if (settled(list.sum[k])) return;
      sum = list.sum[k];
      shared = sharedClass(buckets) ? buckets : undefined;
      let d = 0;
      for (let i = 1; i < buckets.length; i++) if (buckets[i].size < buckets[d].size) d = i;
      const drv = (driver = buckets[d]);
      let nOthers = 0; // `others` is read up to it, not cut (a cut array allocates again)
      for (let j = 0; j < buckets.length; j++) if (j !== d) others[nOthers++] = buckets[j];
      // A big driver's kept head first (TUNING.driverHead), the others tested in the forward index
      // unless marked already: `plan` is told of no ordinals for it, so nothing is marked for a head.
      const head =
        !within && !run.among && drv.size > TUNING.orderedDriver && drv.size > TUNING.headMin
          ? bucketHead(index, drv.cls, drv.ranges, TUNING.driverHead)
          : undefined;
      marks.plan(others, nOthers, head ? 0 : drv.size, sets, slow);
      if (run.throughAdmitted(drv.size)) {
        // A selective filter: its ordinals, ascending, looked up in the forward index (as `bucket` does).
        run.eachAdmitted(admitted);
        continue;
      }
      if (drv.size <= TUNING.orderedDriver) {
        const s = bucketSlices(index, drv),
          post = b.post;
        // The common case, one marked bucket: its bits tested in the loop, and `consider` called
        // only for the few ordinals in it (a call each was a tenth of the walk).
        if (marks.setCount === 1) eachMarked(post, s, sets[0], consider);
        else
          for (let k = 0; k < s.length; k += 2)
            for (let i = s[k], end = s[k + 1]; i < end; i++) consider(post[i]);
        continue;
      }
      // A big driver is read in ordinal order (ties go to the lower ordinal): every contact of the
      // combination not reached yet scores at least `sum` and has a higher ordinal than `ord`, so once
      // `limit` hits rank before that, the rest of this combination cannot enter the top.
      if (head) {
        // Its head is its first ordinals in that order: settled there, or the head is the whole
        // bucket, or its last ordinal is already beyond the top, and the rest need not be read.
        let settledHere = false;
        for (let i = 0; i < head.length && !settledHere; i++) settledHere = inOrder(head[i]);
        if (
          settledHere ||
          head.length < TUNING.driverHead ||
          (head.length > 0 && beyondTop(head[head.length - 1]))
        )
          continue;
        // Not settled: the whole bucket after all (the head's ordinals are met again: a hit is
        // stamped, a miss is a miss again).
        marks.plan(others, nOthers, drv.size, sets, slow);
      }
      driverBits(run, drv).drain(inOrder, marks.setCount === 1 ? sets[0] : undefined);
    }
  };
  visit(spelled, false);
  // Every contact not scored yet needs a variant or a typo: it ranks below every spelled hit.
  if (hits.length >= limit) return top();
  if (toks.some((t) => variants(t).length > 0)) {
    const withVariant = combos(
      toks.map((t, i) => tokenBuckets(index, t, WITH_VARIANT, made[i])),
      stats,
      !positionsCapped(run),
    );
    if (!withVariant) return undefined;
    visit(withVariant, false, (bk) => bk.variant);
  }
  // Every contact not scored yet needs a typo: it ranks below every exact hit.
  if (hits.length >= limit || !toks.some((t) => typoAllowed(t.q))) return top();
  for (const t of toks) ensureTypo(index, t);
  const typoCombos = combos(
    toks.map((t, i) =>
      tokenBuckets(index, t, typoAllowed(t.q) ? WITH_TYPO : WITH_VARIANT, made[i]),
    ),
    stats,
    !positionsCapped(run),
  );
  if (!typoCombos) return undefined;
  visit(typoCombos, true, (bk) => bk.typo);
  return top();
}

/** Whether a two-token combination's buckets are one class with overlapping ranges: a contact in both may hold one such word only. */
function sharedClass(buckets: readonly TokBucket[]): boolean {
  if (buckets.length !== 2 || buckets[0].cls !== buckets[1].cls) return false;
  for (const r of buckets[0].ranges)
    for (const q of buckets[1].ranges) if (r.lo < q.hi && q.lo < r.hi) return true;
  return false;
}

/**
 * Whether base ordinal `ord` has a word in bucket x and another word (a different source token) in
 * bucket y, both of one class: X and Y, the sources met in each, both non-empty and not the same
 * single source.
 */
function twoSources(b: SearchIndex['base'], ord: number, x: TokBucket, y: TokBucket): boolean {
  const cls = x.cls;
  let x1 = -1,
    y1 = -1,
    many = false;
  // Sources as the sum of the entries' steps (base.ts entSteps): a contact's first steps from -1.
  let src = -1;
  for (let e = b.entOff[ord], to = b.entOff[ord + 1]; e < to; e++) {
    src += stepAt(b.entSteps, e) >>> 1;
    const v = b.entTerm[e];
    if (v >>> CLS_SHIFT !== cls) continue;
    const tid = v & TERM_MASK;
    if (inFlatRanges(tid, x.flat)) {
      if (x1 < 0) x1 = src;
      else if (x1 !== src) many = true;
    }
    if (inFlatRanges(tid, y.flat)) {
      if (y1 < 0) y1 = src;
      else if (y1 !== src) many = true;
    }
    if (x1 >= 0 && y1 >= 0 && (many || x1 !== y1)) return true;
  }
  return false;
}

/** The ordinals of a bucket's postings in the run's scratch bitmap, to be read in ascending order (and cleared while read). */
function driverBits(run: QueryRun, bk: TokBucket): OrderedBits {
  const bits = run.scratch.ordinalBits(run.index.base.n),
    post = run.index.base.post;
  const s = bucketSlices(run.index, bk);
  for (let k = 0; k < s.length; k += 2)
    for (let i = s[k], end = s[k + 1]; i < end; i++) bits.add(post[i]);
  return bits;
}
