/**
 * OrderedBits (query/ordered-bits.ts), the bitmap a big driver bucket is read back from in ordinal
 * order. Properties checked:
 * 1. drain gives every added ordinal once, ascending, and leaves the set empty.
 * 2. drain stops when `f` returns true, and the ordinals after the stop are gone too.
 * 3. When `f` throws (a deadline), the set is still left empty.
 * 4. With `among`, only the ordinals also in that bitmap are given, and the whole set is emptied.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OrderedBits } from '../../src/search/query/ordered-bits.ts';

/** A fixed pseudo-random set of ordinals below n, with repeats. */
function sample(n: number, count: number, seed: number): number[] {
  const out: number[] = [];
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(x % n);
  }
  return out;
}

const drained = (bits: OrderedBits): number[] => {
  const out: number[] = [];
  bits.drain((ord) => {
    out.push(ord);
    return false;
  });
  return out;
};

test('1. drain reads every ordinal once, ascending, and empties the set', () => {
  const n = 70_000;
  const bits = new OrderedBits(n);
  for (const [count, seed] of [
    [5, 1],
    [3000, 2],
    [40_000, 3],
  ]) {
    const ords = [...sample(n, count, seed), 0, n - 1];
    for (const o of ords) bits.add(o);
    assert.deepEqual(
      drained(bits),
      [...new Set(ords)].sort((a, b) => a - b),
    );
    assert.deepEqual(drained(bits), []);
  }
});

test('2. drain stops where f says, and clears the rest', () => {
  const bits = new OrderedBits(5000);
  const ords = [...new Set(sample(5000, 500, 7))].sort((a, b) => a - b);
  for (const o of ords) bits.add(o);
  const seen: number[] = [];
  bits.drain((ord) => {
    seen.push(ord);
    return seen.length === 10;
  });
  assert.deepEqual(seen, ords.slice(0, 10));
  assert.deepEqual(drained(bits), []);
});

test('3. a throw in f leaves the set empty', () => {
  const bits = new OrderedBits(5000);
  for (const o of sample(5000, 300, 9)) bits.add(o);
  assert.throws(
    () =>
      bits.drain(() => {
        throw new Error('deadline');
      }),
    /deadline/,
  );
  assert.deepEqual(drained(bits), []);
  bits.add(42);
  assert.deepEqual(drained(bits), [42]);
});

test('4. drain among a bitmap gives only the ordinals in both, and empties the set', () => {
  const n = 70_000;
  const bits = new OrderedBits(n);
  const ords = sample(n, 5000, 11);
  const among = new Uint32Array(Math.ceil(n / 32));
  const other = new Set(sample(n, 20_000, 12));
  for (const o of other) among[o >>> 5] |= 1 << (o & 31);
  for (const o of ords) bits.add(o);
  const out: number[] = [];
  bits.drain((ord) => {
    out.push(ord);
    return false;
  }, among);
  const both = [...new Set(ords)].filter((o) => other.has(o)).sort((a, b) => a - b);
  assert.ok(both.length > 100 && both.length < new Set(ords).size);
  assert.deepEqual(out, both);
  assert.deepEqual(drained(bits), []);
});
