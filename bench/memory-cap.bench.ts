/**
 * `npm run bench:memory-cap [-- --data-dir DIR --cap-mb M --queries N --connections C --direct --no-drop]`:
 * what memory a node really needs (issue 25). The real server runs inside a memory cgroup capped at M
 * MB (cgroup v1 `memory.limit_in_bytes` or v2 `memory.max`: both count the page cache the processes
 * read in, the index snapshot's mapped pages included), started as an operator starts it (`npm
 * start`; with `--direct`, its command alone, `node` as the systemd unit of docs/DEPLOYMENT.md runs
 * it, without npm's process), the page cache dropped first (a machine start) unless `--no-drop`
 * (then pages already cached stay charged to whoever read them first: the cap sees less of them).
 * A client outside the cgroup then sends 2 × N distinct SOAP 1.1 type-ahead queries (bench:typing's,
 * of the first 1,000,000 contacts' names), C at a time, and prints for the first N and the next N
 * the median, p99 and max, and the cgroup's memory: its processes' own (anonymous) pages, the page
 * cache it holds, and of that what is mapped. A cap below the working set shows as answers of tens
 * of milliseconds (pages read from the disk again and again), not as a crash. Needs root (it makes
 * the cgroup and drops the page cache); Linux only. Not a test.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { memoryCgroup } from './support/memory-cgroup.ts';
import { contactNames, distinctTypingQueries } from './support/typing.ts';
import { soap, statusAsker, typed } from './support/wire-load.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: join(root, '.tmp', 'bench-http') },
    'cap-mb': { type: 'string', default: '600' },
    queries: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '4' },
    port: { type: 'string', default: '18090' },
    direct: { type: 'boolean', default: false },
    'no-drop': { type: 'boolean', default: false },
  },
});
const dir = resolve(values['data-dir']!);
const capMb = Number(values['cap-mb']),
  n = Number(values.queries),
  conns = Number(values.connections),
  port = Number(values.port);
if (!(capMb > 0 && n > 0 && conns > 0)) {
  console.error('--cap-mb, --queries and --connections take positive numbers');
  process.exit(2);
}

const group = memoryCgroup(`bench-memory-cap-${process.pid}`, capMb);
const v2 = group.v2;
const MB = 1024 * 1024;
function memory(): string {
  const stat = group.read('memory.stat');
  const get = (k: string) => Number(stat.match(new RegExp(`^${k} (\\d+)`, 'm'))?.[1] ?? NaN) / MB;
  const [own, cache, mapped] = v2
    ? [get('anon'), get('file'), get('file_mapped')]
    : [get('rss'), get('cache'), get('mapped_file')];
  return `own ${own.toFixed(0)} MB, page cache ${cache.toFixed(0)} MB (mapped ${mapped.toFixed(0)} MB)`;
}

const queries = distinctTypingQueries(contactNames(join(dir, 'Demo.db'), 1_000_000)).slice(
  0,
  2 * n,
);
if (!values['no-drop']) {
  execFileSync('sync');
  writeFileSync('/proc/sys/vm/drop_caches', '1');
}
// --direct: `npm start`'s own command (its environment and flags), without npm's process above it.
const start = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start;
const command = values.direct ? start : 'npm start';
const server = spawn('sh', ['-c', `echo $$ > ${group.procs}; exec env ${command}`], {
  cwd: root,
  env: { ...process.env, CONTACT_SEARCH_DATA_DIR: dir, CONTACT_SEARCH_PORT: String(port) },
  stdio: 'ignore',
  detached: true,
});

const agent = new http.Agent({ keepAlive: true, maxSockets: conns });
const ask = statusAsker(port, agent);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

try {
  const t0 = performance.now();
  let exited = false;
  server.on('exit', () => (exited = true));
  while ((await ask('/healthz')) !== 200) {
    // A cap below what the open needs ends the server (the kernel's OOM killer), not the wait.
    if (exited)
      throw new Error(
        `the server exited before it was searchable (a ${capMb} MB cap too small to open?)`,
      );
    await sleep(50);
  }
  console.log(
    `${capMb} MB cap (cgroup ${v2 ? 'v2' : 'v1'}), ${command}: /healthz ok ${((performance.now() - t0) / 1000).toFixed(1)} s after the spawn`,
  );
  await sleep(30_000);
  console.log(`30 s after: ${memory()}`);
  for (const [from, name] of [
    [0, 'first'],
    [n, 'next'],
  ] as const) {
    const ms: number[] = [];
    let next = from,
      failed = 0;
    await Promise.all(
      Array.from({ length: conns }, async () => {
        while (next < from + n) {
          const r = soap('1.1', 'GetPredictiveOptionsSearchContacts', typed(queries[next++]));
          const t = performance.now();
          if ((await ask(r.path, r.method, r.headers, r.body)) !== 200) failed++;
          ms.push(performance.now() - t);
        }
      }),
    );
    ms.sort((a, b) => a - b);
    const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(2);
    console.log(
      `${name} ${n.toLocaleString('en')} distinct type-ahead queries, ${conns} at a time: median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${ms[ms.length - 1].toFixed(1)} ms, failed ${failed}; ${memory()}`,
    );
  }
  console.log(
    `Command: \`npm run bench:memory-cap -- --data-dir ${dir} --cap-mb ${capMb} --queries ${n} --connections ${conns}${values.direct ? ' --direct' : ''}${values['no-drop'] ? ' --no-drop' : ''}\``,
  );
} finally {
  agent.destroy();
  try {
    process.kill(-server.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
  while (group.read('cgroup.procs').trim()) await sleep(100);
  group.remove();
}
