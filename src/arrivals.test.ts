import assert from 'node:assert/strict';
import { test } from 'node:test';
import { arrival, arrived, lastArrival } from './arrivals.ts';

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
