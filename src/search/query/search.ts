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
 * The delta segment (recent writes) is matched by brute force (assign.ts), the segments (big changes
 * indexed apart) by the same plans on their own indexes (segments.ts); both merged by (rank, sort key).
 */
import type { Checkpoint } from '../../security/deadline.ts';
import type { SearchIndex } from '../search-index.ts';
import { queryTokens } from '../tokenize.ts';
import { allBase } from './all-hits.ts';
import { assign, entryOptions } from './assign.ts';
import { ScoredHit, type Hit, type MatchResult } from './hit.ts';
import { QueryRun, type Admitted, type Within } from './run.ts';
import { segmentHits } from './segments.ts';
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
  const plan = (r: QueryRun) =>
    limit === undefined
      ? allBase(r)
      : r.toks.length === 1
        ? topSingle(r, limit)
        : topMulti(r, limit);
  const baseHits = plan(run);
  const recent = deltaHits(run);
  if (index.segments.length) recent.push(...segmentHits(run, budget, plan));
  const hits = recent.length ? merge(index, baseHits, recent) : baseHits;
  return {
    hits: limit === undefined || hits.length <= limit ? hits : hits.slice(0, limit),
    candidates: run.work.looked,
    steps: run.work.steps,
  };
}

/**
 * The base's hits (ranked) and the others' (any order) in one ranking. The others are sorted, then
 * the two lists merged: a full search of a common prefix can have a hundred thousand of each, and
 * a sort of both through sort keys (strings made from the table) would compare them all by key.
 */
function merge(index: SearchIndex, base: Hit[], others: Hit[]): Hit[] {
  const n = index.baseSize;
  const keys = new Map<number, string>();
  const key = (ord: number) => {
    let k = keys.get(ord);
    if (k === undefined) keys.set(ord, (k = index.sortKey(ord)));
    return k;
  };
  const before = (x: Hit, y: Hit) => {
    if (x.score !== y.score) return x.score < y.score;
    if (x.ord < n && y.ord < n) return x.ord < y.ord;
    return key(x.ord) < key(y.ord);
  };
  others.sort((x, y) => (before(x, y) ? -1 : before(y, x) ? 1 : 0));
  const out = new Array<Hit>(base.length + others.length);
  let i = 0,
    j = 0,
    k = 0;
  while (i < base.length && j < others.length)
    out[k++] = before(others[j], base[i]) ? others[j++] : base[i++];
  while (i < base.length) out[k++] = base[i++];
  while (j < others.length) out[k++] = others[j++];
  return out;
}

/** The delta segment's matches among `within`, scored on Entry objects. */
export function deltaHits(run: QueryRun): Hit[] {
  const { index, within, work } = run;
  const out: Hit[] = [];
  if (index.table.rows === index.baseSize) return out; // no delta: no generator made a query
  for (const ord of index.deltaOrdinals()) {
    if (within && !within(ord)) continue;
    work.looked++;
    const options = entryOptions(run.query, index.entriesOf(ord), work);
    const a = options && assign(options, work);
    if (a) out.push(new ScoredHit(ord, a.score, a.matches));
  }
  return out;
}
