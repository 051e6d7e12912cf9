/** Rule `typo` (CONTRACT.md §4, first): fewer typed tokens matched only with one edit rank first. */
import type { RankRule } from '../rule.ts';

export const typo: RankRule = {
  id: 'typo',
  bits: 10,
  score: (m) => {
    let n = 0;
    for (const x of m) n += x.typo;
    return n;
  },
};
