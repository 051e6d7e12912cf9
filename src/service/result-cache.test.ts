/**
 * ResultCache. Properties checked:
 * 1. A stored result comes back as the same object; another index version is a miss and drops it.
 * 2. Least recently used entries go first, by count and by characters; an oversized result is not kept.
 * 3. While a write runs nothing is read or stored; a computation that saw a write is not stored; a
 *    write empties the cache, also when it fails.
 * 4. maxEntries 0 turns it off.
 * 5. onRepeat: a key is stored the second time it is set; a slot taken by other keys forgets the first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ResultCache } from './result-cache.ts';
import type { OperationResult } from './types.ts';

const text = (t: string): OperationResult => ({ kind: 'text', text: t });

test('1. hits return the stored object; another version misses and drops the entry', () => {
  const c = new ResultCache(10, 1000);
  const r = text('{"a":1}');
  c.set('k', 7, c.ticket(), r);
  assert.equal(c.get('k', 7), r);
  assert.equal(c.get('k', 8), undefined);
  assert.equal(c.get('k', 7), undefined, 'dropped when seen stale');
  assert.deepEqual(c.stats(), { hits: 1, misses: 2, entries: 0, chars: 0 });
});

test('2. least recently used first, by count and by characters; oversized results are not kept', () => {
  const c = new ResultCache(2, 1000);
  c.set('a', 0, c.ticket(), text('1'));
  c.set('b', 0, c.ticket(), text('2'));
  c.get('a', 0); // a is now the most recent
  c.set('c', 0, c.ticket(), text('3'));
  assert.deepEqual(
    ['a', 'b', 'c'].map((k) => c.get(k, 0) !== undefined),
    [true, false, true],
  );

  const small = new ResultCache(100, 80); // one result may hold at most 10 characters
  small.set('x', 0, small.ticket(), text('x'.repeat(20)));
  assert.equal(small.get('x', 0), undefined, 'over an eighth of the budget');
  const keys = 'abcdefghijklmnopqrst'.split(''); // one-character keys: each entry is 10 characters
  for (const k of keys) small.set(k, 0, small.ticket(), text('123456789'));
  assert.deepEqual(small.stats(), { hits: 0, misses: 1, entries: 8, chars: 80 });
  assert.ok(small.get('t', 0) && !small.get('a', 0));
});

test('3. writes: bypassed while running, computations that saw one are not stored, emptied after (also on failure)', async () => {
  const c = new ResultCache(10, 1000);
  c.set('old', 0, c.ticket(), text('old'));
  const before = c.ticket();
  let during = 0;
  await c.duringWrite(async () => {
    assert.equal(c.get('old', 0), undefined, 'not read while a write runs');
    during = c.ticket();
    c.set('during', 0, during, text('x'));
  });
  c.set('before', 0, before, text('x'));
  c.set('during', 0, during, text('x'));
  assert.equal(c.stats().entries, 0, 'emptied, and nothing computed across the write was stored');
  c.set('fresh', 0, c.ticket(), text('x'));
  await assert.rejects(
    c.duringWrite(async () => {
      throw new Error('store failed');
    }),
  );
  assert.equal(c.get('fresh', 0), undefined);
});

test('4. maxEntries 0 turns the cache off', () => {
  const c = new ResultCache(0, 1000);
  assert.equal(c.enabled, false);
  c.set('k', 0, c.ticket(), text('x'));
  assert.equal(c.get('k', 0), undefined);
  assert.deepEqual(c.stats(), { hits: 0, misses: 0, entries: 0, chars: 0 });
});

test('5. onRepeat: stored the second time a key is set, not the first', () => {
  const c = new ResultCache(4, 1000, true);
  c.set('k', 0, c.ticket(), text('1'));
  assert.equal(c.get('k', 0), undefined, 'not kept the first time');
  const r = text('2');
  c.set('k', 0, c.ticket(), r);
  assert.equal(c.get('k', 0), r, 'kept the second');
  // 16 slots for 4 entries: 200 other keys take k2's slot, so its first time is forgotten.
  c.set('k2', 0, c.ticket(), text('x'));
  for (let i = 0; i < 200; i++) c.set(`other${i}`, 0, c.ticket(), text('y'));
  c.set('k2', 0, c.ticket(), text('x'));
  assert.equal(c.get('k2', 0), undefined, 'forgotten: not kept');
});
