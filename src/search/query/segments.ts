/**
 * The segments' part of a query (SearchIndex.segments, index/segment.ts): each segment is a base of
 * its own, so the same plan runs on its index, with the caller's `within` and `among` moved into its
 * ordinals, and its hits are moved back to the index's rows (ordinal l of a segment from row `from`
 * is row from + l). search.ts merges them with the base's and the delta's by rank, then sort key.
 */
import type { Checkpoint } from '../../security/deadline.ts';
import type { Marks, WordList } from '../bits.ts';
import { forEachListed } from '../bits.ts';
import type { SearchIndex, Segment } from '../search-index.ts';
import type { Hit, TokenMatch } from './hit.ts';
import { QueryRun, type Admitted, type Within } from './run.ts';

/** A segment's hit as a row of the whole index. */
class MovedHit implements Hit {
  constructor(
    private readonly hit: Hit,
    readonly ord: number,
  ) {}
  get score(): number {
    return this.hit.score;
  }
  get rank() {
    return this.hit.rank;
  }
  get matches(): readonly TokenMatch[] {
    return this.hit.matches;
  }
}

/** `within` over a segment's ordinals. */
function withinSegment(within: Within, s: Segment): Within {
  return within && ((l: number) => within(l + s.from));
}

/** The admitted rows that are the segment's, as its ordinals (ascending, as `among` lists them). */
function amongSegment(among: Admitted | undefined, s: Segment): Admitted | undefined {
  if (!among) return undefined;
  const rows = among.list();
  const local: number[] = [];
  for (let i = 0; i < rows.length; i++)
    if (rows[i] >= s.from && rows[i] < s.to) local.push(rows[i] - s.from);
  return { count: local.length, list: () => local };
}

/**
 * Each segment's hits of `run`'s query by `plan` (the base's plan, on the segment's own index), as
 * rows of the whole index; the work is added to `run`'s.
 */
export function segmentHits(
  run: QueryRun,
  budget: Checkpoint | undefined,
  plan: (sub: QueryRun) => Hit[],
): Hit[] {
  const out: Hit[] = [];
  for (const s of run.index.segments) {
    if (run.query.length > s.index.mostEntries() || s.index.size === 0) continue;
    const sub = new QueryRun(
      s.index,
      run.query,
      withinSegment(run.within, s),
      amongSegment(run.among, s),
      budget,
    );
    for (const h of plan(sub)) out.push(new MovedHit(h, h.ord + s.from));
    run.work.looked += sub.work.looked;
    run.work.steps += sub.work.steps;
  }
  return out;
}

/**
 * Marks each segment's matches (`matches`: the match set on a segment's own index, as match-set.ts
 * makes it) as rows of `index`; returns how many contacts were looked at.
 */
export function markSegments(
  index: SearchIndex,
  within: Within,
  marks: Marks,
  matches: (segment: SearchIndex, within: Within) => { set: WordList; candidates: number },
): number {
  let looked = 0;
  for (const s of index.segments) {
    if (s.index.size === 0) continue;
    const m = matches(s.index, withinSegment(within, s));
    forEachListed(m.set, (l) => marks.add(l + s.from));
    looked += m.candidates;
  }
  return looked;
}
