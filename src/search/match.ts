/**
 * Matching and ranking (CONTRACT.md §4). Every typed token must match a different token of the
 * contact, by prefix, in any order; word tokens of 5+ characters also match with one edit after the
 * first character. A contact's rank is its best assignment of typed tokens to its tokens, scored by
 * the rules of rank/rules/ (typo, exactness, field, order), then DisplayName, then ContactId — and
 * base ordinals ARE that last order, so postings come pre-sorted by the final tiers.
 *
 * Type-ahead needs only the first Limit, and must not score every contact a 1-character prefix
 * matches (the trap: hundreds of ms at 1M). So, milli-style, it walks the rank tiers bucket by bucket
 * and stops once Limit results are settled:
 *
 *   one token:  (whole, name) (whole, org) … (whole, other) (prefix, name) … (prefix, other) (typo, name) …
 *               each bucket's rank is fixed, so its first `need` ordinals (ascending) are final;
 *               a bucket is read from its posting slice when small, or by scanning ordinals in order
 *               (the forward index says whether the ordinal is in the bucket) when it is dense.
 *   n tokens:   candidates of the most selective token, scored and cut; when every token is dense
 *               ("j s"), the tokens' postings are intersected first (a count per ordinal) and only the
 *               contacts holding every token are scored.
 *
 * The delta segment (recent writes) is matched by brute force and merged by (rank, sort key).
 */
import type { Checkpoint } from '../security/deadline.ts';
import { Marks, scratchBits, scratchWords, type WordList } from './bits.ts';
import type { Entry } from './contact-tokens.ts';
import { prefixWithinOneEdit } from './edit-distance.ts';
import { normalize } from './normalize.ts';
import { rankOf, unpackRank, type Rank } from './rank/rules.ts';
import type { MatchFacts } from './rank/rule.ts';
import { headKey, smallestDistinct, TUNING } from './heads.ts';
import { CLASSES, EMAIL_NS, PART_NS, PHONE_NS, reverse, SUFFIX_NS, type SearchIndex } from './search-index.ts';
import { digitVariants, isDigits, queryTokens, termText, type QueryToken } from './tokenize.ts';
import { Work } from './work.ts';

export interface TokenMatch extends MatchFacts {
  /** Index of the contact token in SearchIndex.entriesOf(ord). */
  readonly entry: number;
  /** Characters of the typed token (normalised), for highlighting. */
  readonly typed: number;
}

export interface Hit {
  readonly ord: number;
  readonly rank: Rank;
  /** packRank(rank): one number, lower is better. */
  readonly score: number;
  /** In typed-token order. */
  readonly matches: readonly TokenMatch[];
}

export interface MatchResult {
  hits: Hit[];
  /** Contacts looked at (for InternalUse diagnostics). */
  candidates: number;
  /** The work done (work.ts): what tests hold to a bound. */
  steps: number;
}

const typoAllowed = (q: QueryToken) => q.kind === 'word' && q.term.length >= 5 && !isDigits(q.term);

/** A range of term ids [lo, hi); `exact` is the id of the typed term itself (a whole-token match), or -1. */
interface Range { readonly lo: number; readonly hi: number; readonly exact: number }

interface Compiled {
  readonly q: QueryToken;
  readonly exact: Range[];
  /** Ranges of the terms within one edit (computed on first need). */
  typo?: Range[];
}

function range(index: SearchIndex, prefix: string, exact: boolean): Range | undefined {
  const [lo, hi] = index.prefixRange(prefix);
  if (lo >= hi) return undefined;
  return { lo, hi, exact: exact && index.termAt(lo) === prefix ? lo : -1 };
}

function compile(index: SearchIndex, q: QueryToken): Compiled {
  const out: (Range | undefined)[] = [];
  if (q.kind === 'email') out.push(range(index, EMAIL_NS + q.term, true));
  else {
    if (!q.international) out.push(range(index, q.term, true), range(index, PART_NS + q.term, false));
    if (q.kind === 'digits') {
      for (const v of digitVariants(q.term)) out.push(range(index, PHONE_NS + v, true));
      if (q.term.length >= 4) out.push(range(index, SUFFIX_NS + reverse(q.term), false));
    }
  }
  return { q, exact: out.filter((r): r is Range => r !== undefined) };
}

/** What compiling a typed token depends on: tokens with the same key match the same contact tokens. */
const tokenKey = (q: QueryToken) => `${q.kind}|${q.international ? 1 : 0}|${q.term}`;

/** The query's tokens compiled; a token typed again is the same object (its options are collected once per contact). */
function compileAll(index: SearchIndex, query: readonly QueryToken[]): Compiled[] {
  const made = new Map<string, Compiled>();
  return query.map((q) => {
    const key = tokenKey(q);
    let c = made.get(key);
    if (!c) made.set(key, c = compile(index, q));
    return c;
  });
}

/**
 * A token typed more than once (identical objects: compileAll): per token, the index of its first
 * occurrence (`first`), at that index how often it was typed (`times`: a contact needs that many
 * options for it), and the index of its previous occurrence or -1 (`prev`). The copies of a token
 * take their contact tokens in ascending source order — one arrangement of each choice instead of
 * all its permutations (which is what made "a a a a a a" cost thousands of nodes per contact).
 */
interface Repeats { readonly first: Int32Array; readonly times: Int32Array; readonly prev: Int32Array }
const repeatsOf = new WeakMap<readonly Compiled[], Repeats>();
function repeats(toks: readonly Compiled[]): Repeats {
  let r = repeatsOf.get(toks);
  if (!r) {
    const first = Int32Array.from(toks, (t) => toks.indexOf(t));
    const times = new Int32Array(toks.length);
    for (const i of first) times[i]++;
    const prev = Int32Array.from(toks, (t, i) => (i === 0 ? -1 : toks.lastIndexOf(t, i - 1)));
    repeatsOf.set(toks, r = { first, times, prev });
  }
  return r;
}

/**
 * Ranges of the terms that `q` matches with one edit after its first character: every such term starts
 * with a string v within one edit of q (|v| = |q|−1, |q|, |q|+1), so each v found in the dictionary
 * is a prefix range. Substitutions and insertions only try the characters the dictionary actually
 * has at that point (found by jumping through the sorted terms), not an alphabet.
 */
function typoRanges(index: SearchIndex, q: string): Range[] {
  const variants = new Set<string>();
  const L = q.length;
  const nextChars = (prefix: string): string[] => {
    const [lo0, hi] = index.prefixRange(prefix);
    const out: string[] = [];
    let i = lo0;
    while (i < hi) {
      const t = index.termAt(i);
      if (t.length <= prefix.length) { i++; continue; }
      const ch = t[prefix.length];
      out.push(ch);
      i = index.lowerBound(prefix + ch + '\uffff');
    }
    return out;
  };
  for (let i = 1; i < L; i++) {
    variants.add(q.slice(0, i) + q.slice(i + 1)); // delete
    if (i < L - 1) variants.add(q.slice(0, i) + q[i + 1] + q[i] + q.slice(i + 2)); // swap neighbours
    for (const ch of nextChars(q.slice(0, i))) {
      if (ch !== q[i]) variants.add(q.slice(0, i) + ch + q.slice(i + 1)); // substitute
      variants.add(q.slice(0, i) + ch + q.slice(i)); // insert
    }
  }
  const out: Range[] = [];
  for (const v of variants) {
    if (v.length < 2 || v === q || q.startsWith(v) && v.length === L) continue;
    const r = range(index, v, false);
    if (r) out.push(r);
  }
  return out;
}

