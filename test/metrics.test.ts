/**
 * /metrics (CONTRACT §9, hang detection of issue "Security, limits and hostile input"). Properties checked:
 * 1. It answers the Prometheus text format without credentials, holding only counts and durations.
 * 2. After a deliberate event loop block over `limits.eventLoopBlockMs`, the block counter and the
 *    max delay show it.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { onCpuMs } from '../src/http/event-loop-watchdog.ts';
import { echoService } from './support/echo-service.ts';
import { startServer, type Running } from './support/server.ts';

let svc: Running;
before(async () => {
  svc = await startServer(echoService, {
    limits: { ...DEFAULT_LIMITS, eventLoopBlockMs: 100 },
    keys: [{ id: 'k', secret: 's', scopes: ['read'], databases: '*' }], // metrics stay public when keys are required
  });
});
after(async () => { await svc?.close(); });

async function metrics(): Promise<Map<string, number>> {
  const r = await fetch(`${svc.base}/metrics`);
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const values = new Map<string, number>();
  for (const line of (await r.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [name, value] = line.split(' ');
    assert.ok(Number.isFinite(Number(value)), line);
    values.set(name, Number(value));
  }
  return values;
}

test('1. /metrics is public and in the Prometheus text format', async () => {
  const m = await metrics();
  for (const name of ['contact_search_event_loop_delay_seconds{quantile="0.99"}', 'contact_search_event_loop_delay_max_seconds',
    'contact_search_event_loop_blocks_total', 'contact_search_rate_limit_address_buckets']) assert.ok(m.has(name), name);
  assert.equal(m.get('contact_search_worker'), 0, 'a server of one process');
});

test('2. a deliberate block shows in the block counter and the max delay', async () => {
  const blocksBefore = (await metrics()).get('contact_search_event_loop_blocks_total')!;
  await sleep(60);
  const end = onCpuMs() + 400; // CPU time: time waiting for a CPU on a busy machine is not counted as a block
  while (onCpuMs() < end) { /* block the loop */ }
  await sleep(150);
  const m = await metrics();
  assert.ok(m.get('contact_search_event_loop_blocks_total')! >= blocksBefore + 1, 'counted (a busy machine may add stalls of its own)');
  assert.ok(m.get('contact_search_event_loop_delay_max_seconds')! >= 0.1, String(m.get('contact_search_event_loop_delay_max_seconds')));
  assert.ok(m.get('contact_search_event_loop_longest_block_seconds')! >= 0.1);
});
