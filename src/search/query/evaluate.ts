/**
 * Scoring one base-segment contact: each typed token's options (the contact's forward-index entries
 * in its ranges) are collected into the run's scratch arrays, and the best assignment of tokens to
 * distinct contact tokens is found by branch and bound, on typed arrays only. Objects are made only
 * for the winning assignment. (assign.ts is the same on Entry objects.)
 */
import type { Rank } from '../rank/rules.ts';
import { unpackRank } from '../rank/rules.ts';
import { stepsOf } from '../index/base.ts';
import { CLS_SHIFT, TERM_MASK, type SearchIndex } from '../search-index.ts';
import type { Work } from '../work.ts';
import { ScoredHit, type Hit, type TokenMatch } from './hit.ts';
import type { QueryRun, Repeats, Scratch } from './run.ts';
import { orderPart, partial } from './score.ts';
import { rangeTests, RANGE_STRIDE } from './compile.ts';

const NO_REPEATS: Repeats = {
  first: Int32Array.of(0),
  times: Int32Array.of(1),
  prev: Int32Array.of(-1),
};
const ONE_OPTION = Int32Array.of(0);
/** The pick of a one-token query's best option (read before the next contact is scored). */
const ONE_PICK = [0];
/** stepsOf's sums. */
const SUMS = new Int32Array(2);

type Base = SearchIndex['base'];

/** Branch-and-bound state over the scratch options (a plain object: no closure per contact). */
interface Search {
  b: Base;
  e: Int32Array;
  f: Uint8Array;
  /** The options' sources and positions (Scratch optSrc, optPos). */
  src: Int32Array;
  pos: Int32Array;
  from: number[];
  to: number[];
  n: number;
  order: number[];
  chosen: number[];
  used: number[];
  budget: number;
  bestScore: number;
  bestPick: number[];
  work?: Work;
  prev: Int32Array;
}

/** Option j's packed rank without the order rule; flags bit 0: a typo, bit 1: whole, bit 2: a variant. */
function optScore(b: Base, e: Int32Array, f: Uint8Array, j: number): number {
  return partial(f[j] & 1, f[j] & 2 ? 0 : 1, b.entTerm[e[j]] >>> CLS_SHIFT, (f[j] >> 2) & 1);
}

/** The order rule's part for options `pick` (one per typed token, in typed order; `pos` their positions): neighbours out of display order. */
function inversions(pos: Int32Array, pick: readonly number[], n: number): number {
  let inv = 0;
  for (let i = 1; i < n; i++) if (pos[pick[i]] < pos[pick[i - 1]]) inv++;
  return orderPart(inv);
}

/** The packed rank of options `pick`. */
function pickScore(
  b: Base,
  e: Int32Array,
  f: Uint8Array,
  pos: Int32Array,
  pick: readonly number[],
  n: number,
): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += optScore(b, e, f, pick[i]);
  return sum + inversions(pos, pick, n);
}

/** The branch-and-bound state of a scratch (one per index: searches run one at a time), reset per contact. */
const searches = new WeakMap<Scratch, Search>();
function searchOf(s: Scratch): Search {
  let st = searches.get(s);
  if (!st)
    searches.set(
      s,
      (st = {
        b: undefined as unknown as Base,
        e: s.optEntry,
        f: s.optFlags,
        src: s.optSrc,
        pos: s.optPos,
        from: s.optFrom,
        to: s.optTo,
        n: 0,
        order: [],
        chosen: [],
        used: [],
        budget: 0,
        bestScore: Infinity,
        bestPick: [],
        prev: NO_REPEATS.prev,
      }),
    );
  return st;
}

