import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimiter } from './rate-limit.ts';

test('a burst passes, the next request waits, tokens refill with time, keys are separate', () => {
  const r = new RateLimiter(2, 3);
  const t = 1_000_000;
  assert.deepEqual([r.take('a', t), r.take('a', t), r.take('a', t)], [0, 0, 0]);
  assert.equal(r.take('a', t), 1, 'over the burst: wait');
  assert.equal(r.take('b', t), 0, 'another key has its own bucket');
  assert.equal(r.take('a', t + 500), 0, 'half a second refills one token at 2/s');
  assert.equal(r.take('a', t + 500), 1);
});