function ensureTypo(index: SearchIndex, c: Compiled): Range[] {
  if (!c.typo) c.typo = typoAllowed(c.q) ? typoRanges(index, c.q.term) : [];
  return c.typo;
}

// ── evaluating one contact ──

/** How typed token `q` matches contact token `e` (string form: the delta segment and the naive reference). */
export function matchToken(q: QueryToken, e: Entry, entry: number): TokenMatch | undefined {
  const typed = q.term.length;
  const facts = (typo: 0 | 1, whole: boolean): TokenMatch => ({ entry, typo, whole, cls: e.cls, pos: e.pos, typed });
  if (q.kind === 'email') return e.kind === 'email' && e.term.startsWith(q.term) ? facts(0, e.term === q.term) : undefined;
  if (e.kind === 'email') return undefined; // word tokens match the address's pieces, not the whole address
  if (e.kind === 'phone') {
    if (q.kind !== 'digits') return undefined;
    for (const v of digitVariants(q.term)) if (e.term.startsWith(v)) return facts(0, e.term === v);
    if (q.term.length >= 4 && e.term.endsWith(q.term)) return facts(0, false);
    return undefined;
  }
  if (q.international) return undefined; // "+44 20" is a phone number, not a street number or postal code
  if (e.kind === 'part') return e.term.startsWith(q.term) ? facts(0, false) : undefined; // the contact's token is the whole word
  if (e.term.startsWith(q.term)) return facts(0, e.term === q.term);
  if (typoAllowed(q) && prefixWithinOneEdit(q.term, e.term)) return facts(1, false);
  return undefined;
}

function entryOptions(query: readonly QueryToken[], entries: readonly Entry[], work?: Work): TokenMatch[][] | undefined {
  if (query.length > entries.length) return undefined; // each typed token needs a token of its own
  const made = new Map<string, TokenMatch[]>();
  const options = query.map((q) => {
    const key = tokenKey(q);
    const again = made.get(key);
    if (again) return again; // typed again: the same options
    work?.spend(entries.length);
    const list: TokenMatch[] = [];
    entries.forEach((e, i) => {
      const m = matchToken(q, e, i);
      if (m) list.push(m);
    });
    made.set(key, list);
    return list;
  });
  return options.some((o) => o.length === 0) ? undefined : options;
}

/**
 * One way for the typed tokens to each take a different contact token, or undefined when there is
 * none: a bipartite matching by augmenting paths (Kuhn), polynomial whatever the tokens, so "a a a a
 * a a xx" is refused in O(tokens × options) instead of by enumerating assignments, and the branch
 * and bound starts from a real assignment (its node budget can then only cut improvements, never a
 * match). `eachOption(i, f)` calls `f(source, option)` for typed token i's options until `f` returns
 * true; sources (the contact's tokens) are below `sources`. Returns the option chosen per token.
 */
function matching(n: number, eachOption: (i: number, f: (src: number, opt: number) => boolean) => boolean, sources: number,
  work?: Work): Int32Array | undefined {
  const owner = new Int32Array(sources).fill(-1);
  const seen = new Int32Array(sources).fill(-1);
  const choice = new Int32Array(n);
  const augment = (i: number, round: number): boolean => eachOption(i, (src, opt) => {
    work?.spend(1);
    if (seen[src] === round) return false;
    seen[src] = round;
    if (owner[src] < 0 || augment(owner[src], round)) { owner[src] = i; choice[i] = opt; return true; }
    return false;
  });
  for (let i = 0; i < n; i++) if (!augment(i, i)) return undefined;
  return choice;
}

const W30 = 2 ** 30, W20 = 2 ** 20, W10 = 2 ** 10;
const partial = (typo: number, notWhole: number, cls: number) => Math.min(typo, 1023) * W30 + Math.min(notWhole, 1023) * W20 + Math.min(cls, 1023) * W10;

/** The packed rank of a full assignment (typed-token order): the tiers' sums, then the order inversions. */
function scoreOf(chosen: readonly TokenMatch[]): number {
  let typo = 0, nw = 0, cls = 0, inv = 0;
  for (let i = 0; i < chosen.length; i++) {
    const m = chosen[i];
    typo += m.typo; nw += m.whole ? 0 : 1; cls += m.cls;
    if (i > 0 && m.pos < chosen[i - 1].pos) inv++;
  }
  return partial(typo, nw, cls) + Math.min(inv, 1023);
}

/**
 * Best assignment of typed tokens to distinct contact tokens (lowest packRank). Branch and bound: the
 * typo, exactness and field tiers only grow as tokens are assigned, so a branch whose partial score
 * already reaches the best is cut; `order` is added at the leaves.
 */
function assign(options: TokenMatch[][], work?: Work): { score: number; matches: TokenMatch[] } | undefined {
  if (options.length === 1) {
    let best: TokenMatch | undefined, bestScore = Infinity;
    for (const m of options[0]) {
      const sc = partial(m.typo, m.whole ? 0 : 1, m.cls);
      if (sc < bestScore) { bestScore = sc; best = m; }
    }
    return best && { score: bestScore, matches: [best] };
  }
  const n = options.length;
  // Tokens with the fewest options first; each token's options best first, so good leaves come early.
  const order = options.map((_, i) => i).sort((a, b) => options[a].length - options[b].length);
  const sorted = options.map((o) => [...o].sort((a, b) => partial(a.typo, a.whole ? 0 : 1, a.cls) - partial(b.typo, b.whole ? 0 : 1, b.cls)));
  let sources = 0;
  for (const o of options) for (const m of o) if (m.entry >= sources) sources = m.entry + 1;
  const seed = matching(n, (i, f) => { for (let j = 0; j < sorted[i].length; j++) if (f(sorted[i][j].entry, j)) return true; return false; }, sources, work);
  if (!seed) return undefined;
  let bestScore = Infinity;
  let bestPick: TokenMatch[] | undefined;
  const chosen: TokenMatch[] = new Array(n);
  const used: number[] = [];
  let budget = 4000;
  // Copies of a token (entryOptions shares their list) take contact tokens in ascending order, as in `visit` below.
  const prev = options.map((o, i) => (i === 0 ? -1 : options.lastIndexOf(o, i - 1)));
  const visit = (k: number, typo: number, nw: number, cls: number) => {
    if (budget-- <= 0) return;
    work?.spend(1 + options[order[Math.min(k, n - 1)]].length);
    if (partial(typo, nw, cls) >= bestScore) return;
    if (k === n) {
      const sc = scoreOf(chosen);
      if (sc < bestScore) { bestScore = sc; bestPick = [...chosen]; }
      return;
    }
    const qi = order[k];
    const after = prev[qi] < 0 ? -1 : chosen[prev[qi]].entry;
    for (const m of sorted[qi]) {
      if (m.entry <= after || used.includes(m.entry)) continue;
      used.push(m.entry);
      chosen[qi] = m;
      visit(k + 1, typo + m.typo, nw + (m.whole ? 0 : 1), cls + m.cls);
      used.pop();
    }
  };
  visit(0, 0, 0, 0);
  if (!bestPick) { bestPick = sorted.map((o, i) => o[seed[i]]); bestScore = scoreOf(bestPick); } // the node budget ran out first
  return { score: bestScore, matches: bestPick };
}

