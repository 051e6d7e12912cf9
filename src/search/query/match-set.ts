/**
 * The contacts matching a text, unranked, as a list of bitmap words (bits.ts): what Total, filters and
 * facets need. Exactly the contacts `search` returns, without scoring them.
 */
import type { Checkpoint } from '../../security/deadline.ts';
import type { Marks, WordList } from '../bits.ts';
import type { SearchIndex } from '../search-index.ts';
import { queryTokens } from '../tokenize.ts';
import { baseCandidates } from './candidates.ts';
import { allRanges, ensureTypo, type Compiled } from './compile.ts';
import { matchesBase } from './evaluate.ts';
import { postingSlices } from './postings.ts';
import { QueryRun, scratchOf, type Within } from './run.ts';
import { deltaHits } from './search.ts';
import { markSegments } from './segments.ts';

/**
 * Word tokens without typo tolerance or variant spellings where none is a prefix of another: no entry
 * can match two of them, so holding a match for each token IS a match (no assignment to check). (A
 * word's variants are the same entry: "al" and "be" could both take Albert, through "bert".)
 */
function independent(toks: readonly Compiled[]): boolean {
  for (const t of toks)
    if (t.q.kind !== 'word' || (t.typo?.length ?? 0) > 0 || t.exact.some((r) => r.variant))
      return false;
  for (let i = 0; i < toks.length; i++)
    for (let j = 0; j < toks.length; j++)
      if (i !== j && toks[j].q.term.startsWith(toks[i].q.term)) return false;
  return true;
}

/**
 * The contacts matching `text` among `within` (all when undefined). One token's matches are its
 * postings, marked straight into the bitmap; several independent tokens' matches are the
 * intersection; otherwise each candidate of the intersection is checked for an assignment.
 * `candidates`: the contacts looked at.
 */
export function matchBits(
  index: SearchIndex,
  text: string,
  within?: Within,
  budget?: Checkpoint,
): { set: WordList; candidates: number; steps: number } {
  const query = queryTokens(text);
  const marks = scratchOf(index).matchMarks(index.ordinalCount);
  if (query.length > index.mostEntries())
    return { set: marks.list(new Uint32Array(0)), candidates: 0, steps: 0 };
  try {
    if (query.length === 0) return { set: marks.list(index.liveBits()), candidates: 0, steps: 0 };
    const out = markMatches(new QueryRun(index, query, within, undefined, budget), marks);
    if (index.segments.length === 0) return out;
    out.candidates += markSegments(index, within, marks, (seg, w) =>
      matchBits(seg, text, w, budget),
    );
    return { ...out, set: marks.list(index.liveBits(), true) };
  } finally {
    marks.clear();
  }
}

function markMatches(
  run: QueryRun,
  marks: Marks,
): { set: WordList; candidates: number; steps: number } {
  const { index, toks, within, work: stats } = run;
  for (const t of toks) ensureTypo(index, t);
  const marked = toks.length === 1 && !within; // the postings straight into the bitmap; looked: counted at the end
  if (marked) {
    const { bits, touched } = marks,
      post = index.base.post;
    const s = postingSlices(index, allRanges(toks[0]), undefined, stats);
    for (let k = 0; k < s.length; k += 2) {
      for (let i = s[k], end = s[k + 1]; i < end; i++) {
        const ord = post[i],
          w = ord >>> 5;
        bits[w] |= 1 << (ord & 31);
        touched[w >>> 5] |= 1 << (w & 31);
      }
    }
  } else {
    const sure = toks.length === 1 || independent(toks);
    baseCandidates(run, (ord) => {
      if (within && !within(ord)) return;
      stats.looked++;
      if (sure || matchesBase(run, ord)) marks.add(ord);
    });
  }
  const delta = deltaHits(run);
  for (const h of delta) marks.add(h.ord);
  const set = marks.list(index.liveBits(), index.segments.length === 0); // segments' matches are marked next
  return {
    set,
    candidates: marked ? set.count - delta.length + stats.looked : stats.looked,
    steps: stats.steps,
  };
}
