import assert from 'node:assert/strict';
import { test } from 'node:test';
import { arrival, arrived, lastArrival, TURN_MS } from './arrivals.ts';

test('arrival: the requests of one turn get ascending numbers and all resolve after the turn, together', async () => {
  const order: string[] = [];
  const before = lastArrival();
  const batch = [arrival(), arrival(), arrival()];
  assert.equal(lastArrival(), before + 3, 'numbered when read, not when resolved');
  void Promise.all(batch).then(() => order.push('batch'));
  setImmediate(() => order.push('immediate queued after the batch'));
  for (let i = 0; i < 5; i++) await null; // microtasks run; the turn's reads are not over yet
  assert.deepEqual(order, [], 'not answered before the check phase');
  assert.deepEqual(await Promise.all(batch), [before + 1, before + 2, before + 3]);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    order,
    ['batch', 'immediate queued after the batch'],
    'the batch ran in the check phase it was queued for',
  );
  const next = arrival(); // a later turn starts a new batch
  assert.equal(await next, before + 4);
  assert.equal(arrived(), before + 5);
});

test('arrival: a turn answers about TURN_MS of requests, oldest first, and the event loop polls between turns', async () => {
  // Four clients, each sending its next request once answered (a closed loop), each request 2 ms of
  // synchronous work. Every turn of the event loop (its timers phase) is marked in `order`.
  const order: (number | 'turn')[] = [];
  let looping = true;
  const mark = () => {
    order.push('turn');
    if (looping) setTimeout(mark, 0);
  };
  setTimeout(mark, 0);
  const busy = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  const numbers: number[] = [];
  const client = async () => {
    for (let i = 0; i < 6; i++) {
      const n = await arrival();
      numbers.push(n);
      order.push(n);
      busy(2);
    }
  };
  await Promise.all([client(), client(), client(), client()]);
  looping = false;
  assert.deepEqual(
    numbers,
    [...numbers].sort((a, b) => a - b),
    'answered in arrival order',
  );
  // The longest run of answers without a turn of the loop between them, counted from the first turn
  // mark after five answers (the turns before it had no measured cost yet): four (every waiting
  // request) when a turn answered all it had read; about TURN_MS / 2 ms now.
  let run = 0,
    longest = 0;
  for (const x of order.slice(order.indexOf('turn', order.findIndex((x) => x !== 'turn') + 5))) {
    run = x === 'turn' ? 0 : run + 1;
    longest = Math.max(longest, run);
  }
  assert.ok(
    longest <= Math.ceil(TURN_MS / 2),
    `at most ${Math.ceil(TURN_MS / 2)} answers a turn, saw ${longest}: ${order.join(' ')}`,
  );
});
