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
import { BucketMarks, madeBuckets, tokenBuckets, type TokBucket } from './buckets.ts';
import { forEachCandidate, pickDriver } from './candidates.ts';
import { ensureTypo, typoAllowed, variants } from './compile.ts';
import { evalBase } from './evaluate.ts';
import { byRank, type Hit } from './hit.ts';
import { inBucket, inRanges, postingCount, postingSlices } from './postings.ts';
import { bucketHead } from './read-bucket.ts';
import { sortSmall } from '../sort-small.ts';
import type { OrderedBits } from './ordered-bits.ts';
import type { QueryRun } from './run.ts';
import { orderPart } from './score.ts';

interface Combo {
  readonly buckets: readonly TokBucket[];
  readonly sum: number;
}

/**
 * Every choice of one bucket per token, by increasing sum; undefined when there are too many. A token
 * with no bucket means no choice at all — checked first, or twelve tokens of ten buckets each would be
 * enumerated before the product reached zero (the "a a … a xx" that exhausted the heap).
 */
function combos(lists: readonly TokBucket[][], work: Work, ordered: boolean): Combo[] | undefined {
  if (lists.some((l) => l.length === 0)) return [];
  let product = 1;
  for (const l of lists) if ((product *= l.length) > TUNING.maxCombos) return undefined;
  // Counted as building them prefix by prefix would (the work cap is also the memory cap), then each
  // made once, the last token's bucket changing fastest (the order the sort below keeps for ties).
  let prefixes = 1;
  for (const l of lists) {
    work.spend(prefixes * l.length);
    prefixes *= l.length;
  }
  const n = lists.length;
  const at = new Array<number>(n).fill(0);
  const out = new Array<Combo>(product);
  for (let k = 0; k < product; k++) {
    const buckets = new Array<TokBucket>(n);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += (buckets[i] = lists[i][at[i]]).sum;
    if (ordered) sum += orderPart(surelyInverted(buckets));
    out[k] = { buckets, sum };
    for (let i = n - 1; i >= 0 && ++at[i] === lists[i].length; i--) at[i] = 0;
  }
  return sortSmall(out, (x, y) => x.sum - y.sum);
}

/**
 * The inversions (rule `order`) every contact of a combination has: a contact's tokens are in display
 * order class by class (name, organisation, emails, phones, the others: contact-tokens.ts), so typed
 * neighbours whose buckets' classes go down are out of display order in every one of them ("and b"
 * meeting "and" in an Organization and "b…" in a name scores an inversion however it is read). The
 * combination's bound with them counted lets its contacts read in ordinal order settle it: without
 * them no hit could ever reach the bound, and the whole driver was read ("and b": 113,000 postings).
 */
function surelyInverted(buckets: readonly TokBucket[]): number {
  let inv = 0;
  for (let i = 1; i < buckets.length; i++) if (buckets[i].cls < buckets[i - 1].cls) inv++;
  return inv;
}

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
  const cut = (hits: Hit[]) => hits.sort(byRank).slice(0, limit);
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

/** The bucket-combination walk; undefined when the combinations are too many (the caller scores every match instead). */
function topMultiBuckets(run: QueryRun, limit: number): Hit[] | undefined {
  const made = run.toks.map(madeBuckets);
  const spelled = combos(
    run.toks.map((t, i) => tokenBuckets(run.index, t, [0, 1], made[i])),
    run.work,
    !positionsCapped(run),
  );
  if (!spelled) return undefined;
  const marks = new BucketMarks(run);
  try {
    return topCombos(run, limit, made, spelled, marks);
  } finally {
    marks.clear();
  }
}

/**
 * topMultiBuckets' visit of the combinations in three passes — spelled, with a variant, with a typo —
 * each read only when the ones before leave fewer than `limit` hits (every combination of a pass sums
 * to more than every one of the pass before); `made` keeps each token's buckets from pass to pass.
 */
function topCombos(
  run: QueryRun,
  limit: number,
  made: Map<number, TokBucket[]>[],
  spelled: Combo[],
  marks: BucketMarks,
): Hit[] | undefined {
  const { index, toks, within, work: stats } = run;
  const b = index.base;
  const { stamp, gen } = index.newStamp();
  const hits: Hit[] = [];
  // Hits past the first `limit` can never come back (each contact is scored once), so they are dropped.
  const top = () => {
    hits.sort(byRank);
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
  const sets: Uint32Array[] = [],
    slow: TokBucket[] = [],
    others: TokBucket[] = [];
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
    for (let j = 0; j < sets.length; j++)
      if ((sets[j][ord >>> 5] & (1 << (ord & 31))) === 0) return false;
    if (stamp[ord] === gen || !index.isLive(ord) || beyondTop(ord)) return false;
    // Outside `within` is outside every combination (and the test is cheaper than the forward index).
    if (within && !within(ord)) {
      stamp[ord] = gen;
      return false;
    }
    for (let j = 0; j < slow.length; j++) if (!inBucket(b, ord, slow[j])) return false;
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
  const visit = (list: Combo[], typo: boolean, fresh?: (bk: TokBucket) => boolean): void => {
    withTypo = typo;
    for (const combo of list) {
      const buckets = combo.buckets;
      if (fresh && !buckets.some(fresh)) continue; // visited in an earlier pass
      if (settled(combo.sum)) return;
      sum = combo.sum;
      shared = sharedClass(buckets) ? buckets : undefined;
      let d = 0;
      for (let i = 1; i < buckets.length; i++) if (buckets[i].size < buckets[d].size) d = i;
      const drv = (driver = buckets[d]);
      others.length = 0;
      for (let j = 0; j < buckets.length; j++) if (j !== d) others.push(buckets[j]);
      // A big driver's kept head first (TUNING.driverHead), the others tested in the forward index
      // unless marked already: `plan` is told of no ordinals for it, so nothing is marked for a head.
      const head =
        !within && !run.among && drv.size > TUNING.orderedDriver && drv.size > TUNING.headMin
          ? bucketHead(index, drv.cls, drv.ranges, TUNING.driverHead)
          : undefined;
      marks.plan(others, head ? 0 : drv.size, sets, slow);
      if (run.throughAdmitted(drv.size)) {
        // A selective filter: its ordinals, ascending, looked up in the forward index (as `bucket` does).
        run.eachAdmitted(admitted);
        continue;
      }
      if (drv.size <= TUNING.orderedDriver) {
        const s = postingSlices(index, drv.ranges, drv.cls);
        for (let k = 0; k < s.length; k += 2)
          for (let i = s[k], end = s[k + 1]; i < end; i++) consider(b.post[i]);
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
        marks.plan(others, drv.size, sets, slow);
      }
      driverBits(run, drv).drain(inOrder);
    }
  };
  visit(spelled, false);
  // Every contact not scored yet needs a variant or a typo: it ranks below every spelled hit.
  if (hits.length >= limit) return top();
  if (toks.some((t) => variants(t).length > 0)) {
    const withVariant = combos(
      toks.map((t, i) => tokenBuckets(index, t, [0, 1, 3], made[i])),
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
      tokenBuckets(index, t, typoAllowed(t.q) ? [0, 1, 3, 2] : [0, 1, 3], made[i]),
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
    if (inRanges(tid, x.ranges)) {
      if (x1 < 0) x1 = src;
      else if (x1 !== src) many = true;
    }
    if (inRanges(tid, y.ranges)) {
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
  const s = postingSlices(run.index, bk.ranges, bk.cls);
  for (let k = 0; k < s.length; k += 2)
    for (let i = s[k], end = s[k + 1]; i < end; i++) bits.add(post[i]);
  return bits;
}
