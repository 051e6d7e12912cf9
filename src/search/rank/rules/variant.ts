/**
 * Rule `variant` (CONTRACT.md §4, between typo and exactness): fewer typed tokens matched only through
 * a variant spelling (ä/ae, a reading, a transliteration, a nickname) rank first, so a variant never
 * crowds out an exact spelling, and every variant ranks before any typo.
 */
import type { RankRule } from '../rule.ts';

export const variant: RankRule = {
  id: 'variant',
  bits: 10,
  score: (m) => {
    let n = 0;
    for (const x of m) n += x.variant ?? 0;
    return n;
  },
};
