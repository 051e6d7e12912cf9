/**
 * /metrics (CONTRACT §9, hang detection of issue "Security, limits and hostile input"). Properties checked:
 * 1. It answers the Prometheus text format without credentials, holding only counts and durations;
 *    the series of one process carry its worker label (0: a server of one process), prom-client's too.
 * 2. After a deliberate event loop block over `limits.eventLoopBlockMs`, the block counter and the
 *    max delay show it.
 * 3. The process's resident memory is split into its own pages and its mapped files as
 *    /proc/self/status says (Linux), the two adding up to prom-client's resident bytes.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { onCpuMs } from '../src/http/event-loop-watchdog.ts';
import { residentParts } from '../src/metrics/metrics.ts';
import { echoService } from './support/echo-service.ts';
import { scrape } from './support/metrics-text.ts';
import { startServer, type Running } from './support/server.ts';

let svc: Running;
before(async () => {
  svc = await startServer(echoService, {
    limits: { ...DEFAULT_LIMITS, eventLoopBlockMs: 100 },
    keys: [{ id: 'k', secret: 's', scopes: ['read'], databases: '*' }], // metrics stay public when keys are required
  });
});
after(async () => {
  await svc?.close();
});

const metrics = () => scrape(svc.base);

test('1. /metrics is public and in the Prometheus text format, the per-process series labelled by worker', async () => {
  const m = await metrics();
  for (const name of [
    'contact_search_event_loop_delay_max_seconds',
    'contact_search_event_loop_blocks_total',
    'contact_search_rate_limit_address_buckets',
    'contact_search_event_loop_longest_block_seconds',
  ])
    assert.equal(m.select(name, { worker: '0' }).length, 1, name);
  assert.equal(
    m.select('contact_search_event_loop_delay_seconds', { worker: '0', quantile: '0.99' }).length,
    1,
  );
  assert.equal(m.types.get('contact_search_event_loop_delay_seconds'), 'summary');
  assert.equal(m.types.get('contact_search_event_loop_blocks_total'), 'counter');
  // prom-client's process metrics, for this process
  assert.ok(m.one('process_cpu_user_seconds_total', { worker: '0' }) > 0);
  assert.ok(m.one('nodejs_heap_size_used_bytes', { worker: '0' }) > 1e6);
});

test('2. a deliberate block shows in the block counter and the max delay', async () => {
  const blocksBefore = (await metrics()).one('contact_search_event_loop_blocks_total');
  await sleep(60);
  const end = onCpuMs() + 400; // CPU time: time waiting for a CPU on a busy machine is not counted as a block
  while (onCpuMs() < end) {
    /* block the loop */
  }
  await sleep(150);
  const m = await metrics();
  assert.ok(
    m.one('contact_search_event_loop_blocks_total') >= blocksBefore + 1,
    'counted (a busy machine may add stalls of its own)',
  );
  assert.ok(
    m.one('contact_search_event_loop_delay_max_seconds') >= 0.1,
    String(m.one('contact_search_event_loop_delay_max_seconds')),
  );
  assert.ok(m.one('contact_search_event_loop_longest_block_seconds') >= 0.1);
});

test('3. resident memory split into own pages and mapped files', async (t) => {
  // The parse, on a status text as Linux writes it.
  const status =
    'VmRSS:\t    3072 kB\nRssAnon:\t    1000 kB\nRssFile:\t    2048 kB\nRssShmem:\t      24 kB\n';
  assert.deepEqual(residentParts(status), { own: 1024 * 1024, files: 2048 * 1024 });
  assert.equal(residentParts('VmRSS:\t    3072 kB\n'), undefined);
  if (process.platform !== 'linux') {
    t.skip('the scrape: Linux only (/proc/self/status)');
    return;
  }
  const m = await metrics();
  const own = m.one('contact_search_process_resident_bytes', { worker: '0', kind: 'own' }),
    files = m.one('contact_search_process_resident_bytes', { worker: '0', kind: 'files' }),
    rss = m.one('process_resident_memory_bytes', { worker: '0' });
  assert.ok(own > 1e6 && files > 1e6, `own ${own}, files ${files}`);
  // Read moments apart in one scrape: within a tenth of each other.
  assert.ok(Math.abs(own + files - rss) < rss * 0.1, `own ${own} + files ${files} against ${rss}`);
});