function visit(st: Search, d: number, sum: number): void {
  if (st.budget-- <= 0 || sum >= st.bestScore) return;
  const { b, e, n, chosen, src: srcOf } = st;
  if (d === n) {
    const sc = sum + inversions(st.pos, chosen, n);
    if (sc < st.bestScore) {
      st.bestScore = sc;
      for (let i = 0; i < n; i++) st.bestPick[i] = chosen[i];
    }
    return;
  }
  const qi = st.order[d];
  st.work?.spend(1 + st.to[qi] - st.from[qi]);
  const after = st.prev[qi] < 0 ? -1 : srcOf[chosen[st.prev[qi]]]; // copies of a token: ascending sources
  for (let j = st.from[qi]; j < st.to[qi]; j++) {
    const src = srcOf[j];
    if (src <= after || st.used.includes(src)) continue;
    st.used.push(src);
    chosen[qi] = j;
    visit(st, d + 1, sum + optScore(b, e, st.f, j));
    st.used.pop();
  }
}

/**
 * Scores base ordinal `ord` for the run's tokens (`withTypo`: typo options too). `work`: where the
 * steps are counted, or undefined for a contact already known to match (its matches for display).
 */
export function evalBase(
  run: QueryRun,
  ord: number,
  withTypo: boolean,
  work: Work | undefined,
): Hit | undefined {
  const b = run.index.base;
  const toks = run.toks;
  const n = toks.length;
  const seed = baseOptions(run, ord, withTypo, work);
  if (!seed) return undefined;
  const { optEntry: e, optFlags: f, optFrom: from, optTo: to } = run.scratch;
  let bestScore = Infinity;
  let bestPick: readonly number[] = ONE_PICK;
  if (n === 1) {
    let best = -1;
    for (let j = from[0]; j < to[0]; j++) {
      const sc = optScore(b, e, f, j);
      if (sc < bestScore) {
        bestScore = sc;
        best = j;
      }
    }
    ONE_PICK[0] = best;
  } else {
    // Fewest options first (a stable insertion sort: a token's copies stay in typed order, as `prev`
    // needs). The search state is the scratch's, reset: nothing is allocated per contact scored.
    const st = searchOf(run.scratch);
    const order = st.order; // its first n written here (no length set: a length write is a runtime call)
    for (let i = 0; i < n; i++) {
      let k = i;
      while (k > 0 && to[order[k - 1]] - from[order[k - 1]] > to[i] - from[i]) {
        order[k] = order[k - 1];
        k--;
      }
      order[k] = i;
    }
    st.b = b;
    st.e = e;
    st.f = f;
    st.src = run.scratch.optSrc;
    st.pos = run.scratch.optPos;
    st.from = from;
    st.to = to;
    st.n = n;
    // chosen and bestPick are read up to n only; `used` is empty unless a deadline threw mid-visit.
    if (st.used.length !== 0) st.used.length = 0;
    st.budget = 4000;
    st.bestScore = Infinity;
    st.work = work;
    st.prev = run.repeats.prev;
    visit(st, 0, 0);
    if (st.bestScore === Infinity) {
      for (let i = 0; i < n; i++) st.bestPick[i] = seed[i];
      st.bestScore = pickScore(b, e, f, st.pos, st.bestPick, n);
    } // the node budget ran out first
    bestScore = st.bestScore;
    bestPick = st.bestPick;
  }
  // The answer's objects: the only ones made per contact scored.
  const matches = new Array<TokenMatch>(n);
  const { optSrc, optPos } = run.scratch;
  if (n === 1) {
    stepsOf(b.entSteps, b.entOff[ord], e[bestPick[0]] + 1, SUMS);
    optPos[bestPick[0]] = SUMS[0] - 1;
    optSrc[bestPick[0]] = SUMS[1] - 1;
  } // else found by baseOptions
  for (let i = 0; i < n; i++) {
    const j = bestPick[i],
      x = e[j];
    matches[i] = {
      entry: optSrc[j],
      typo: (f[j] & 1) as 0 | 1,
      variant: ((f[j] >> 2) & 1) as 0 | 1,
      whole: (f[j] & 2) !== 0,
      cls: b.entTerm[x] >>> CLS_SHIFT,
      pos: optPos[j],
      typed: toks[i].q.term.length,
    };
  }
  return new ScoredHit(ord, bestScore, matches);
}

/** Whether base ordinal `ord` matches every typed token, each with a token of its own (no scoring: the match set). */
export const matchesBase = (run: QueryRun, ord: number): boolean =>
  baseOptions(run, ord, true, run.work) !== undefined;

