/**
 * `npm run bench:image-residency [-- --data-dir DIR --queries N --warm-up N --top K]`: which of the
 * index snapshot's arrays a running server holds in memory (issue 25: ≤ 450 MB for 1M; the
 * snapshot's mapped pages are most of a settled node's RSS). Starts the real server (`npm start`) on
 * DIR (its Demo database and snapshot; default bench:http's), waits for /healthz ok and 10 s more,
 * then drops the page cache (`echo 1 > /proc/sys/vm/drop_caches`: it drops only pages no process
 * maps, so what stays of the snapshot is what the server maps and has touched), and counts each
 * array's resident bytes (mincore over a mapping of the file here, native/file-map); then sends N
 * (2,000) distinct SOAP 1.1 type-ahead queries (bench:typing's), 4 at a time, drops again and counts
 * again. `--warm-up N`: the server's limits.warmUpQueries (its default unless given; 0: none, to see
 * what the open alone touches). Prints the K (20) arrays holding the most, with their sizes. Needs
 * root (the drop) and the addon built; Linux only. Not a test.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FILE_MAP, mapBytes, residentBytes } from '../src/io/file-map.ts';
import { imagePlaces } from '../src/search/index/image-file.ts';
import { contactNames, distinctTypingQueries } from './support/typing.ts';
import { procStatus, statusBytes } from './support/proc-status.ts';
import { soap, statusAsker, typed } from './support/wire-load.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: join(root, '.tmp', 'bench-http') },
    queries: { type: 'string', default: '2000' },
    'warm-up': { type: 'string' },
    top: { type: 'string', default: '20' },
    port: { type: 'string', default: '8096' },
  },
});
const dir = resolve(values['data-dir']!),
  n = Number(values.queries),
  top = Number(values.top),
  port = Number(values.port);
const file = join(dir, 'Demo.db.index');
if (!FILE_MAP.built) {
  console.error('native/file-map is not built (npm install builds it): nothing to count with');
  process.exit(2);
}

/** Each array's name in the image header (the keys that hold an array's number). */
function arrayNames(header: unknown): Map<number, string> {
  const names = new Map<number, string>();
  const ARRAY_KEYS =
    /^(bytes|blocks|cLo|cHi|cBase|cGapLo|cGapHi|post|entOff|entTerm|entSteps|spans|rel|marks|all|ids|offs|ends|times|rank|sorted|slots|hashes)$/;
  const walk = (o: unknown, path: string[]) => {
    if (Array.isArray(o)) o.forEach((v, i) => walk(v, [...path, String(i)]));
    else if (o && typeof o === 'object') {
      const field = (o as { field?: string }).field;
      for (const [k, v] of Object.entries(o)) {
        const at = field ? [...path.slice(0, -2), `${path.at(-2)}[${field}]`, k] : [...path, k];
        walk(v, at);
      }
    } else if (typeof o === 'number' && ARRAY_KEYS.test(path.at(-1) ?? ''))
      names.set(o, path.join('.'));
  };
  walk(header, []);
  return names;
}

/** The snapshot as the server opened it (mapped once it is searchable: a start may write a new one). */
function mapSnapshot() {
  const { header, places } = imagePlaces(file);
  const fd = openSync(file, 'r');
  const whole = mapBytes(fd, 0, statSync(file).size);
  closeSync(fd);
  return { names: arrayNames(header), places, whole };
}

function count({ names, places, whole }: ReturnType<typeof mapSnapshot>, label: string): void {
  const rows = places
    .map((p, i) => ({
      name: names.get(i) ?? `#${i}`,
      bytes: p.bytes,
      held: p.bytes > 0 ? residentBytes(whole.subarray(p.offset, p.offset + p.bytes)) : 0,
    }))
    .sort((a, b) => b.held - a.held);
  const mb = (x: number) => (x / 1048576).toFixed(1);
  const held = rows.reduce((s, r) => s + r.held, 0);
  console.log(
    `\n${label}: ${mb(held)} MB of the ${mb(whole.length)} MB snapshot held; ${serverHolds()}\n`,
  );
  console.log('| array | held MB | size MB |\n|---|---|---|');
  for (const r of rows.slice(0, top)) console.log(`| ${r.name} | ${mb(r.held)} | ${mb(r.bytes)} |`);
}

