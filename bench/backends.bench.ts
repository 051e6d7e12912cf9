/**
 * `npm run bench:backends [-- --count N --backend sqlite|postgres|both]`: the same N demo contacts on
 * SQLite and on PostgreSQL (postgres://postgres@127.0.0.1:5432/test, or CONTACT_SEARCH_TEST_PG_URL;
 * schema contacts_bench), side by side. For each backend, in a process of its own: the CSV of
 * bench:import through the import CLI into a fresh database (wall, importer peak RSS); start-up
 * (`openDatabase`: the whole store read and indexed; wall and RSS after); the typing sessions of
 * bench:typing (in-process, no result cache; mean, p50, p99); bench:faceted's 100 faceted requests
 * (one warm round, five timed). Not a test.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DEFAULT_LIMITS, type DatabaseConfig } from '../src/config.ts';
import { createService } from '../src/service/index.ts';
import type { Contact } from '../src/fields/contact.ts';
import { openDatabase, registryOf } from '../src/database/registry.ts';
import { demoCsv } from './support/csv.ts';
import { facetedSearches, typingSessions } from './support/typing.ts';
import { runImportCli } from './support/import-cli.ts';
import { RUN_TS } from '../src/boot/run-ts.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000000' },
    backend: { type: 'string', default: 'both' },
  },
});
const count = Number(values.count);
const root = resolve(import.meta.dirname, '..');
const dir = join(root, '.tmp', 'bench-backends');
const url = process.env.CONTACT_SEARCH_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'contacts_bench';

if (values.backend === 'both') {
  await demoCsv(join(root, '.tmp', 'bench-import'), count);
  for (const backend of ['sqlite', 'postgres']) {
    const r = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        ...RUN_TS,
        'bench/backends.bench.ts',
        '--count',
        String(count),
        '--backend',
        backend,
      ],
      { cwd: root, stdio: 'inherit', env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' } },
    );
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  process.exit(0);
}

const backend = values.backend as 'sqlite' | 'postgres';
const database: DatabaseConfig =
  backend === 'sqlite' ? { name: 'Demo', backend } : { name: 'Demo', backend, url, schema: SCHEMA };
const data = join(dir, 'data');
const config = join(dir, `${backend}.json`);
rmSync(data, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
writeFileSync(config, JSON.stringify({ dataDir: data, databases: [database] }));
if (backend === 'postgres') {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
  await c.end();
}
const line = (what: string, text: string) =>
  console.log(`${backend.padEnd(8)} ${what.padEnd(10)} ${text}`);
const rssMb = () =>
  Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024,
  );

// Import: the CLI, as an operator loads a file.
const csv = await demoCsv(join(root, '.tmp', 'bench-import'), count);
let t = performance.now();
const {
  code,
  report,
  peakMb: peak,
} = await runImportCli(root, csv, { CONTACT_SEARCH_CONFIG: config });
if (code !== 0) throw new Error(`import failed: ${report.slice(-500)}`);
line(
  'import',
  `${count.toLocaleString('en')} rows: ${((performance.now() - t) / 1000).toFixed(1)} s wall, importer peak RSS ${Math.round(peak)} MB`,
);

// Start-up: read everything from the store and index it, as a node does before it listens.
t = performance.now();
const db = await openDatabase(
  database,
  data,
  () => {},
  () => {},
  false,
);
const startS = (performance.now() - t) / 1000;
(globalThis as { gc?: () => void }).gc?.();
line(
  'start-up',
  `${db.size.toLocaleString('en')} contacts indexed in ${startS.toFixed(1)} s, RSS ${rssMb()} MB`,
);

const service = createService({
  databases: registryOf(new Map([['demo', db]])),
  limits: { ...DEFAULT_LIMITS, resultCacheEntries: 0 },
});
// bench:typing's sample (300 contacts spread over the ids), read from the index so both backends get the same.
const sample = Array.from({ length: 300 }, (_, i) =>
  db.get(`C${String(1 + Math.floor((i * db.size) / 300)).padStart(7, '0')}`),
).filter((c): c is Contact => c !== undefined);
const stats = (ms: number[]) => {
  ms.sort((a, b) => a - b);
  const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
  return `mean ${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(3)} ms, p50 ${at(0.5).toFixed(3)}, p99 ${at(0.99).toFixed(3)}, max ${ms[ms.length - 1].toFixed(2)}`;
};
async function timed(calls: (() => Promise<unknown>)[], rounds: number): Promise<number[]> {
  for (const call of calls) await call(); // warm
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++)
    for (const call of calls) {
      const s = performance.now();
      await call();
      ms.push(performance.now() - s);
    }
  return ms;
}
const typing = typingSessions(sample).map(
  (Text) => () =>
    service.invoke({
      op: 'GetPredictiveOptionsSearchContacts',
      StringOfJSONParameters: JSON.stringify({ Text, Limit: 10 }),
      DBName: 'Demo',
      AsType: 'JSON',
      caller: { binding: 'soap11', loopback: true },
    }),
);
line('type-ahead', `${typing.length} queries: ${stats(await timed(typing, 1))}`);
const faceted = facetedSearches(sample).map(
  (p) => () =>
    service.invoke({
      op: 'GetSearchResults',
      StringOfJSONParameters: JSON.stringify(p),
      DBName: 'Demo',
      AsType: 'JSON',
      caller: { binding: 'json', loopback: true },
    }),
);
line('faceted', `${faceted.length} requests x 5: ${stats(await timed(faceted, 5))}`);
await db.close();
if (backend === 'sqlite') rmSync(data, { recursive: true, force: true });
process.exit(0);
