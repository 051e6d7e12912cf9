/**
 * The base's packed arrays (index/base.ts): each entry's position and source as 2-bit steps.
 * Properties checked:
 * 1. stepsOf(a, b) is the sum of the steps of entries [a, b), for any steps and any a ≤ b (byte
 *    boundaries or not): the positions' in out[0], the sources' in out[1].
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { stepAt, stepsOf } from '../../src/search/index/base.ts';

test('1. stepsOf sums the steps of any range of entries', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 60 }),
      fc.nat(),
      fc.nat(),
      (codes, x, y) => {
        const steps = new Uint8Array((codes.length + 3) >>> 2);
        codes.forEach((c, e) => (steps[e >>> 2] |= c << ((e & 3) << 1)));
        const a = x % (codes.length + 1),
          b = a + (y % (codes.length + 1 - a));
        const out = new Int32Array(2);
        stepsOf(steps, a, b, out);
        let p = 0,
          s = 0;
        for (let e = a; e < b; e++) {
          assert.equal(stepAt(steps, e), codes[e]);
          p += codes[e] & 1;
          s += codes[e] >>> 1;
        }
        assert.deepEqual([...out], [p, s]);
      },
    ),
  );
});
