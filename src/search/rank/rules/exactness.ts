/** Rule `exactness` (CONTRACT.md §4, second): more typed tokens matched as whole tokens (not only as a prefix) rank first. */
import type { RankRule } from '../rule.ts';

export const exactness: RankRule = {
  id: 'exactness',
  bits: 10,
  // Lower is better: the number of typed tokens NOT matched whole.
  score: (m) => {
    let n = 0;
    for (const x of m) if (!x.whole) n++;
    return n;
  },
};