/** Best assignment of `query` over contact token entries (string matching; also the naive reference of tests). */
export function bestAssignment(query: readonly QueryToken[], entries: readonly Entry[], work?: Work): { rank: Rank; matches: TokenMatch[] } | undefined {
  const options = entryOptions(query, entries, work);
  const best = options && assign(options, work);
  return best && { rank: rankOf(best.matches), matches: best.matches };
}

class ScoredHit implements Hit {
  constructor(readonly ord: number, readonly score: number, readonly matches: readonly TokenMatch[]) {}
  /** Decoded on demand: a full search makes many hits and reads few ranks. */
  get rank(): Rank { return unpackRank(this.score); }
}

/** A hit of a full single-token search: scored from the postings alone; its matches are found when read. */
class BucketHit implements Hit {
  private m?: readonly TokenMatch[];
  constructor(readonly ord: number, readonly score: number, private readonly index: SearchIndex, private readonly tok: Compiled) {}
  get rank(): Rank { return unpackRank(this.score); }
  get matches(): readonly TokenMatch[] {
    return (this.m ??= evalBase(this.index, this.ord, [this.tok], true)?.matches ?? []);
  }
}

const hitOf = (ord: number, a: { score: number; matches: TokenMatch[] }): Hit => new ScoredHit(ord, a.score, a.matches);

const NO_REPEATS: Repeats = { first: Int32Array.of(0), times: Int32Array.of(1), prev: Int32Array.of(-1) };
const ONE_OPTION = Int32Array.of(0);

// Scratch for evalBase: the options of every typed token, contiguous per token (no objects per option).
let scrE = new Int32Array(1024);
let scrF = new Uint8Array(1024);
const optFrom: number[] = [], optTo: number[] = [];

interface Search {
  b: SearchIndex['base']; n: number; order: number[]; chosen: number[]; used: number[];
  budget: number; bestScore: number; bestPick: number[]; work?: Work; prev: Int32Array;
}

function optScore(b: SearchIndex['base'], j: number): number {
  return partial(scrF[j] & 1, scrF[j] & 2 ? 0 : 1, b.entCls[scrE[j]]);
}

/** The order tier of scratch options `pick` (one per typed token, in typed order): neighbours out of display order. */
function inversions(b: SearchIndex['base'], pick: readonly number[]): number {
  let inv = 0;
  for (let i = 1; i < pick.length; i++) if (b.entPos[scrE[pick[i]]] < b.entPos[scrE[pick[i - 1]]]) inv++;
  return Math.min(inv, 1023);
}

/** The packed rank of scratch options `pick`. */
function pickScore(b: SearchIndex['base'], pick: readonly number[]): number {
  let sum = 0;
  for (const j of pick) sum += optScore(b, j);
  return sum + inversions(b, pick);
}

/** Branch and bound over the scratch options (module level: no closure per contact). */
function visit(st: Search, d: number, sum: number): void {
  if (st.budget-- <= 0 || sum >= st.bestScore) return;
  const { b, n, chosen } = st;
  if (d === n) {
    const sc = sum + inversions(b, chosen);
    if (sc < st.bestScore) { st.bestScore = sc; st.bestPick = [...chosen]; }
    return;
  }
  const qi = st.order[d];
  st.work?.spend(1 + optTo[qi] - optFrom[qi]);
  const after = st.prev[qi] < 0 ? -1 : b.entSrc[scrE[chosen[st.prev[qi]]]]; // copies of a token: ascending sources
  for (let j = optFrom[qi]; j < optTo[qi]; j++) {
    const src = b.entSrc[scrE[j]];
    if (src <= after || st.used.includes(src)) continue;
    st.used.push(src);
    chosen[qi] = j;
    visit(st, d + 1, sum + optScore(b, j));
    st.used.pop();
  }
}

/**
 * Scores one base ordinal: collects each typed token's options (forward-index entries in its ranges)
 * into scratch arrays, then finds the best assignment by branch and bound. Objects are made only for
 * the winning assignment.
 */
function evalBase(index: SearchIndex, ord: number, toks: readonly Compiled[], withTypo: boolean, work?: Work): Hit | undefined {
  const b = index.base;
  const n = toks.length;
  const seed = baseOptions(b, ord, toks, withTypo, work);
  if (!seed) return undefined;
  let bestScore = Infinity;
  let bestPick: number[] = [];
  if (n === 1) {
    for (let j = optFrom[0]; j < optTo[0]; j++) { const sc = optScore(b, j); if (sc < bestScore) { bestScore = sc; bestPick = [j]; } }
  } else {
    // Fewest options first (a stable sort: a token's copies stay in typed order, as `prev` needs).
    const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => (optTo[x] - optFrom[x]) - (optTo[y] - optFrom[y]));
    const st: Search = { b, n, order, chosen: new Array<number>(n), used: [], budget: 4000, bestScore: Infinity, bestPick: [], work, prev: repeats(toks).prev };
    visit(st, 0, 0);
    if (st.bestScore === Infinity) { st.bestPick = Array.from(seed); st.bestScore = pickScore(b, st.bestPick); } // the node budget ran out first
    bestScore = st.bestScore;
    bestPick = st.bestPick;
  }
  const matches = bestPick.map((j, i): TokenMatch => {
    const e = scrE[j];
    return { entry: b.entSrc[e], typo: (scrF[j] & 1) as 0 | 1, whole: (scrF[j] & 2) !== 0, cls: b.entCls[e], pos: b.entPos[e], typed: toks[i].q.term.length };
  });
  return new ScoredHit(ord, bestScore, matches);
}

/** Whether base ordinal `ord` matches every typed token, each with a token of its own (no scoring: the match set). */
const matchesBase = (index: SearchIndex, ord: number, toks: readonly Compiled[], work: Work): boolean =>
  baseOptions(index.base, ord, toks, true, work) !== undefined;

/**
 * Collects each typed token's options at base ordinal `ord` into the scratch arrays (optFrom/optTo
 * ranges of scrE/scrF) and returns one assignment of them to distinct contact tokens (the option
 * per typed token; any option for a single token), or undefined when the contact does not match.
 */
