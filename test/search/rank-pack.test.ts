/**
 * The packed rank (src/search/rank/rules.ts, src/search/query/score.ts): one number per rank, made
 * from the ordered rules. Properties checked:
 * 1. Packed ranks order as the ranks do (compareRank), and unpackRank inverts packRank.
 * 2. The hot path's parts (partial + orderPart) are the packed rank of the same tier values.
 * 3. scoreOf of matches is the packed rank of the rules' scores of them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  compareRank,
  MAX,
  packRank,
  rankOf,
  RULES,
  unpackRank,
} from '../../src/search/rank/rules.ts';
import { orderPart, partial, scoreOf } from '../../src/search/query/score.ts';

const tier = fc.integer({ min: 0, max: 1023 });
const rank = fc.tuple(tier, tier, tier, tier, tier);
const facts = fc.array(
  fc.record({
    typo: fc.constantFrom(0 as const, 1 as const),
    variant: fc.constantFrom(0 as const, 1 as const),
    whole: fc.boolean(),
    cls: fc.integer({ min: 0, max: 4 }),
    pos: fc.integer({ min: 0, max: 40 }),
  }),
  { minLength: 1, maxLength: 8 },
);

test('1. packed ranks order as ranks, and unpack inverts pack', () => {
  assert.deepEqual(
    RULES.map((r) => r.id),
    ['typo', 'variant', 'exactness', 'field', 'order'],
  );
  fc.assert(
    fc.property(rank, rank, (a, b) => {
      assert.equal(Math.sign(packRank(a) - packRank(b)), Math.sign(compareRank(a, b)));
      assert.deepEqual(unpackRank(packRank(a)), a);
    }),
  );
  // Over its bits a score is clamped, never carried into the rule above it.
  assert.deepEqual(unpackRank(packRank([0, 0, 0, 5000, 0])), [0, 0, 0, MAX.field, 0]);
});

test('2. partial + orderPart is the packed rank', () => {
  fc.assert(
    fc.property(rank, ([t, v, e, f, o]) => {
      assert.equal(partial(t, e, f, v) + orderPart(o), packRank([t, v, e, f, o]));
    }),
  );
});

test('3. scoreOf is the packed rank of the rules', () => {
  fc.assert(
    fc.property(facts, (m) => {
      assert.equal(scoreOf(m), packRank(rankOf(m)));
      const [t, v, e, f, o] = rankOf(m);
      assert.equal(scoreOf(m), partial(t, e, f, v) + orderPart(o));
    }),
  );
});
