/**
 * `npm run bench:memory [-- --data-dir DIR]`: opens the Demo database of DIR (default bench:http's
 * 1M database, .tmp/bench-http) the way the server does, then prints the open time, the process's RSS
 * and heap after 5 and 30 s (V8 shrinks its heap a little after a build), and the biggest typed arrays
 * the index holds. Run through the npm script: it sets MALLOC_MMAP_THRESHOLD_ like `npm start`. Not a test.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { IndexedContactDatabase } from '../src/database/contact-database.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { 'data-dir': { type: 'string', default: join(root, '.tmp', 'bench-http') } },
});
const mb = (n: number) => `${Math.round(n / 1048576)} MB`;
const t0 = performance.now();
const db = await IndexedContactDatabase.open(
  'Demo',
  openSqliteStore(join(resolve(values['data-dir']!), 'Demo.db')),
);
console.log(
  `${db.size.toLocaleString('en')} contacts opened (loaded and indexed) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
for (const wait of [5, 25]) {
  await new Promise((r) => setTimeout(r, wait * 1000));
  global.gc?.();
  const u = process.memoryUsage();
  console.log(
    `after ${wait === 5 ? 5 : 30} s: RSS ${mb(u.rss)}, JS heap used ${mb(u.heapUsed)} of ${mb(u.heapTotal)}, array buffers ${mb(u.arrayBuffers)}`,
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
await db.close();