function baseOptions(b: SearchIndex['base'], ord: number, toks: readonly Compiled[], withTypo: boolean, work?: Work): Int32Array | undefined {
  const from = b.entOff[ord], to = b.entOff[ord + 1];
  const n = toks.length;
  if (n > to - from) return undefined; // each typed token needs a token of its own
  work?.spend(to - from);
  if (scrE.length < n * (to - from)) { scrE = new Int32Array(n * (to - from) * 2); scrF = new Uint8Array(scrE.length); }
  let k = 0;
  let sources = 0;
  const { first, times } = n > 1 ? repeats(toks) : NO_REPEATS;
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (first[i] !== i) { optFrom[i] = optFrom[first[i]]; optTo[i] = optTo[first[i]]; continue; } // typed again: the same options
    optFrom[i] = k;
    work?.spend(to - from);
    for (let e = from; e < to; e++) {
      const tid = b.entTerm[e];
      let flags = -1;
      for (const r of t.exact) if (tid >= r.lo && tid < r.hi) { flags = tid === r.exact ? 2 : 0; break; }
      if (flags < 0 && withTypo && t.typo) for (const r of t.typo) if (tid >= r.lo && tid < r.hi) { flags = 1; break; }
      if (flags >= 0) { scrE[k] = e; scrF[k] = flags; k++; if (b.entSrc[e] >= sources) sources = b.entSrc[e] + 1; }
    }
    if (k - optFrom[i] < times[i]) return undefined; // typed more often than it has options (none, for a token typed once)
    optTo[i] = k;
  }
  if (n === 1) return ONE_OPTION;
  return matching(n, (i, f) => { for (let j = optFrom[i]; j < optTo[i]; j++) if (f(b.entSrc[scrE[j]], j)) return true; return false; }, sources, work);
}

// ── search ──

export { TUNING };

const heads = new WeakMap<object, Map<string, Uint32Array>>();

/**
 * The head of one range in class c (live or not): made by the build for short prefixes, else on
 * first use and kept per base (it is immutable, so a head stays true until the next build).
 */
function rangeHead(index: SearchIndex, c: number, r: Range): Uint32Array {
  const key = headKey(TUNING.headSize, c, r.lo, r.hi);
  const built = index.base.heads.get(key);
  if (built) return built;
  let byKey = heads.get(index.base);
  if (!byKey) { byKey = new Map(); heads.set(index.base, byKey); }
  let head = byKey.get(key);
  if (!head) {
    head = Uint32Array.from(smallestDistinct(index.base.post, [index.postingSlice(c, r.lo, r.hi)], TUNING.headSize));
    if (byKey.size >= 20_000) byKey.clear();
    byKey.set(key, head);
  }
  return head;
}

/** A bucket's head: the first headSize ordinals of a union are among the first headSize of each of its ranges. */
function bucketHead(index: SearchIndex, c: number, ranges: readonly Range[]): Uint32Array {
  if (ranges.length === 1) return rangeHead(index, c, ranges[0]);
  const parts = ranges.map((r) => rangeHead(index, c, r));
  const joined = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
  let k = 0;
  for (const p of parts) { joined.set(p, k); k += p.length; }
  return Uint32Array.from(smallestDistinct(joined, [[0, joined.length]], TUNING.headSize));
}

type Within = ((ord: number) => boolean) | undefined;

/**
 * The ordinals `within` admits, when the caller knows them (a filtered selection): how many, and
 * their list, ascending, made only when a bucket is read through them.
 */
export interface Admitted {
  readonly count: number;
  list(): ArrayLike<number>;
}

/** Whether a bucket of `postings` is read through the admitted ordinals (fewer, by TUNING.amongFactor). */
const throughAdmitted = (among: Admitted | undefined, postings: number): among is Admitted => among !== undefined && among.count * TUNING.amongFactor < postings;

/**
 * Calls `f` per admitted base ordinal, ascending, until it returns true (a delta ordinal ends the
 * list: the delta is not in the base postings).
 */
function eachAdmitted(among: Admitted, baseSize: number, f: (ord: number) => boolean): void {
  const list = among.list();
  for (let i = 0; i < list.length && list[i] < baseSize; i++) if (f(list[i])) return;
}

/**
 * All contacts matching `text` among `within` (all when undefined), best first. With `limit`, only the
 * first `limit` are guaranteed (type-ahead), and the search stops as soon as they are settled.
 * `among`, when the caller knows them: the ordinals `within` admits. A bucket (one token), or a
 * combination's smallest bucket (several), is then read through them when they are fewer than its
 * postings.
 */
export function search(index: SearchIndex, text: string, within?: Within, limit?: number, among?: Admitted, budget?: Checkpoint): MatchResult {
  const query = queryTokens(text);
  if (query.length === 0 || query.length > index.mostEntries()) return { hits: [], candidates: 0, steps: 0 };
  const toks = compileAll(index, query);
  const stats = new Work(index.ordinalCount, budget);
  const baseHits = limit === undefined ? allBase(index, toks, within, stats)
    : toks.length === 1 ? topSingle(index, toks[0], limit, within, stats, among)
    : topMulti(index, toks, limit, within, stats, among);
  const delta = deltaHits(index, query, within, stats);
  const hits = delta.length ? merge(index, baseHits, delta) : baseHits;
  return { hits: limit === undefined ? hits : hits.slice(0, limit), candidates: stats.looked, steps: stats.steps };
}

function merge(index: SearchIndex, a: Hit[], b: Hit[]): Hit[] {
  return [...a, ...b].sort((x, y) => x.score - y.score || cmpKey(index, x.ord, y.ord));
}

