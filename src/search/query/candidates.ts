/**
 * Candidates of several typed tokens: the base ordinals holding a match for every token (a superset of
 * the matches — two tokens may need the same word — that evaluate.ts then checks).
 */
import { allRanges, distinct, type Compiled, type Range } from './compile.ts';
import { postingCount, postingSlices } from './postings.ts';
import type { QueryRun } from './run.ts';

/**
 * Calls `visit` once per live base ordinal that has a match for every token of the run (a superset of
 * the matches), ascending. Intersects first: an ordinal's stamp counts the tokens it has met so far,
 * raised only by the next token in turn, so dense tokens like "o k" reach only the contacts holding
 * every token, and the cost is the tokens' postings, not the base.
 */
export function baseCandidates(run: QueryRun, visit: (ord: number) => void): void {
  const { index, work } = run;
  // A token typed twice has the same postings: intersecting them again changes nothing.
  const toks = distinct(run.toks);
  if (toks.length === 1) {
    forEachCandidate(run, allRanges(toks[0]), visit, true);
    return;
  }
  const m = toks.length;
  const { stamp, gen } = index.newStamp(m); // gen + i: met tokens 0..i
  const post = index.base.post;
  const met: number[] = [];
  toks.forEach((t, i) => {
    const s = postingSlices(index, allRanges(t), undefined, work);
    const before = gen + i - 1,
      after = gen + i;
    for (let k = 0; k < s.length; k += 2) {
      if (i === 0) {
        for (let j = s[k], end = s[k + 1]; j < end; j++) stamp[post[j]] = gen;
      } else {
        for (let j = s[k], end = s[k + 1]; j < end; j++) {
          const ord = post[j];
          if (stamp[ord] !== before) continue;
          stamp[ord] = after;
          if (i === m - 1) met.push(ord);
        }
      }
    }
  });
  const n = index.baseSize;
  if (met.length > n >>> 6) {
    // Many: in ordinal order by a pass over the stamps (cheaper than sorting them).
    work.spend(n);
    for (let ord = 0; ord < n; ord++)
      if (stamp[ord] === gen + m - 1 && index.isLive(ord)) visit(ord);
    return;
  }
  for (const ord of Uint32Array.from(met).sort()) if (index.isLive(ord)) visit(ord);
}

/**
 * Calls `f` once per live base ordinal posted under any of `ranges` (any class). `ascending`: a big
 * set (over 1/32 of the base) is marked first, then visited in ordinal order — the match set's
 * callers read table columns per ordinal, and in order those reads are sequential, not cache misses
 * all over a million-row column (docs/perf-log/2026-11-23-engine.md, "Le ").
 */
export function forEachCandidate(
  run: QueryRun,
  ranges: readonly Range[],
  f: (ord: number) => void,
  ascending: boolean,
): void {
  const { index, work } = run;
  const { stamp, gen } = index.newStamp();
  const n = index.baseSize;
  const scan = ascending && postingCount(index, ranges) > n >>> 5;
  if (scan) work.spend(n);
  const post = index.base.post;
  const s = postingSlices(index, ranges, undefined, work);
  for (let k = 0; k < s.length; k += 2) {
    for (let i = s[k], end = s[k + 1]; i < end; i++) {
      const ord = post[i];
      if (stamp[ord] === gen) continue;
      stamp[ord] = gen;
      if (!scan && index.isLive(ord)) f(ord);
    }
  }
  if (scan) for (let ord = 0; ord < n; ord++) if (stamp[ord] === gen && index.isLive(ord)) f(ord);
}

/** The token with the fewest postings (exact ranges only, or typos too). */
export function pickDriver(run: QueryRun, withTypo: boolean): Compiled {
  let best = run.toks[0],
    least = Infinity;
  for (const t of run.toks) {
    const n = postingCount(run.index, withTypo ? allRanges(t) : t.exact);
    if (n < least) {
      least = n;
      best = t;
    }
  }
  return best;
}
