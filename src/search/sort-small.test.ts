import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sortSmall } from './sort-small.ts';

test('sortSmall orders like Array.prototype.sort, ties in their first order, short and long lists', () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 500; round++) {
    const n = round % 40; // both sides of the cut-over
    const items = Array.from({ length: n }, (_, i) => ({ key: Math.floor(rand() * 5), i }));
    const cmp = (x: { key: number }, y: { key: number }) => x.key - y.key;
    const want = [...items].sort(cmp);
    const got = sortSmall([...items], cmp);
    assert.deepEqual(got, want, `n=${n}`);
  }
});

test('sortSmall with n sorts the first n of a typed array and leaves the rest as they were', () => {
  for (const n of [0, 1, 5, 16, 17, 40]) {
    const a = Uint32Array.from({ length: 50 }, (_, i) => (i * 37 + 11) % 50);
    const rest = a.slice(n);
    const want = Array.from(a.subarray(0, n)).sort((x, y) => x - y);
    sortSmall(a, (x, y) => x - y, n);
    assert.deepEqual(Array.from(a.subarray(0, n)), want, `first ${n}`);
    assert.deepEqual(a.slice(n), rest, `after ${n}`);
  }
});
