/**
 * `npm run bench:import-latency -- --data-dir DIR [--rows 30000 --every 20 --src ROOT]`: type-ahead
 * while a big write lands. Opens DIR/Demo.db (WRITTEN TO: use a copy), then upserts `rows` new
 * generated contacts in one write (an import's size: the index rebuilds) while a type-ahead request
 * is due every `every` ms. A request's latency counts from when it was due, so time the event loop
 * was held counts too. Prints the open time, the write's time, and the latency median, p90, p99 and
 * max over the requests due while the write ran; then RSS before and after the write, its own and its
 * mapped files' parts (Linux), each after a full collection, and `--idle S` seconds later (35: the
 * write thread's idle end, write-thread.ts; 0: not waited). `--src` runs another checkout's code
 * (the "before" of a comparison: `--src /work/main`).
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { contactNames, distinctTypingQueries } from './support/typing.ts';
import { procStatus, statusBytes } from './support/proc-status.ts';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    rows: { type: 'string', default: '30000' },
    every: { type: 'string', default: '20' },
    idle: { type: 'string', default: '35' },
    src: { type: 'string', default: resolve(import.meta.dirname, '..') },
  },
});
if (!values['data-dir']) {
  console.error('--data-dir DIR (a copy of a Demo.db folder: the run writes to it)');
  process.exit(2);
}
const dir = resolve(values['data-dir']);
const src = resolve(values.src!);
const rows = Number(values.rows),
  every = Number(values.every);
const { openDatabase, registryOf } = await import(join(src, 'src/database/registry.ts'));
const { createService } = await import(join(src, 'src/service/index.ts'));
const { DEFAULT_LIMITS } = await import(join(src, 'src/config.ts'));
const { generateContacts } = await import(join(src, 'src/demo/generate.ts'));

console.log(`start: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}; code: ${src}`);
// The first 100,000 contacts' names make the 20,000 queries (at 10M, every name's took longer than the open).
const queries = distinctTypingQueries(contactNames(join(dir, 'Demo.db'), 100_000)).slice(0, 20_000);
const t0 = performance.now();
const db = await openDatabase({ name: 'Demo', backend: 'sqlite' }, dir);
console.log(`${db.size} contacts opened in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const service = createService({
  databases: registryOf(new Map([['demo', db]])),
  limits: { ...DEFAULT_LIMITS, resultCacheEntries: 0 },
});
const ask = (Text: string) =>
  service.invoke({
    op: 'GetPredictiveOptionsSearchContacts',
    StringOfJSONParameters: JSON.stringify({ Text, Limit: 10 }),
    DBName: 'Demo',
    AsType: 'JSON',
    caller: { binding: 'soap11', loopback: true },
  });
for (const q of queries.slice(0, 2000)) await ask(q); // warm-up
/**
 * RSS, and (Linux) its anonymous part (the process's own) and its file pages (a mapped snapshot's),
 * after a full collection (the npm script passes --expose-gc): what the write left, not its garbage.
 */
function rss(): string {
  global.gc?.();
  const heap = `JS heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`;
  const total = `${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`;
  const status = procStatus('self');
  if (!status) return `${total}, ${heap}`;
  const mb = (k: string) => (statusBytes(status, k) / 2 ** 20).toFixed(0);
  const threads = /Threads:\s+(\d+)/.exec(status)?.[1];
  return `${total} (own ${mb('RssAnon')}, mapped files ${mb('RssFile')}; ${heap}; ${threads} threads)`;
}
const before = rss();

const stamp = Date.now().toString(36);
const fresh = [...generateContacts({ count: rows, seed: 99 })]
  .flat()
  .slice(0, rows)
  .map((c, i) => ({ ...c, ContactId: `imp-${stamp}-${i}` }));
let writing = true;
const w0 = performance.now();
const write = db.write({ upsert: fresh }).finally(() => (writing = false));
const latencies: number[] = [];
let k = 0;
while (writing) {
  const due = w0 + latencies.length * every;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  await ask(queries[k++ % queries.length]);
  latencies.push(performance.now() - due);
}
await write;
const seconds = (performance.now() - w0) / 1000;
latencies.sort((a, b) => a - b);
const at = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
console.log(
  `write of ${rows} contacts: ${seconds.toFixed(1)} s; ${db.size} contacts after; ` +
    `type-ahead meanwhile (${latencies.length} requests due every ${every} ms): ` +
    `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)}, p99 ${at(0.99).toFixed(1)}, max ${latencies[latencies.length - 1].toFixed(0)} ms`,
);
console.log(`RSS before the write ${before}, after ${rss()}`);
const idle = Number(values.idle);
if (idle > 0) {
  await new Promise((r) => setTimeout(r, idle * 1000));
  console.log(`RSS ${idle} s after the write ${rss()}`);
}
await db.close();
