/**
 * Properties checked:
 * 1. A deliberate 400 ms block over a 100 ms threshold is logged as a structured warning carrying
 *    only durations, and counted with its length (at least 400 ms less one 50 ms tick, so ≥ 300 ms
 *    leaves room); the histogram's max covers it.
 * 2. After stop() no more ticks run (nothing is logged for a later block).
 * 3. A tick late only because the process waited for a CPU is counted as starved, not as a block.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { EventLoopWatchdog, onCpuMs } from './event-loop-watchdog.ts';

type Entry = { level: string; msg: string; fields?: Record<string, unknown> };

/** Runs for `ms` of CPU time: a busy machine must not shorten the block. */
function block(ms: number): void {
  const end = onCpuMs() + ms;
  while (onCpuMs() < end) {
    /* the deliberate block */
  }
}

test('1. a block over the threshold is logged, counted and in the histogram', async () => {
  const logged: Entry[] = [];
  const w = new EventLoopWatchdog(100, (level, msg, fields) =>
    logged.push({ level, msg, fields }),
  ).start();
  try {
    await sleep(60); // let the watchdog's timer and the histogram start sampling
    block(400);
    await sleep(150); // the late tick runs and reports
    // At least one: a busy machine may stall the loop on its own as well.
    const warnings = logged.filter((e) => e.msg === 'event loop blocked');
    assert.ok(warnings.length >= 1, JSON.stringify(logged));
    for (const e of warnings) {
      assert.equal(e.level, 'warn');
      assert.deepEqual(
        Object.keys(e.fields ?? {}).sort(),
        ['blockedMs', 'thresholdMs', 'waitedForCpuMs'],
        'durations only',
      );
    }
    assert.ok(
      Math.max(...warnings.map((e) => Number(e.fields!.blockedMs))) >= 300,
      JSON.stringify(warnings),
    );
    const s = w.stats();
    assert.equal(s.blocks, warnings.length);
    assert.ok(s.longestBlockMs >= 300, `longest ${s.longestBlockMs}`);
    assert.ok(s.maxMs >= 300, `histogram max ${s.maxMs}`);
    assert.ok(s.samples > 0 && s.p50Ms <= s.p99Ms && s.p99Ms <= s.maxMs);
  } finally {
    w.stop();
  }
});

test('2. a stopped watchdog reports nothing', async () => {
  const logged: Entry[] = [];
  const w = new EventLoopWatchdog(50, (level, msg, fields) =>
    logged.push({ level, msg, fields }),
  ).start();
  w.stop();
  block(200);
  await sleep(100);
  assert.deepEqual(logged, []);
  assert.equal(w.stats().blocks, 0);
});

test('3. a tick late only because the process waited for a CPU is starved, not a block', async () => {
  const logged: Entry[] = [];
  let waited = 0;
  const w = new EventLoopWatchdog(
    100,
    (level, msg, fields) => logged.push({ level, msg, fields }),
    () => waited,
  ).start();
  try {
    await sleep(60);
    const end = performance.now() + 400;
    while (performance.now() < end) {
      /* late by 400 ms … */
    }
    waited += 60_000; // … all of it (simulated) spent waiting for a CPU
    await sleep(150);
    const s = w.stats();
    assert.equal(s.blocks, 0, JSON.stringify(logged));
    assert.ok(s.starved >= 1, JSON.stringify(logged));
    assert.ok(logged.some((e) => e.msg === 'event loop late: the process waited for a CPU'));
  } finally {
    w.stop();
  }
});
