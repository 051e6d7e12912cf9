/**
 * The search entry point (CONTRACT.md §4): which plan answers a query, and the delta segment's hits
 * merged in. Every typed token must match a different token of the contact, by prefix, in any order;
 * word tokens of 5+ characters also match with one edit after the first character. A contact's rank
 * is its best assignment's packed rank (score.ts, from the rules of rank/rules/), then DisplayName,
 * then ContactId — and base ordinals ARE that last order, so postings come pre-sorted by the final
 * tiers. Plans (docs/SEARCH.md "The query plan"):
 *
 *   no limit    every match, ranked (all-hits.ts)
 *   one token   buckets walked in rank order until `limit` are settled (top-single.ts)
 *   n tokens    bucket combinations by increasing rank bound (top-multi.ts)
 *
 * The delta segment (recent writes) is matched by brute force (assign.ts) and merged by (rank, sort key).
 */
import type { Checkpoint } from '../../security/deadline.ts';
import type { SearchIndex } from '../search-index.ts';
import { queryTokens } from '../tokenize.ts';
import { allBase } from './all-hits.ts';
import { assign, entryOptions } from './assign.ts';
import { ScoredHit, type Hit, type MatchResult } from './hit.ts';
import { QueryRun, type Admitted, type Within } from './run.ts';
import { topMulti } from './top-multi.ts';
import { topSingle } from './top-single.ts';

/**
 * All contacts matching `text` among `within` (all when undefined), best first. With `limit`, only the
 * first `limit` are guaranteed (type-ahead), and the search stops as soon as they are settled.
 * `among`, when the caller knows them: the ordinals `within` admits. A bucket (one token), or a
 * combination's smallest bucket (several), is then read through them when they are fewer than its
 * postings.
 */
export function search(
  index: SearchIndex,
  text: string,
  within?: Within,
  limit?: number,
  among?: Admitted,
  budget?: Checkpoint,
): MatchResult {
  const query = queryTokens(text);
  if (query.length === 0 || query.length > index.mostEntries())
    return { hits: [], candidates: 0, steps: 0 };
  const run = new QueryRun(index, query, within, among, budget);
  const baseHits =
    limit === undefined
      ? allBase(run)
      : run.toks.length === 1
        ? topSingle(run, limit)
        : topMulti(run, limit);
  const delta = deltaHits(run);
  const hits = delta.length ? merge(index, baseHits, delta) : baseHits;
  return {
    hits: limit === undefined ? hits : hits.slice(0, limit),
    candidates: run.work.looked,
    steps: run.work.steps,
  };
}

function merge(index: SearchIndex, a: Hit[], b: Hit[]): Hit[] {
  return [...a, ...b].sort((x, y) => x.score - y.score || cmpKey(index, x.ord, y.ord));
}

function cmpKey(index: SearchIndex, a: number, b: number): number {
  const n = index.baseSize;
  if (a < n && b < n) return a - b;
  const ka = index.sortKey(a),
    kb = index.sortKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** The delta segment's matches among `within`, scored on Entry objects. */
export function deltaHits(run: QueryRun): Hit[] {
  const { index, within, work } = run;
  const out: Hit[] = [];
  for (const ord of index.deltaOrdinals()) {
    if (within && !within(ord)) continue;
    work.looked++;
    const options = entryOptions(run.query, index.entriesOf(ord), work);
    const a = options && assign(options, work);
    if (a) out.push(new ScoredHit(ord, a.score, a.matches));
  }
  return out;
}
