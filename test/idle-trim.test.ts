/**
 * The C heap given back after a busy spell (src/io/idle-trim.ts, native/file-map's trimMalloc).
 * Properties checked:
 * 1. trimMalloc gives freed C-heap memory back: 96 MB of ArrayBuffers' backing stores (malloc's, at
 *    64 KB each) collected but the last, so free() could not shrink the heap's top: the process's
 *    anonymous RSS drops by most of it after the call, and the call says it gave memory back.
 * 2. trimWhenIdle trims at the first idle period after a busy one (the start counts as busy), not
 *    again while the loop stays idle, and again after the next busy spell.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FILE_MAP, trimMalloc } from '../src/io/file-map.ts';
import { trimWhenIdle } from '../src/io/idle-trim.ts';

const anonMb = () =>
  Number(/RssAnon:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('1. trimMalloc gives the freed middle of the C heap back to the kernel', async (t) => {
  if (!FILE_MAP.built)
    return t.skip('SKIPPED: native/file-map is not built (npm install builds it)');
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // All held, then dropped but the last: freed in the middle, the heap's top kept in use.
  const held = Array.from({ length: 1536 }, () => new Uint8Array(64 * 1024).fill(1).buffer);
  const last = held[held.length - 1];
  held.length = 0;
  gc();
  await sleep(200); // backing stores may be freed off the main thread
  gc();
  const before = anonMb();
  assert.equal(trimMalloc(), true, 'trimMalloc gave nothing back');
  const after = anonMb();
  assert.ok(before - after > 48, `anonymous RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB`);
  assert.equal(last.byteLength, 64 * 1024); // held to the end: the heap's top stays in use
});

test('2. trimWhenIdle: once at the first idle period after a busy one, again after the next', async () => {
  let trims = 0;
  const stop = trimWhenIdle({ everyMs: 40, idleBelow: 0.25, trim: () => (trims++, true) });
  try {
    const busyFor = async (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end) {
        const turn = performance.now() + 10;
        while (performance.now() < turn);
        await new Promise((r) => setImmediate(r));
      }
    };
    await sleep(200); // the start is busy: its first idle period trims
    assert.equal(trims, 1);
    await sleep(300); // idle on: no trim
    assert.equal(trims, 1);
    await busyFor(150);
    assert.equal(trims, 1, 'no trim while busy');
    await sleep(200);
    assert.equal(trims, 2);
  } finally {
    stop();
  }
});
