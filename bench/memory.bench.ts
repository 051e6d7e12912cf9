/**
 * `npm run bench:memory [-- --data-dir DIR --typing N --settle W]`: opens the Demo database of DIR (default
 * bench:http's 1M database, .tmp/bench-http) the way the server does, then prints the open time, the
 * process's RSS and heap after 5 and 30 s (V8 shrinks its heap a little after a build), and the
 * biggest typed arrays the index holds. With `--typing N`, then times N of bench:typing's distinct
 * typing queries (those of the first 1,000,000 contacts' names) in the same process (GetPredictiveOptionsSearchContacts, Limit 10, result cache
 * off; made before the open, so their making is not in the RSS) and prints their median, p99 and the
 * RSS after: the figures of a 10M node (docs/PERFORMANCE.md "Memory"), and how much of each array of
 * the mapped index snapshot the process then holds (what those queries touched, read from
 * /proc/self/smaps: the pages a 4 GiB memory cap must keep). With `--settle W`, W other distinct
 * queries are asked first and timed apart: a node that has served a while, its working set paged in
 * (under a memory cap with the page cache dropped, the first queries wait on the disk). Run through
 * the npm script: it sets MALLOC_MMAP_THRESHOLD_ like `npm start`. Not a test.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { IndexedContactDatabase } from '../src/database/contact-database.ts';
import { registryOf } from '../src/database/registry.ts';
import { createService } from '../src/service/index.ts';
import { snapshotOf } from '../src/database/snapshot.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import {
  contactNames,
  distinctTypingQueries,
  sampleContacts,
  typingSessions,
} from './support/typing.ts';
import { typeAhead } from './support/type-ahead.ts';
import { imageHeldHere } from './support/image-held.ts';
import { procStatus, statusBytes } from './support/proc-status.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: join(root, '.tmp', 'bench-http') },
    typing: { type: 'string', default: '0' },
    settle: { type: 'string', default: '0' },
  },
});
const mb = (n: number) => `${Math.round(n / 1048576)} MB`;
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
/**
 * RSS in its two parts (Linux): the process's own pages, and the pages of files it maps that are in
 * memory (the index image's, io/file-map.ts: the kernel's page cache, shared, given back under pressure).
 */
const rssParts = () => {
  const status = procStatus('self');
  if (!status) return '';
  return ` (own ${mb(statusBytes(status, 'RssAnon'))}, mapped files ${mb(statusBytes(status, 'RssFile'))})`;
};
console.log(`start: ${uptime()}`);
const typingCount = Number(values.typing),
  settleCount = typingCount > 0 ? Number(values.settle) : 0;
if (!(typingCount >= 0 && settleCount >= 0)) {
  console.error('--typing and --settle take a count of queries');
  process.exit(2);
}
const dbFile = join(resolve(values['data-dir']!), 'Demo.db');
// The distinct typing queries of the first 1M contacts' names (all of them at 1M): at 10M, making
// the queries of every name took longer than the open.
const queries =
  typingCount > 0
    ? distinctTypingQueries(contactNames(dbFile, 1_000_000)).slice(0, settleCount + typingCount)
    : [];
const warmUp = typingCount > 0 ? typingSessions(sampleContacts(dbFile)) : [];
global.gc?.();
const t0 = performance.now();
const store = openSqliteStore(join(resolve(values['data-dir']!), 'Demo.db'));
const snapshotFile = snapshotOf(store)?.file;
const db = await IndexedContactDatabase.open('Demo', store);
console.log(
  `${db.size.toLocaleString('en')} contacts opened (loaded and indexed) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
for (const wait of [5, 25]) {
  await new Promise((r) => setTimeout(r, wait * 1000));
  global.gc?.();
  const u = process.memoryUsage();
  console.log(
    `after ${wait === 5 ? 5 : 30} s: RSS ${mb(u.rss)}${rssParts()}, JS heap used ${mb(u.heapUsed)} of ${mb(u.heapTotal)}, array buffers ${mb(u.arrayBuffers)}`,
  );
}
// The typed arrays reachable from the index, biggest first.
const seen = new Set<ArrayBufferLike>();
const parts: [string, number][] = [];
const walk = (o: unknown, path: string, depth: number): void => {
  if (!o || typeof o !== 'object' || depth > 6) return;
  if (ArrayBuffer.isView(o)) {
    if (!seen.has(o.buffer)) {
      seen.add(o.buffer);
      parts.push([path, o.buffer.byteLength]);
    }
    return;
  }
  if (o instanceof Map) return;
  if (Array.isArray(o)) {
    if (o.length < 100) o.forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1));
    return;
  }
  for (const [k, v] of Object.entries(o)) walk(v, `${path}.${k}`, depth + 1);
};
walk(db.index, 'index', 0);
console.log(`typed arrays of the index: ${mb(parts.reduce((n, [, b]) => n + b, 0))}; biggest:`);
for (const [p, b] of parts.sort((x, y) => y[1] - x[1]).slice(0, 12))
  console.log(
    `  ${p.replace(/columns\[(\d+)\]/, (_, i) => `columns[${db.index.table.columns[Number(i)].field.name}]`)} ${mb(b)}`,
  );
if (queries.length) {
  const service = createService({
    databases: registryOf(new Map([['demo', db]])),
    limits: { ...DEFAULT_LIMITS, resultCacheEntries: 0 },
  });
  const typed = typeAhead(service);
  const ask = async (Text: string) => (await typed(Text))[0];
  for (const q of warmUp) await ask(q);
  const timed = async (from: number, to: number, what: string) => {
    const ms = new Float64Array(to - from);
    for (let i = from; i < to; i++) ms[i - from] = await ask(queries[i]);
    ms.sort();
    const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
    const u = process.memoryUsage();
    console.log(
      `${ms.length.toLocaleString('en')} distinct typing queries${what}: median ${(at(0.5) * 1000).toFixed(0)} µs, p90 ${at(0.9).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms, max ${ms[ms.length - 1].toFixed(1)} ms; RSS after ${mb(u.rss)}${rssParts()}`,
    );
  };
  if (settleCount > 0) await timed(0, settleCount, ' first (settling)');
  await timed(settleCount, queries.length, settleCount > 0 ? ' after them' : '');
  const held = snapshotFile ? imageHeldHere(snapshotFile) : [];
  if (held.length) {
    console.log(
      `of the mapped snapshot, held after them: ${mb(held.reduce((n, a) => n + a.held, 0))}; biggest:`,
    );
    for (const a of held.slice(0, 12))
      console.log(
        `  ${a.name} ${mb(a.held)} of ${mb(a.size)} (${Math.round((100 * a.held) / Math.max(1, a.size))}%)`,
      );
  }
}
console.log(`end: ${uptime()}`);
await db.close();
