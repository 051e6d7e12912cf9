/**
 * Type-ahead for one typed token: its buckets in rank order — (whole, name) (whole, org) … (prefix,
 * name) … (variant, name) … (typo, name) … — each bucket's rank the same for all its contacts, so a bucket's first
 * `need` unseen ordinals (ascending: the tie-break order) are final, and the walk stops at `limit`.
 */
import { CLASSES } from '../search-index.ts';
import { ensureTypo, spelled, variants, wholes, type Compiled, type Range } from './compile.ts';
import { evalBase } from './evaluate.ts';
import type { Hit } from './hit.ts';
import { bucket } from './read-bucket.ts';
import type { QueryRun } from './run.ts';

export function topSingle(run: QueryRun, limit: number): Hit[] {
  const { index } = run;
  const tok: Compiled = run.toks[0];
  const out: Hit[] = [];
  const { stamp, gen } = index.newStamp();
  const whole = wholes(tok);
  const tiers: { ranges: () => Range[]; typo: 0 | 1; whole: boolean }[] = [
    { ranges: () => whole, typo: 0, whole: true },
    { ranges: () => spelled(tok), typo: 0, whole: false },
    { ranges: () => variants(tok), typo: 0, whole: false },
    { ranges: () => ensureTypo(index, tok), typo: 1, whole: false },
  ];
  for (const tier of tiers) {
    const ranges = tier.ranges();
    if (ranges.length === 0) continue;
    for (let c = 0; c < CLASSES && out.length < limit; c++) {
      for (const ord of bucket(run, c, ranges, limit - out.length, stamp, gen)) {
        // The bucket says the best match's facts; the entry (for highlighting) comes from the forward index.
        const h = evalBase(run, ord, tier.typo === 1, undefined);
        if (h) out.push(h);
      }
    }
    if (out.length >= limit) break;
  }
  return out;
}
