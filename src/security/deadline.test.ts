/**
 * Properties checked:
 * 1. Within budget nothing throws; over budget `checkNow()` throws PayloadTooLarge (a Client fault).
 * 2. `check()` reads the clock only once every 1,024 calls, and throws on the read that finds the budget spent.
 * 3. Without a budget (Infinity) nothing ever throws and the clock is not read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServiceError } from '../errors.ts';
import { Deadline } from './deadline.ts';

function fakeClock(start = 1000) {
  const clock = {
    t: start,
    reads: 0,
    now: () => {
      clock.reads++;
      return clock.t;
    },
  };
  return clock;
}

const overBudget = (e: unknown) =>
  e instanceof ServiceError && e.code === 'PayloadTooLarge' && e.faultClass === 'Client';

test('1. checkNow throws PayloadTooLarge once the budget is spent', () => {
  const c = fakeClock();
  const d = new Deadline(50, c.now);
  c.t += 50;
  d.checkNow(); // exactly at the budget: still allowed
  assert.equal(d.remainingMs, 0);
  c.t += 1;
  assert.throws(() => d.checkNow(), overBudget);
  assert.ok(d.remainingMs < 0);
});

test('2. check samples the clock every 1,024 calls', () => {
  const c = fakeClock();
  const d = new Deadline(10, c.now);
  const readsAtStart = c.reads;
  c.t += 1000; // long over budget, but check() has not looked yet
  for (let i = 1; i < 1024; i++) d.check();
  assert.equal(c.reads, readsAtStart, 'no clock reads for the first 1,023 calls');
  assert.throws(() => d.check(), overBudget, 'the 1,024th call reads the clock and throws');
  assert.equal(c.reads, readsAtStart + 1);
});

test('3. an unlimited deadline never throws and never reads the clock', () => {
  const c = fakeClock();
  const d = new Deadline(Infinity, c.now);
  c.t = Number.MAX_SAFE_INTEGER;
  for (let i = 0; i < 5000; i++) d.check();
  d.checkNow();
  Deadline.unlimited().checkNow();
  assert.equal(c.reads, 0);
  assert.equal(d.remainingMs, Infinity);
});
