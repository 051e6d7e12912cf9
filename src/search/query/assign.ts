/**
 * The best assignment of typed tokens to a contact's tokens, on Entry objects (string matching):
 * how the delta segment (recent writes) is matched, and the naive reference the tests compare the
 * engine against. evaluate.ts does the same on the base segment's typed arrays.
 */
import type { Entry } from '../contact-tokens.ts';
import { prefixWithinOneEdit } from '../edit-distance.ts';
import { rankOf, type Rank } from '../rank/rules.ts';
import { digitVariants, type QueryToken } from '../tokenize.ts';
import { typedLetterVariant } from '../variants.ts';
import type { Work } from '../work.ts';
import { tokenKey, typoAllowed } from './compile.ts';
import type { TokenMatch } from './hit.ts';
import { partial, scoreOf } from './score.ts';

/** How typed token `q` matches contact token `e` (string form: the delta segment and the naive reference). */
export function matchToken(q: QueryToken, e: Entry, entry: number): TokenMatch | undefined {
  const typed = q.term.length;
  const facts = (typo: 0 | 1, whole: boolean, variant: 0 | 1 = 0): TokenMatch => ({
    entry,
    typo,
    variant,
    whole,
    cls: e.cls,
    pos: e.pos,
    typed,
  });
  if (q.kind === 'email')
    return e.kind === 'email' && e.term.startsWith(q.term)
      ? facts(0, e.term === q.term)
      : undefined;
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
  if (q.kind === 'word') {
    // Another spelling of the word, or the typed word's one-letter spelling: a variant match.
    if (e.variants?.some((v) => v.startsWith(q.term))) return facts(0, false, 1);
    const single = typedLetterVariant(q.term);
    if (single !== undefined && e.term.startsWith(single)) return facts(0, false, 1);
  }
  if (typoAllowed(q) && prefixWithinOneEdit(q.term, e.term)) return facts(1, false);
  return undefined;
}

export function entryOptions(
  query: readonly QueryToken[],
  entries: readonly Entry[],
  work?: Work,
): TokenMatch[][] | undefined {
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
export function matching(
  n: number,
  eachOption: (i: number, f: (src: number, opt: number) => boolean) => boolean,
  sources: number,
  work?: Work,
): Int32Array | undefined {
  const owner = new Int32Array(sources).fill(-1);
  const seen = new Int32Array(sources).fill(-1);
  const choice = new Int32Array(n);
  const augment = (i: number, round: number): boolean =>
    eachOption(i, (src, opt) => {
      work?.spend(1);
      if (seen[src] === round) return false;
      seen[src] = round;
      if (owner[src] < 0 || augment(owner[src], round)) {
        owner[src] = i;
        choice[i] = opt;
        return true;
      }
      return false;
    });
  for (let i = 0; i < n; i++) if (!augment(i, i)) return undefined;
  return choice;
}

const optionPartial = (m: TokenMatch) => partial(m.typo, m.whole ? 0 : 1, m.cls, m.variant);

/**
 * Best assignment of typed tokens to distinct contact tokens (lowest packRank). Branch and bound: the
 * typo, exactness and field tiers only grow as tokens are assigned, so a branch whose partial score
 * already reaches the best is cut; `order` is added at the leaves.
 */
export function assign(
  options: TokenMatch[][],
  work?: Work,
): { score: number; matches: TokenMatch[] } | undefined {
  if (options.length === 1) {
    let best: TokenMatch | undefined,
      bestScore = Infinity;
    for (const m of options[0]) {
      const sc = optionPartial(m);
      if (sc < bestScore) {
        bestScore = sc;
        best = m;
      }
    }
    return best && { score: bestScore, matches: [best] };
  }
  const n = options.length;
  // Tokens with the fewest options first; each token's options best first, so good leaves come early.
  const order = options.map((_, i) => i).sort((a, b) => options[a].length - options[b].length);
  const sorted = options.map((o) => [...o].sort((a, b) => optionPartial(a) - optionPartial(b)));
  let sources = 0;
  for (const o of options) for (const m of o) if (m.entry >= sources) sources = m.entry + 1;
  const seed = matching(
    n,
    (i, f) => {
      for (let j = 0; j < sorted[i].length; j++) if (f(sorted[i][j].entry, j)) return true;
      return false;
    },
    sources,
    work,
  );
  if (!seed) return undefined;
  let bestScore = Infinity;
  let bestPick: TokenMatch[] | undefined;
  const chosen: TokenMatch[] = new Array(n);
  const used: number[] = [];
  let budget = 4000;
  // Copies of a token (entryOptions shares their list) take contact tokens in ascending order, as in `visit` below.
  const prev = options.map((o, i) => (i === 0 ? -1 : options.lastIndexOf(o, i - 1)));
  const visit = (k: number, typo: number, nw: number, cls: number, vr: number) => {
    if (budget-- <= 0) return;
    work?.spend(1 + options[order[Math.min(k, n - 1)]].length);
    if (partial(typo, nw, cls, vr) >= bestScore) return;
    if (k === n) {
      const sc = scoreOf(chosen);
      if (sc < bestScore) {
        bestScore = sc;
        bestPick = [...chosen];
      }
      return;
    }
    const qi = order[k];
    const after = prev[qi] < 0 ? -1 : chosen[prev[qi]].entry;
    for (const m of sorted[qi]) {
      if (m.entry <= after || used.includes(m.entry)) continue;
      used.push(m.entry);
      chosen[qi] = m;
      visit(k + 1, typo + m.typo, nw + (m.whole ? 0 : 1), cls + m.cls, vr + (m.variant ?? 0));
      used.pop();
    }
  };
  visit(0, 0, 0, 0, 0);
  if (!bestPick) {
    bestPick = sorted.map((o, i) => o[seed[i]]);
    bestScore = scoreOf(bestPick);
  } // the node budget ran out first
  return { score: bestScore, matches: bestPick };
}

/** Best assignment of `query` over contact token entries (string matching; also the naive reference of tests). */
export function bestAssignment(
  query: readonly QueryToken[],
  entries: readonly Entry[],
  work?: Work,
): { rank: Rank; matches: TokenMatch[] } | undefined {
  const options = entryOptions(query, entries, work);
  const best = options && assign(options, work);
  return best && { rank: rankOf(best.matches), matches: best.matches };
}
