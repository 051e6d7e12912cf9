/** Rule `order` (CONTRACT.md §4, fourth): typed tokens matched in the contact's display order rank first (fewer inversions between neighbours). */
import type { RankRule } from '../rule.ts';

export const order: RankRule = {
  id: 'order',
  bits: 10,
  score: (m) => {
    let n = 0;
    for (let i = 1; i < m.length; i++) if (m[i].pos < m[i - 1].pos) n++;
    return n;
  },
};
