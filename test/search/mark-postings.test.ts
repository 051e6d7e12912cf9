/**
 * markPostings (query/postings.ts), the loop that marks a bucket's postings into a bitmap four runs
 * at a time: the bitmap it leaves is every posting of every slice, one by one, whatever the slices'
 * lengths (remainders of 0–3 after the four runs, empty slices, runs of neighbours in one word).
 * eachMarked, which reads a driver four postings to a test: exactly the postings in the bitmap, in
 * posting order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachMarked, markPostings } from '../../src/search/query/postings.ts';

let x = 5;
// The high bits of the generator: its low bits repeat with a short period.
const rand = (n: number) => ((x = (x * 1103515245 + 12345) >>> 0) >>> 12) % n;
const n = 5000;

test('markPostings sets exactly the bits of every posting in the slices', () => {
  for (let round = 0; round < 200; round++) {
    // Sorted runs with neighbours, as a term's postings are.
    const post = new Uint32Array(400);
    for (let i = 0, o = rand(n); i < post.length; i++)
      post[i] = o = (o + 1 + rand(round % 2 ? 3 : 90)) % n;
    const slices: number[] = [];
    for (let k = 0, at = rand(20); k < 1 + rand(5) && at < post.length; k++) {
      const end = Math.min(post.length, at + rand(40));
      slices.push(at, end);
      at = end + rand(30);
    }
    const want = new Uint32Array(Math.ceil(n / 32));
    for (let k = 0; k < slices.length; k += 2)
      for (let i = slices[k]; i < slices[k + 1]; i++) want[post[i] >>> 5] |= 1 << (post[i] & 31);
    const got = new Uint32Array(want.length);
    markPostings(post, slices, got);
    assert.deepEqual(got, want, `round ${round}: slices ${slices.join(',')}`);
  }
});

test('eachMarked gives the postings whose bit is set, in posting order', () => {
  for (let round = 0; round < 200; round++) {
    const post = Uint32Array.from({ length: 300 }, () => rand(n));
    const w = new Uint32Array(Math.ceil(n / 32));
    for (let i = 0; i < n; i++) if (rand(4) === 0) w[i >>> 5] |= 1 << (i & 31);
    const slices: number[] = [];
    for (let at = rand(10); at < post.length;) {
      const end = Math.min(post.length, at + rand(23));
      slices.push(at, end);
      at = end + rand(7);
    }
    const want: number[] = [];
    for (let k = 0; k < slices.length; k += 2)
      for (let i = slices[k]; i < slices[k + 1]; i++)
        if (w[post[i] >>> 5] & (1 << (post[i] & 31))) want.push(post[i]);
    const got: number[] = [];
    eachMarked(post, slices, w, (ord) => got.push(ord));
    assert.ok(want.length > 0);
    assert.deepEqual(got, want, `round ${round}`);
  }
});