/**
 * What the server process itself holds: its RSS, its own (anonymous) part and the Rss of its mappings
 * of the snapshot, from /proc/PID/smaps of the process mapping the file (not this one). The page cache
 * can hold more of the file than that (a large folio stays whole while any page of it is mapped).
 */
function serverHolds(): string {
  for (const pid of readdirSync('/proc').filter(
    (d) => /^\d+$/.test(d) && Number(d) !== process.pid,
  )) {
    let smaps: string;
    try {
      smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
    } catch {
      continue;
    }
    if (!smaps.includes(file)) continue;
    let mapped = 0,
      inFile = false;
    for (const line of smaps.split('\n')) {
      if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inFile = line.endsWith(file);
      else if (inFile && line.startsWith('Rss:')) mapped += Number(line.split(/\s+/)[1]) * 1024;
    }
    const status = procStatus(Number(pid));
    const mb = (x: number) => (x / 1048576).toFixed(0);
    const threads = /^Threads:\s+(\d+)/m.exec(status)?.[1];
    return `the server process ${pid}: RSS ${mb(statusBytes(status, 'VmRSS'))} MB (own ${mb(statusBytes(status, 'RssAnon'))}, the snapshot's pages it maps ${mb(mapped)}; ${threads} threads)`;
  }
  return 'the server process: not found';
}

const drop = () => {
  execFileSync('sync');
  writeFileSync('/proc/sys/vm/drop_caches', '1');
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const config = mkdtempSync(join(tmpdir(), 'residency-'));
const env: Record<string, string> = {
  CONTACT_SEARCH_DATA_DIR: dir,
  CONTACT_SEARCH_PORT: String(port),
  CONTACT_SEARCH_WORKERS: '1',
};
if (values['warm-up'] !== undefined) {
  writeFileSync(
    join(config, 'limits.json'),
    JSON.stringify({ limits: { warmUpQueries: Number(values['warm-up']) } }),
  );
  env.CONTACT_SEARCH_CONFIG = join(config, 'limits.json');
}
const queries = distinctTypingQueries(contactNames(join(dir, 'Demo.db'), 1_000_000)).slice(0, n);
const server = spawn('npm', ['start'], {
  cwd: root,
  env: { ...process.env, ...env },
  stdio: 'ignore',
  detached: true,
});
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const ask = statusAsker(port, agent);
try {
  while ((await ask('/healthz')) !== 200) await sleep(50);
  await sleep(10_000);
  const snapshot = mapSnapshot();
  drop();
  count(
    snapshot,
    `10 s after /healthz ok (warm-up queries: ${values['warm-up'] ?? 'the default'})`,
  );
  let next = 0,
    failed = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < queries.length) {
        const r = soap('1.1', 'GetPredictiveOptionsSearchContacts', typed(queries[next++]));
        if ((await ask(r.path, r.method, r.headers, r.body)) !== 200) failed++;
      }
    }),
  );
  drop();
  count(
    snapshot,
    `after ${queries.length.toLocaleString('en')} distinct type-ahead queries (${failed} failed)`,
  );
  // Issue 25's figure is the node once settled: the same 60 s after the last answer, and later.
  let waited = 0;
  for (const s of [60, 90, 120]) {
    await sleep((s - waited) * 1000);
    waited = s;
    console.log(`\n${s} s after the last answer: ${serverHolds()}`);
  }
  console.log(
    `\nCommand: \`npm run bench:image-residency -- --data-dir ${dir} --queries ${n}${values['warm-up'] !== undefined ? ` --warm-up ${values['warm-up']}` : ''}\``,
  );
} finally {
  agent.destroy();
  try {
    process.kill(-server.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
  rmSync(config, { recursive: true, force: true });
}
process.exit(0);
