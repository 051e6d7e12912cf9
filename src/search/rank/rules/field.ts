/** Rule `field` (CONTRACT.md §4, third): matches in better fields rank first: name 0 > organisation 1 > email 2 > phone 3 > other 4 (summed over typed tokens). */
import type { RankRule } from '../rule.ts';

export const fieldRule: RankRule = {
  id: 'field',
  bits: 10,
  score: (m) => {
    let n = 0;
    for (const x of m) n += x.cls;
    return n;
  },
};