function cmpKey(index: SearchIndex, a: number, b: number): number {
  const n = index.baseSize;
  if (a < n && b < n) return a - b;
  const ka = index.sortKey(a), kb = index.sortKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function deltaHits(index: SearchIndex, query: readonly QueryToken[], within: Within, stats: Work): Hit[] {
  const out: Hit[] = [];
  for (const ord of index.deltaOrdinals()) {
    if (within && !within(ord)) continue;
    stats.looked++;
    const options = entryOptions(query, index.entriesOf(ord), stats);
    const a = options && assign(options, stats);
    if (a) out.push(hitOf(ord, a));
  }
  return out;
}

/** Every base match, best first (GetSearchResults: Total is exact). */
function allBase(index: SearchIndex, toks: Compiled[], within: Within, stats: Work): Hit[] {
  for (const t of toks) ensureTypo(index, t);
  if (toks.length === 1) return allSingle(index, toks[0], within, stats);
  const hits: Hit[] = [];
  baseCandidates(index, toks, (ord) => {
    if (within && !within(ord)) return;
    stats.looked++;
    const h = evalBase(index, ord, toks, true, stats);
    if (h) hits.push(h);
  }, stats);
  return hits.sort((a, b) => a.score - b.score || a.ord - b.ord);
}

/**
 * Calls `visit` once per live base ordinal that has a match for every token (a superset of the
 * matches: two tokens may need the same word), ascending. Intersects first: an ordinal's stamp counts
 * the tokens it has met so far, raised only by the next token in turn, so dense tokens like "o k"
 * reach only the contacts holding every token, and the cost is the tokens' postings, not the base.
 */
function baseCandidates(index: SearchIndex, all: Compiled[], visit: (ord: number) => void, work: Work): void {
  // A token typed twice has the same postings: intersecting them again changes nothing.
  const toks = distinct(all);
  if (toks.length === 1) {
    const driver = toks[0];
    forEachCandidate(index, [...driver.exact, ...(driver.typo ?? [])], visit, true, work);
    return;
  }
  const m = toks.length;
  const { stamp, gen } = index.newStamp(m); // gen + i: met tokens 0..i
  const post = index.base.post;
  const met: number[] = [];
  toks.forEach((t, i) => {
    const ranges = [...t.exact, ...(t.typo ?? [])];
    const before = gen + i - 1, after = gen + i;
    for (let c = 0; c < CLASSES; c++) {
      for (const r of ranges) {
        const [a, b] = index.postingSlice(c, r.lo, r.hi);
        work.spend(b - a);
        if (i === 0) {
          for (let k = a; k < b; k++) stamp[post[k]] = gen;
        } else {
          for (let k = a; k < b; k++) {
            const ord = post[k];
            if (stamp[ord] !== before) continue;
            stamp[ord] = after;
            if (i === m - 1) met.push(ord);
          }
        }
      }
    }
  });
  const n = index.baseSize;
  if (met.length > n >>> 6) {
    // Many: in ordinal order by a pass over the stamps (cheaper than sorting them).
    work.spend(n);
    for (let ord = 0; ord < n; ord++) if (stamp[ord] === gen + m - 1 && index.isLive(ord)) visit(ord);
    return;
  }
  for (const ord of Uint32Array.from(met).sort()) if (index.isLive(ord)) visit(ord);
}

/** The distinct tokens (a token typed again is the same object: compileAll). */
const distinct = (toks: readonly Compiled[]): Compiled[] => [...new Set(toks)];

/**
 * Word tokens without typo tolerance where none is a prefix of another: no entry can match two of
 * them, so holding a match for each token IS a match (no assignment to check).
 */
function independent(toks: readonly Compiled[]): boolean {
  for (const t of toks) if (t.q.kind !== 'word' || (t.typo?.length ?? 0) > 0) return false;
  for (let i = 0; i < toks.length; i++) for (let j = 0; j < toks.length; j++) if (i !== j && toks[j].q.term.startsWith(toks[i].q.term)) return false;
  return true;
}

/**
 * The contacts matching `text` among `within`, unranked, as a list of bitmap words (bits.ts): what Total, filters
 * and facets need. Exactly the contacts `search` returns, without scoring them: one token's matches
 * are its postings, marked straight into the bitmap; several independent tokens' matches are the
 * intersection; otherwise each candidate of the intersection is checked for an assignment.
 * `candidates`: the contacts looked at.
 */
export function matchBits(index: SearchIndex, text: string, within?: Within, budget?: Checkpoint): { set: WordList; candidates: number; steps: number } {
  const query = queryTokens(text);
  if (query.length > index.mostEntries()) return { set: scratchMarks(index).list(new Uint32Array(0)), candidates: 0, steps: 0 };
  const marks = scratchMarks(index);
  try {
    return markMatches(index, query, marks, within, budget);
  } finally {
    marks.clear();
  }
}

/** One Marks per index, empty between uses: a query's bitmap without allocating 125 KB per query. */
const marksOf = new WeakMap<SearchIndex, Marks>();
function scratchMarks(index: SearchIndex): Marks {
  let m = marksOf.get(index);
  if (!m || m.bits.length < (index.ordinalCount + 31) >>> 5) marksOf.set(index, m = new Marks(index.ordinalCount));
  return m;
}

function markMatches(index: SearchIndex, query: QueryToken[], marks: Marks, within?: Within, budget?: Checkpoint): { set: WordList; candidates: number; steps: number } {
  if (query.length === 0) return { set: marks.list(index.liveBits()), candidates: 0, steps: 0 };
  const toks = compileAll(index, query);
  for (const t of toks) ensureTypo(index, t);
  const stats = new Work(index.ordinalCount, budget);
  const marked = toks.length === 1 && !within; // the postings straight into the bitmap; looked: counted at the end
  if (marked) {
    const post = index.base.post, { bits, touched } = marks;
    const ranges = [...toks[0].exact, ...(toks[0].typo ?? [])];
    for (let c = 0; c < CLASSES; c++) {
      for (const r of ranges) {
        const [a, b] = index.postingSlice(c, r.lo, r.hi);
        stats.spend(b - a);
        for (let k = a; k < b; k++) {
          const ord = post[k], w = ord >>> 5;
          bits[w] |= 1 << (ord & 31);
          touched[w >>> 5] |= 1 << (w & 31);
        }
      }
    }
  } else {
    const sure = toks.length === 1 || independent(toks);
    baseCandidates(index, toks, (ord) => {
      if (within && !within(ord)) return;
      stats.looked++;
      if (sure || matchesBase(index, ord, toks, stats)) marks.add(ord);
    }, stats);
  }
  const delta = deltaHits(index, query, within, stats);
  for (const h of delta) marks.add(h.ord);
  const set = marks.list(index.liveBits());
  return { set, candidates: marked ? set.count - delta.length + stats.looked : stats.looked, steps: stats.steps };
}

/**
 * Every base match of one token without scoring contacts one by one: the buckets (whole, prefix, typo
 * × field class) are walked in rank order over the postings, and a contact takes the first bucket it
 * appears in. Typed arrays only; each bucket's new ordinals are sorted (they are the tie-break order).
 */
function allSingle(index: SearchIndex, tok: Compiled, within: Within, stats: Work): Hit[] {
  const b = index.base;
  const { stamp, gen } = index.newStamp();
  const wholes = tok.exact.filter((r) => r.exact >= 0).map((r) => ({ lo: r.exact, hi: r.exact + 1, exact: r.exact }));
  const tiers: [Range[], number, number][] = [[wholes, 0, 0], [tok.exact, 0, 1], [tok.typo ?? [], 1, 1]];
  const hits: Hit[] = [];
  for (const [ranges, typo, notWhole] of tiers) {
    for (let c = 0; c < CLASSES; c++) {
      const fresh: number[] = [];
      for (const r of ranges) {
        const [x, y] = index.postingSlice(c, r.lo, r.hi);
        for (let i = x; i < y; i++) {
          const ord = b.post[i];
          if (stamp[ord] === gen) continue;
          stamp[ord] = gen;
          if (!index.isLive(ord) || (within && !within(ord))) continue;
          fresh.push(ord);
        }
      }
      if (fresh.length === 0) continue;
      stats.looked += fresh.length;
      const sorted = Uint32Array.from(fresh).sort();
      const score = partial(typo, notWhole, c);
      for (const ord of sorted) hits.push(new BucketHit(ord, score, index, tok));
    }
  }
  return hits;
}

function postingCount(index: SearchIndex, ranges: readonly Range[]): number {
  let n = 0;
  for (let c = 0; c < CLASSES; c++) for (const r of ranges) { const [a, b] = index.postingSlice(c, r.lo, r.hi); n += b - a; }
  return n;
}

function pickDriver(index: SearchIndex, toks: Compiled[], withTypo: boolean): Compiled {
  let best = toks[0], least = Infinity;
  for (const t of toks) {
    const n = postingCount(index, withTypo ? [...t.exact, ...(t.typo ?? [])] : t.exact);
    if (n < least) { least = n; best = t; }
  }
  return best;
}

/**
 * Calls `f` once per live base ordinal posted under any of `ranges` (any class). `ascending`: a big
 * set (over 1/32 of the base) is marked first, then visited in ordinal order — the match set's
 * callers read table columns per ordinal, and in order those reads are sequential, not cache misses
 * all over a million-row column (docs/PERFORMANCE.md, "Le ").
 */
function forEachCandidate(index: SearchIndex, ranges: readonly Range[], f: (ord: number) => void, ascending: boolean, work: Work): void {
  const { stamp, gen } = index.newStamp();
  const post = index.base.post;
  const n = index.baseSize;
  const scan = ascending && postingCount(index, ranges) > n >>> 5;
  if (scan) work.spend(n);
  for (let c = 0; c < CLASSES; c++) {
    for (const r of ranges) {
      const [a, b] = index.postingSlice(c, r.lo, r.hi);
      work.spend(b - a);
      for (let i = a; i < b; i++) {
        const ord = post[i];
        if (stamp[ord] === gen) continue;
        stamp[ord] = gen;
        if (!scan && index.isLive(ord)) f(ord);
      }
    }
  }
  if (scan) for (let ord = 0; ord < n; ord++) if (stamp[ord] === gen && index.isLive(ord)) f(ord);
}

/**
 * One typed token: buckets in rank order; each bucket's rank is the same for all its contacts, so its
 * first `need` unseen ordinals are final.
 */
function topSingle(index: SearchIndex, tok: Compiled, limit: number, within: Within, stats: Work, among?: Admitted): Hit[] {
  const out: Hit[] = [];
  const { stamp, gen } = index.newStamp();
  const wholes = tok.exact.filter((r) => r.exact >= 0).map((r) => ({ lo: r.exact, hi: r.exact + 1, exact: r.exact }));
  const tiers: { ranges: () => Range[]; typo: 0 | 1; whole: boolean }[] = [
    { ranges: () => wholes, typo: 0, whole: true },
    { ranges: () => tok.exact, typo: 0, whole: false },
    { ranges: () => ensureTypo(index, tok), typo: 1, whole: false },
  ];
  for (const tier of tiers) {
    const ranges = tier.ranges();
    if (ranges.length === 0) continue;
    for (let c = 0; c < CLASSES && out.length < limit; c++) {
      for (const ord of bucket(index, c, ranges, limit - out.length, stamp, gen, within, stats, among)) {
        // The bucket says the best match's facts; the entry (for highlighting) comes from the forward index.
        const h = evalBase(index, ord, [tok], tier.typo === 1);
        if (h) out.push(h);
      }
    }
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * The first `need` ordinals (ascending) of class `c` postings under `ranges` that are live, unseen and
 * within; marks them seen. A small bucket is copied and sorted when most of it is needed; one pass
 * keeping the `need` smallest reads a small bucket when a page of it is needed, and a big one of many
 * short lists (phone numbers); a big one of long lists is merged lazily:
 * a heap of the terms' posting lists (each already ascending) yields ordinals in order until `need`.
 * (Scanning ordinals in order instead would be fast for evenly spread matches but not for clustered
 * ones: "м" matches only Cyrillic names, which all sort after the Latin ones.)
 */
function bucket(index: SearchIndex, c: number, ranges: readonly Range[], need: number, stamp: Uint32Array, gen: number,
  within: Within, stats: Work, among?: Admitted): number[] {
  const b = index.base;
  let total = 0;
  const slices = ranges.map((r) => { const s = index.postingSlice(c, r.lo, r.hi); total += s[1] - s[0]; return s; });
  if (total === 0) return [];
  const out: number[] = [];
  if (throughAdmitted(among, total)) {
    // Fewer admitted ordinals than postings (a selective filter): each admitted one, ascending, is
    // looked up in the forward index — a few dozen entries — instead of walking the postings.
    eachAdmitted(among, b.n, (ord) => {
      stats.looked++;
      if (stamp[ord] !== gen && index.isLive(ord) && inBucket(b, ord, { cls: c, ranges })) out.push(ord);
      return out.length >= need;
    });
    for (const ord of out) stamp[ord] = gen;
    return out;
  }
  if (!within && total > TUNING.headMin) {
    // The first live, unseen ordinals of the kept head are the bucket's first; enough of them (or a
    // head that is the whole bucket) settles it, else the full pass below.
    const head = bucketHead(index, c, ranges);
    for (let i = 0; i < head.length && out.length < need; i++) {
      const ord = head[i];
      stats.looked++;
      if (stamp[ord] !== gen && index.isLive(ord)) out.push(ord);
    }
    if (out.length === need || head.length < TUNING.headSize) {
      for (const ord of out) stamp[ord] = gen;
      return out;
    }
    out.length = 0;
  }
  const ok = (ord: number) => stamp[ord] !== gen && index.isLive(ord) && (!within || within(ord));
  if (total <= TUNING.dense && need * 8 >= total) {
    const all = new Uint32Array(total);
    let k = 0;
    for (const [x, y] of slices) { all.set(b.post.subarray(x, y), k); k += y - x; }
    all.sort();
    let prev = -1;
    for (let i = 0; i < all.length && out.length < need; i++) {
      const ord = all[i];
      if (ord === prev) continue;
      prev = ord;
      stats.looked++;
      if (ok(ord)) out.push(ord);
    }
  } else if (total <= TUNING.dense || ranges.reduce((k, r) => k + (r.hi - r.lo), 0) * 8 > total) {
    // A page of a small bucket, or many terms with short lists (phone numbers, emails): one pass over
    // the postings keeping the `need` smallest acceptable ordinals in a small sorted array.
    out.push(...smallestDistinct(b.post, slices, need, (ord) => { stats.looked++; return ok(ord); }));
  } else {
    // Heap of cursors into the per-term lists: pos[i] is the next posting, end[i] its list's end.
    const posA: number[] = [], endA: number[] = [];
    for (const r of ranges) {
      for (let t = r.lo; t < r.hi; t++) {
        const [x, y] = index.postingSlice(c, t, t + 1);
        if (y > x) { posA.push(x); endA.push(y); }
      }
    }
    const m = posA.length;
    const pos = Uint32Array.from(posA), end = Uint32Array.from(endA);
    const heap = new Uint32Array(m);
    for (let i = 0; i < m; i++) heap[i] = i;
    const key = (h: number) => b.post[pos[heap[h]]];
    const down = (i: number, size: number) => {
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let s = i;
        if (l < size && key(l) < key(s)) s = l;
        if (r < size && key(r) < key(s)) s = r;
        if (s === i) return;
        const tmp = heap[i]; heap[i] = heap[s]; heap[s] = tmp;
        i = s;
      }
    };
    let size = m;
    for (let i = (size >> 1) - 1; i >= 0; i--) down(i, size);
    let prev = -1;
    while (size > 0 && out.length < need) {
      const top = heap[0];
      const ord = b.post[pos[top]];
      if (ord !== prev) {
        prev = ord;
        stats.looked++;
        if (ok(ord)) out.push(ord);
      }
      if (++pos[top] >= end[top]) heap[0] = heap[--size];
      down(0, size);
    }
  }
  for (const ord of out) stamp[ord] = gen;
  return out;
}

/** One (tier, class) bucket of one typed token: tier 0 whole word, 1 prefix, 2 one typo. */
interface TokBucket { readonly cls: number; readonly ranges: readonly Range[]; readonly size: number; readonly sum: number; readonly typo: boolean }

/** A token's buckets of `tiers`; `made` keeps them by tier, so a later pass gets the same objects (their marks, `BucketMarks`). */
function tokenBuckets(index: SearchIndex, tok: Compiled, tiers: readonly (0 | 1 | 2)[], made: Map<number, TokBucket[]>): TokBucket[] {
  const out: TokBucket[] = [];
  for (const tier of tiers) {
    let list = made.get(tier);
    if (!list) {
      list = [];
      const ranges = tier === 0 ? tok.exact.filter((r) => r.exact >= 0).map((r) => ({ lo: r.exact, hi: r.exact + 1, exact: r.exact }))
        : tier === 1 ? tok.exact : tok.typo ?? [];
      for (let c = 0; c < CLASSES; c++) {
        let size = 0;
        for (const r of ranges) { const [a, z] = index.postingSlice(c, r.lo, r.hi); size += z - a; }
        if (size > 0) list.push({ cls: c, ranges, size, sum: partial(tier === 2 ? 1 : 0, tier === 0 ? 0 : 1, c), typo: tier === 2 });
      }
      made.set(tier, list);
    }
    out.push(...list);
  }
  return out;
}

/** Per index, one word per base ordinal, all zero between queries: bit k set = in the query's k-th marked bucket. */
const memberScratch = new WeakMap<SearchIndex, Uint32Array>();

/**
 * Which buckets a multi-token query tests by bits instead of the forward index. The combinations
 * test the same few buckets again and again (every combination that holds one, for each ordinal of
 * its smallest); a forward-index test reads a contact's few dozen entries against every range of the
 * bucket (a typo bucket has dozens), where a marked bucket answers with one load. A bucket is marked
 * once the ordinals tested against it reach 1/TUNING.markRatio of its postings (marking and clearing
 * cost a write per posting each), up to 32 buckets per query; the rest keep the forward index.
 */
class BucketMarks {
  private readonly words: Uint32Array;
  private readonly marked: TokBucket[] = [];
  private readonly bitOf = new Map<TokBucket, number>();
  private readonly tested = new Map<TokBucket, number>();

  constructor(private readonly index: SearchIndex) {
    this.words = scratchWords(memberScratch, index, index.base.n);
  }

  /**
   * The test of membership in every bucket of `others`, about to be asked `count` more times: the
   * bits the ordinal's word must hold, and the buckets left to the forward index.
   */
  plan(others: readonly TokBucket[], count: number): { bits: number; slow: TokBucket[]; words: Uint32Array } {
    let bits = 0;
    const slow: TokBucket[] = [];
    for (const bk of others) {
      let bit = this.bitOf.get(bk);
      if (bit === undefined) {
        const tested = (this.tested.get(bk) ?? 0) + count;
        this.tested.set(bk, tested);
        if (this.marked.length < 32 && bk.size <= tested * TUNING.markRatio) bit = this.mark(bk);
      }
      if (bit === undefined) slow.push(bk);
      else bits |= 1 << bit;
    }
    return { bits: bits >>> 0, slow, words: this.words };
  }

  private mark(bk: TokBucket): number {
    const bit = this.marked.length, b = this.index.base, w = this.words;
    for (const r of bk.ranges) {
      const [x, z] = this.index.postingSlice(bk.cls, r.lo, r.hi);
      for (let i = x; i < z; i++) w[b.post[i]] |= 1 << bit;
    }
    this.marked.push(bk);
    this.bitOf.set(bk, bit);
    return bit;
  }

  /** Leaves the words as found: zero. */
  clear(): void {
    const b = this.index.base, w = this.words;
    for (const bk of this.marked) {
      for (const r of bk.ranges) {
        const [x, z] = this.index.postingSlice(bk.cls, r.lo, r.hi);
        for (let i = x; i < z; i++) w[b.post[i]] = 0;
      }
    }
  }
}

/** Whether base ordinal `ord` has a token in bucket `bk` (the forward index: a few dozen entries). */
function inBucket(b: SearchIndex['base'], ord: number, bk: { readonly cls: number; readonly ranges: readonly Range[] }): boolean {
  for (let e = b.entOff[ord], to = b.entOff[ord + 1]; e < to; e++) {
    if (b.entCls[e] !== bk.cls) continue;
    const tid = b.entTerm[e];
    for (const r of bk.ranges) if (tid >= r.lo && tid < r.hi) return true;
  }
  return false;
}

interface Combo { readonly buckets: readonly TokBucket[]; readonly sum: number }

/**
 * Every choice of one bucket per token, by increasing sum; undefined when there are too many. A token
 * with no bucket means no choice at all — checked first, or twelve tokens of ten buckets each would be
 * enumerated before the product reached zero (the "a a … a xx" that exhausted the heap).
 */
function combos(lists: readonly TokBucket[][], work: Work): Combo[] | undefined {
  if (lists.some((l) => l.length === 0)) return [];
  let product = 1;
  for (const l of lists) if ((product *= l.length) > TUNING.maxCombos) return undefined;
  let out: Combo[] = [{ buckets: [], sum: 0 }];
  for (const l of lists) {
    work.spend(out.length * l.length); // before making them: the work cap is also the memory cap
    out = out.flatMap((pre) => l.map((bk) => ({ buckets: [...pre.buckets, bk], sum: pre.sum + bk.sum })));
  }
  return out.sort((x, y) => x.sum - y.sum);
}

const byRank = (a: Hit, b: Hit) => a.score - b.score || a.ord - b.ord;

/**
 * Several typed tokens, top `limit` exactly, without scoring every match. The rank tiers add up over
 * tokens (typo, not-whole and class are sums; the order tier stays below 2^10), so a contact whose
 * best assignment puts token i in bucket B_i scores at least Σ sum(B_i). Bucket combinations are
 * visited by increasing Σ; each is intersected from its smallest bucket (membership in the others read
 * off the forward index) and its contacts scored in full; the search stops once `limit` hits score
 * below the next combination's Σ — no contact not yet scored can beat or tie them. Typo buckets
 * (Σ ≥ 2^30) are built only if the exact ones leave fewer than `limit` hits. Undefined when the
 * combinations are too many (the caller scores every match instead).
 */
function topMultiBuckets(index: SearchIndex, toks: Compiled[], limit: number, within: Within, stats: Work, among?: Admitted): Hit[] | undefined {
  const made = toks.map(() => new Map<number, TokBucket[]>());
  const exact = combos(toks.map((t, i) => tokenBuckets(index, t, [0, 1], made[i])), stats);
  if (!exact) return undefined;
  const marks = new BucketMarks(index);
  try {
    return topCombos(index, toks, made, exact, limit, within, stats, marks, among);
  } finally {
    marks.clear();
  }
}

/** topMultiBuckets' visit of the combinations; `made` keeps each token's buckets for the typo pass. */
function topCombos(index: SearchIndex, toks: Compiled[], made: Map<number, TokBucket[]>[], exact: Combo[], limit: number, within: Within, stats: Work, marks: BucketMarks,
  among?: Admitted): Hit[] | undefined {
  const b = index.base;
  const { stamp, gen } = index.newStamp();
  const hits: Hit[] = [];
  // Hits past the first `limit` can never come back (each contact is scored once), so they are dropped.
  const top = () => { hits.sort(byRank); if (hits.length > limit) hits.length = limit; return hits; };
  /** The last of the top `limit` once there are that many: a contact that cannot rank before it is not scored. */
  let bar: Hit | undefined;
  const settled = (next: number) => bar !== undefined && bar.score < next;
  const run = (list: Combo[], withTypo: boolean): void => {
    for (const { buckets: combo, sum } of list) {
      if (withTypo && !combo.some((bk) => bk.typo)) continue; // visited in the exact pass
      if (settled(sum)) return;
      let d = 0;
      for (let i = 1; i < combo.length; i++) if (combo[i].size < combo[d].size) d = i;
      const driver = combo[d];
      const { bits: need, slow, words } = marks.plan(combo.filter((_, j) => j !== d), driver.size);
      /**
       * Whether a contact of this combination at `ord`, not scored yet, cannot enter the top: it scores
       * at least `sum`, so with a tie at the bar it needs a lower ordinal than the bar's. Read in ordinal
       * order, the rest of the combination after a hit at `ord` is then out too.
       */
      const beyondTop = (ord: number) => bar !== undefined && (bar.score < sum || (bar.score === sum && bar.ord < ord));
      /** Scores `ord` if it is in every bucket of the combination; true when it became a hit. */
      const consider = (ord: number): boolean => {
        if (stamp[ord] === gen || !index.isLive(ord) || beyondTop(ord)) return false;
        // Outside `within` is outside every combination (and the test is cheaper than the forward index).
        if (within && !within(ord)) { stamp[ord] = gen; return false; }
        if ((words[ord] & need) >>> 0 !== need) return false;
        for (let j = 0; j < slow.length; j++) if (!inBucket(b, ord, slow[j])) return false;
        stats.looked++;
        // Its best assignment: exact whenever one exists (any typo costs 2^30, more than every exact rank).
        const h = evalBase(index, ord, toks, withTypo, stats);
        if (!h) return false;
        stamp[ord] = gen;
        hits.push(h);
        if (hits.length >= limit) bar = top()[limit - 1];
        return true;
      };
      if (throughAdmitted(among, driver.size)) {
        // A selective filter: its ordinals, ascending, looked up in the forward index (as `bucket` does).
        eachAdmitted(among, b.n, (ord) => inBucket(b, ord, driver) && consider(ord) && beyondTop(ord));
        continue;
      }
      if (driver.size <= TUNING.orderedDriver) {
        for (const r of driver.ranges) {
          const [x, z] = index.postingSlice(driver.cls, r.lo, r.hi);
          for (let i = x; i < z; i++) consider(b.post[i]);
        }
        continue;
      }
      // A big driver is read in ordinal order (ties go to the lower ordinal): every contact of the
      // combination not reached yet scores at least `sum` and has a higher ordinal than `ord`, so once
      // `limit` hits rank before that, the rest of this combination cannot enter the top.
      const bits = driverBits(index, driver);
      for (let w = 0; w < bits.length; w++) {
        let word = bits[w];
        if (word === 0) continue;
        bits[w] = 0;
        while (word !== 0) {
          const low = word & -word;
          word ^= low;
          const ord = (w << 5) + 31 - Math.clz32(low);
          if (consider(ord) && beyondTop(ord)) { bits.fill(0, w + 1); word = 0; w = bits.length; }
        }
      }
    }
  };
  run(exact, false);
  // Every contact not scored yet needs a typo: it ranks below every exact hit.
  if (hits.length >= limit || !toks.some((t) => typoAllowed(t.q))) return top();
  for (const t of toks) ensureTypo(index, t);
  const withTypo = combos(toks.map((t, i) => tokenBuckets(index, t, typoAllowed(t.q) ? [0, 1, 2] : [0, 1], made[i])), stats);
  if (!withTypo) return undefined;
  run(withTypo, true);
  return top();
}

/** One bitmap of base ordinals per index, all zero between uses: `driverBits` fills it, its reader clears it. */
const ordBits = new WeakMap<SearchIndex, Uint32Array>();

/** The ordinals of a bucket's postings as a bitmap, to be read in ascending order (and cleared while read). */
function driverBits(index: SearchIndex, bk: TokBucket): Uint32Array {
  const b = index.base;
  const bits = scratchBits(ordBits, index, b.n);
  for (const r of bk.ranges) {
    const [x, z] = index.postingSlice(bk.cls, r.lo, r.hi);
    for (let i = x; i < z; i++) { const ord = b.post[i]; bits[ord >>> 5] |= 1 << (ord & 31); }
  }
  return bits;
}

/** Several typed tokens (see the module comment). */
function topMulti(index: SearchIndex, toks: Compiled[], limit: number, within: Within, stats: Work, among?: Admitted): Hit[] {
  const bucketed = topMultiBuckets(index, toks, limit, within, stats, among);
  if (bucketed) return bucketed;
  const cut = (hits: Hit[]) => hits.sort(byRank).slice(0, limit);
  const driver = pickDriver(index, toks, false);
  if (postingCount(index, driver.exact) <= TUNING.multiCap) {
    // Exact first: typo matches rank below every exact match, so they are needed only when too few.
    const hits: Hit[] = [];
    forEachCandidate(index, driver.exact, (ord) => {
      if (within && !within(ord)) return;
      stats.looked++;
      const h = evalBase(index, ord, toks, false, stats);
      if (h) hits.push(h);
    }, false, stats);
    if (hits.length >= limit || !toks.some((t) => typoAllowed(t.q))) return cut(hits);
    for (const t of toks) ensureTypo(index, t);
    const withTypo: Hit[] = [];
    forEachCandidate(index, [...driver.exact, ...(driver.typo ?? [])], (ord) => {
      if (within && !within(ord)) return;
      stats.looked++;
      const h = evalBase(index, ord, toks, true, stats);
      if (h) withTypo.push(h);
    }, false, stats);
    return cut(withTypo);
  }
  // Every token is dense: intersect the tokens' postings first, then score what is left.
  return cut(allBase(index, toks, within, stats));
}

/**
 * Offsets of a match in the original field text: the typed prefix mapped back through normalisation
 * (a word's apostrophes are not typed: "ok" highlights "O'K" of "O'Keefe"; a typed address keeps them).
 */
export function highlight(original: string, start: number, length: number, typed: number, kind: Entry['kind'] = 'word'): { start: number; length: number } {
  const fold = kind === 'email' ? normalize : termText;
  for (let k = 1; k <= length; k++) {
    if (fold(original.slice(start, start + k)).length >= typed) return { start, length: k };
  }
  return { start, length };
}
