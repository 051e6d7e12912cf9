/** Every base match, ranked (GetSearchResults: Total is exact, and every page can be asked for). */
import { CLASSES } from '../search-index.ts';
import { ensureTypo, spelled, variants, wholes, type Compiled, type Range } from './compile.ts';
import { baseCandidates } from './candidates.ts';
import { BucketHit, evalBase } from './evaluate.ts';
import { byRank, type Hit } from './hit.ts';
import { postingSlices } from './postings.ts';
import type { QueryRun } from './run.ts';
import { partial } from './score.ts';

/** Every base match, best first. */
export function allBase(run: QueryRun): Hit[] {
  const { index, toks, within, work: stats } = run;
  for (const t of toks) ensureTypo(index, t);
  if (toks.length === 1) return allSingle(run);
  const hits: Hit[] = [];
  baseCandidates(run, (ord) => {
    if (within && !within(ord)) return;
    stats.looked++;
    const h = evalBase(run, ord, true, stats);
    if (h) hits.push(h);
  });
  return hits.sort(byRank);
}

/**
 * Every base match of one token without scoring contacts one by one: the buckets  (whole, prefix, variant, typo
 * × field class) are walked in rank order over the postings, and a contact takes the first bucket it
 * appears in. Typed arrays only; each bucket's new ordinals are sorted (they are the tie-break order).
 */
function allSingle(run: QueryRun): Hit[] {
  const { index, within, work: stats } = run;
  const tok: Compiled = run.toks[0];
  const { stamp, gen } = index.newStamp();
  const post = index.base.post;
  const tiers: [Range[], number, number, number][] = [
    [wholes(tok), 0, 0, 0],
    [spelled(tok), 0, 1, 0],
    [variants(tok), 0, 1, 1],
    [tok.typo ?? [], 1, 1, 0],
  ];
  const hits: Hit[] = [];
  for (const [ranges, typo, notWhole, variant] of tiers) {
    for (let c = 0; c < CLASSES; c++) {
      const fresh: number[] = [];
      const s = postingSlices(index, ranges, c);
      for (let k = 0; k < s.length; k += 2) {
        for (let i = s[k], end = s[k + 1]; i < end; i++) {
          const ord = post[i];
          if (stamp[ord] === gen) continue;
          stamp[ord] = gen;
          if (!index.isLive(ord) || (within && !within(ord))) continue;
          fresh.push(ord);
        }
      }
      if (fresh.length === 0) continue;
      stats.looked += fresh.length;
      const sorted = Uint32Array.from(fresh).sort();
      const score = partial(typo, notWhole, c, variant);
      for (const ord of sorted) hits.push(new BucketHit(ord, score, run));
    }
  }
  return hits;
}
