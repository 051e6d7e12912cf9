/**
 * Properties checked:
 * 1. A burst passes, the next request waits, tokens refill with time, ids are separate.
 * 2. A bucket idle long enough to be full again is dropped, and dropping it changes no answer.
 * 3. A flood of distinct ids never holds more than the cap; the least recently used go first.
 * 4. Who is limited: the API key when there is one, else the client address (IPv6 by /64); loopback never.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_LIMITS } from '../config.ts';
import { addressBucket, CallerRateLimits, RateLimiter } from './rate-limit.ts';

const T = 1_000_000;

test('1. a burst passes, the next request waits, tokens refill with time, keys are separate', () => {
  const r = new RateLimiter(2, 3);
  assert.deepEqual([r.take('a', T), r.take('a', T), r.take('a', T)], [0, 0, 0]);
  assert.equal(r.take('a', T), 1, 'over the burst: wait');
  assert.equal(r.take('b', T), 0, 'another key has its own bucket');
  assert.equal(r.take('a', T + 500), 0, 'half a second refills one token at 2/s');
  assert.equal(r.take('a', T + 500), 1);
});

test('2. idle buckets are evicted once they would be full again', () => {
  const r = new RateLimiter(2, 4); // full again 2 s after the last take
  for (let i = 0; i < 4; i++) r.take('idle', T);
  r.take('busy', T + 1500);
  assert.equal(r.size, 2, 'after 1.5 s "idle" is not yet full: kept');
  assert.equal(r.take('idle', T + 1500), 0, 'and it has refilled 3 tokens');
  for (let i = 0; i < 2; i++) r.take('idle', T + 1500);
  assert.equal(r.take('idle', T + 1500), 1, 'its state was kept: now empty');
  r.take('other', T + 3600);
  assert.equal(r.size, 1, '"idle" and "busy", untouched for 2.1 s, are gone; "other" is new');
  const fresh = new RateLimiter(2, 4);
  assert.deepEqual(
    [0, 1, 2, 3, 4].map(() => r.take('idle', T + 3600)),
    [0, 1, 2, 3, 4].map(() => fresh.take('idle', T + 3600)),
    'an evicted bucket answers exactly as a new one',
  );
});

test('3. a flood of distinct addresses stays under the cap, least recently used evicted first', () => {
  const r = new RateLimiter(1, 2, 100);
  r.take('regular', T);
  r.take('regular', T);
  assert.equal(r.take('regular', T), 1, 'regular is limited');
  for (let i = 0; i < 10_000; i++) {
    r.take(`flood-${i}`, T + 1);
    if (i % 50 === 0) r.take('regular', T + 1); // keeps "regular" recently used
    assert.ok(r.size <= 100, `size ${r.size} after ${i}`);
  }
  assert.equal(r.size, 100);
  assert.equal(
    r.take('regular', T + 1),
    1,
    'a recently used bucket survived the flood with its state',
  );
  assert.equal(r.take('flood-0', T + 1), 0, 'an early flood address was forgotten (starts over)');
});

test('4. keys are limited per key, keyless callers per address, loopback never', () => {
  const limits = {
    ...DEFAULT_LIMITS,
    keyRequestsPerSecond: 1,
    keyBurst: 1,
    ipRequestsPerSecond: 1,
    ipBurst: 2,
  };
  const l = new CallerRateLimits(limits);
  const remote = { address: '203.0.113.7', loopback: false };
  assert.deepEqual(
    [1, 2, 3].map(() => l.take(remote, T).wait),
    [0, 0, 1],
    'address: burst of 2',
  );
  assert.equal(
    l.take({ address: '203.0.113.8', loopback: false }, T).wait,
    0,
    'another address has its own bucket',
  );
  assert.equal(
    l.take({ address: '::ffff:203.0.113.7', loopback: false }, T).wait,
    1,
    'IPv4-mapped IPv6 is the same caller',
  );
  assert.equal(
    l.take({ ...remote, keyId: 'k' }, T).wait,
    0,
    'with a key, the key is limited, not the address',
  );
  assert.equal(l.take({ ...remote, keyId: 'k' }, T).wait, 1);
  for (let i = 0; i < 1000; i++)
    assert.equal(
      l.take({ address: '127.0.0.1', loopback: true }, T).wait,
      0,
      'loopback is never limited',
    );
  assert.equal(l.take({ address: undefined, loopback: false }, T).wait, 0);
  const v6 = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff'];
  assert.deepEqual(
    v6.map((a) => l.take({ address: a, loopback: false }, T).wait),
    [0, 0],
  );
  assert.equal(
    l.take({ address: '2001:db8:1:2::99', loopback: false }, T).wait,
    1,
    'one /64 shares a bucket',
  );
  assert.equal(
    l.take({ address: '2001:db8:1:3::1', loopback: false }, T).wait,
    0,
    'the next /64 does not',
  );
  assert.equal(l.addressBuckets, 4, 'two IPv4 addresses, two /64 networks');
});

test('4b. address buckets', () => {
  assert.equal(addressBucket('198.51.100.4'), '198.51.100.4');
  assert.equal(addressBucket('::ffff:198.51.100.4'), '198.51.100.4');
  assert.equal(addressBucket('2001:DB8:0:0:1:2:3:4'), '2001:db8:0:0::/64');
  assert.equal(addressBucket('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(addressBucket('fe80::fc:ff:fe00:1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(addressBucket('::1'), '0:0:0:0::/64');
});
