import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InflightBodies } from './inflight-bodies.ts';

test('takes within capacity at once; beyond it waits for a release, in arrival order', async () => {
  const b = new InflightBodies(100, 10_000);
  assert.equal(await b.take(60), true);
  const order: string[] = [];
  const big = b.take(80).then((ok) => {
    order.push(`big ${ok}`);
  });
  const small = b.take(10).then((ok) => {
    order.push(`small ${ok}`);
  }); // fits now, but queues behind the big one
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, [], 'nothing granted while the first holds 60');
  b.release(60);
  await Promise.all([big, small]);
  assert.deepEqual(order, ['big true', 'small true']);
  assert.equal(b.bytesHeld, 90);
});

test('a wait that outlasts waitMs is refused and holds nothing; more than the capacity is refused at once', async () => {
  const b = new InflightBodies(100, 20);
  assert.equal(await b.take(100), true);
  assert.equal(await b.take(1), false);
  assert.equal(b.bytesHeld, 100);
  assert.equal(await b.take(101), false);
  b.release(100);
  assert.equal(b.bytesHeld, 0);
  assert.equal(await b.take(100), true, 'room again after the release');
});

test('a refused waiter does not hold up smaller ones behind it', async () => {
  const b = new InflightBodies(100, 30);
  await b.take(50);
  const big = b.take(90); // cannot fit before it times out
  const small = b.take(40); // fits, but arrived after the big one
  assert.equal(await big, false);
  assert.equal(await small, true, 'granted once the big one gave up');
  assert.equal(b.bytesHeld, 90);
});