/**
 * Collects each typed token's options at base ordinal `ord` into the run's scratch (optFrom/optTo
 * ranges of optEntry/optFlags) and returns one assignment of them to distinct contact tokens (the
 * option per typed token; any option for a single token), or undefined when the contact does not match.
 */
function baseOptions(
  run: QueryRun,
  ord: number,
  withTypo: boolean,
  work: Work | undefined,
): Int32Array | undefined {
  const b = run.index.base,
    toks = run.toks,
    s: Scratch = run.scratch;
  const from = b.entOff[ord],
    to = b.entOff[ord + 1];
  const n = toks.length;
  if (n > to - from) return undefined; // each typed token needs a token of its own
  work?.spend(to - from);
  s.options(n * (to - from));
  const { optEntry, optFlags, optFrom, optTo } = s;
  let k = 0;
  const { first, times } = n > 1 ? run.repeats : NO_REPEATS;
  const entTerm = b.entTerm;
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (first[i] !== i) {
      optFrom[i] = optFrom[first[i]];
      optTo[i] = optTo[first[i]];
      continue;
    } // typed again: the same options
    optFrom[i] = k;
    work?.spend(to - from);
    // Exact and variant ranges first, then (withTypo) the typo ones: the first range met decides.
    const r = rangeTests(t);
    const end = withTypo ? r.length : t.exact.length * RANGE_STRIDE;
    for (let e = from; e < to; e++) {
      const tid = entTerm[e] & TERM_MASK;
      for (let j = 0; j < end; j += RANGE_STRIDE)
        if (tid >= r[j] && tid < r[j + 1]) {
          optEntry[k] = e;
          optFlags[k] = tid === r[j + 2] ? 2 : r[j + 3];
          k++;
          break;
        }
    }
    if (k - optFrom[i] < times[i]) return undefined; // typed more often than it has options (none, for a token typed once)
    optTo[i] = k;
  }
  if (n === 1) return ONE_OPTION;
  // The options' positions and sources: the entries' steps summed up to each (a token's options ascend).
  const { optSrc, optPos } = s;
  const steps = b.entSteps;
  let sources = 0;
  for (let i = 0; i < n; i++) {
    if (first[i] !== i) continue;
    let at = from,
      p = -1,
      q = -1;
    for (let j = optFrom[i]; j < optTo[i]; j++) {
      const x = optEntry[j];
      stepsOf(steps, at, x + 1, SUMS);
      at = x + 1;
      optPos[j] = p += SUMS[0];
      optSrc[j] = q += SUMS[1];
    }
    if (q >= sources) sources = q + 1;
  }
  s.matching(n, sources);
  for (let i = 0; i < n; i++) if (!augment(s, i, i, work)) return undefined;
  return s.choice;
}

/**
 * assign.ts `matching` on the run's scratch options, without its closures and arrays (it ran per
 * multi-token candidate): typed token i takes a contact token not seen in this round, taking it from
 * its owner when the owner finds another. The option per typed token lands in `s.choice`.
 */
function augment(s: Scratch, i: number, round: number, work: Work | undefined): boolean {
  for (let j = s.optFrom[i]; j < s.optTo[i]; j++) {
    work?.spend(1);
    const src = s.optSrc[j];
    if (s.seen[src] === round) continue;
    s.seen[src] = round;
    if (s.owner[src] < 0 || augment(s, s.owner[src], round, work)) {
      s.owner[src] = i;
      s.choice[i] = j;
      return true;
    }
  }
  return false;
}

/** A hit of a full single-token search: scored from the postings alone; its matches are found when read. */
export class BucketHit implements Hit {
  private m?: readonly TokenMatch[];
  constructor(
    readonly ord: number,
    readonly score: number,
    private readonly run: QueryRun,
  ) {}
  get rank(): Rank {
    return unpackRank(this.score);
  }
  get matches(): readonly TokenMatch[] {
    return (this.m ??= evalBase(this.run, this.ord, true, undefined)?.matches ?? []);
  }
}
