/**
 * `npm run bench:live [-- --data-dir DIR --count N --import N --rate R --before S --warm-up N --keep]`: the server
 * live, as after a deploy (issue 25). Generates DIR/Demo.db (N contacts, 1,000,000 by default) once if
 * it holds fewer, copies it to a temporary folder and starts the real server there (one process), then:
 * 1. times, from the spawn, the port open (a TCP connect succeeds) and /healthz 200 (every database
 *    searchable);
 * 2. sends steady type-ahead traffic: R (20) SOAP 1.1 GetPredictiveOptionsSearchContacts a second,
 *    each the next of the database's distinct typing queries (bench/support/typing.ts, a result-cache
 *    miss), sent on schedule whatever the answers (so a blocked server shows in the latencies);
 * 3. after S (15) seconds of it, imports `--import` (100,000) generated contacts with new ids through
 *    the import CLI (`npm run import`, what an operator does with a file that size; the running server
 *    hears of it through the change feed), the last with a unique last name; with `--via wire`, as
 *    one ProcessRequest ImportContacts (JSON binding, the CSV as Content) to the server itself; with
 *    `--via soap`, the same over SOAP 1.1 (what the SOAP toolkits send);
 * 4. after the import's commit (the CLI prints its summary; over the wire: its answer, which comes
 *    once the contacts are searchable), searches for that name every 100 ms until found. Over the
 *    wire the request budget (limits.requestMs) is raised to 10 minutes: 100,000 rows outrun the
 *    default 30 s on a loaded machine.
 * Prints the two times, then the type-ahead's median, p99, max and the count over 100 and 200 ms
 * before the import, while the CLI ran, and from its commit until the contact was found; the import's
 * wall time; commit → found; and the server's largest RSS in each of those phases (Linux). The copy
 * is deleted at the end unless --keep. With `--watch-ms N` the server's event-loop watchdog logs
 * (stderr) every block or CPU wait over N ms (limits.eventLoopBlockMs).
 * The traffic's first 3 s after /healthz ok get a row of their own (a restarted node's first users);
 * `--warm-up N` sets the server's limits.warmUpQueries (service/warm-up.ts; 0 turns it off).
 * With `--after S` the traffic goes on S seconds after the contact is found (at 1M the full build
 * queued behind the segment runs and swaps in meanwhile: its own row), then the server's RSS as it
 * settled is printed, the process's own and its mapped files' (the index image, io/file-map.ts).
 * With `--cap-mb M` the server runs in a memory cgroup capped at M MB (v1 `memory.limit_in_bytes`, v2
 * `memory.max`; both count the page cache; root, Linux), as a container's limit holds it: the end
 * prints whether the index compaction was put off for want of room (`/metrics`), the cgroup's peak
 * and its OOM kills; a server the kernel kills ends the run with that count.
 * With `--profile DIR` the server runs with `--cpu-prof` into DIR (stopped with SIGTERM at the end so
 * it writes the profile) and the answers over 50 ms are listed with their time since the spawn, to
 * find them in the profile's timeline.
 * The copy is made in one folder, DIR/live-run, each run: the index snapshot the first run's server
 * writes there (a 1M build is one to two minutes) is kept as DIR/live-run.<code>.index (per index
 * code version, src/search/index/version.ts) and put beside the
 * next run's copy, which the server then opens from (it checks the snapshot as always: a stale one,
 * after a change to the index code, is refused and rebuilt, and the new one kept). `--fresh` builds.
 */
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  statSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultConfig } from '../src/config.ts';
import { generateContacts } from '../src/demo/generate.ts';
import { FIELDS } from '../src/fields/schema.ts';
import { indexCodeVersion } from '../src/search/index/version.ts';
import { writeCsv } from '../src/io/csv.ts';
import { operation, requestNamespace, soapAction } from '../src/operations/table.ts';
import { CONTENT_TYPE, SOAP11_NS, XML_DECL } from '../src/protocol/constants.ts';
import { escapeText } from '../src/render/xml.ts';
import { runImportCli } from './support/import-cli.ts';
import { memoryCgroup } from './support/memory-cgroup.ts';
import { contactNames, distinctTypingQueries } from './support/typing.ts';
import { contactsIn, ensureDemo } from './support/demo-db.ts';
import { SERVER_ENV, serverArgs } from './support/server-process.ts';
import { procStatus, statusBytes } from './support/proc-status.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: join(root, '.tmp', 'bench-http') },
    count: { type: 'string', default: '1000000' },
    import: { type: 'string', default: '100000' },
    rate: { type: 'string', default: '20' },
    before: { type: 'string', default: '15' },
    keep: { type: 'boolean', default: false },
    via: { type: 'string', default: 'cli' },
    fresh: { type: 'boolean', default: false },
    'watch-ms': { type: 'string' },
    /** The server's limits.warmUpQueries (its default unless given; 0: no warm-up). */
    'warm-up': { type: 'string' },
    profile: { type: 'string' },
    after: { type: 'string', default: '0' },
    'cap-mb': { type: 'string' },
  },
});
const count = Number(values.count),
  imported = Number(values.import),
  rate = Number(values.rate),
  beforeS = Number(values.before);
if (
  !(count > 0 && imported > 0 && rate > 0 && beforeS >= 0) ||
  !['cli', 'wire', 'soap'].includes(values.via!)
) {
  console.error(
    '--count, --import and --rate take positive numbers, --before seconds, --via cli, wire or soap',
  );
  process.exit(2);
}
const dataDir = resolve(values['data-dir']!);
const source = join(dataDir, 'Demo.db');
const since = (t: number) => performance.now() - t;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

ensureDemo(dataDir, count, root);
// A fixed folder: a snapshot names the store file it indexes, so the kept one fits only the same path.
const work = join(dataDir, 'live-run');
// One kept per index code version: checkouts compared in turn (A/B) each keep theirs.
const keptSnapshot = `${work}.${(indexCodeVersion() ?? 'unknown').slice(0, 12)}.index`;
rmSync(work, { recursive: true, force: true });
mkdirSync(work);
copyFileSync(source, join(work, 'Demo.db'));
if (!values.fresh && existsSync(keptSnapshot))
  copyFileSync(keptSnapshot, join(work, 'Demo.db.index'));
const size = contactsIn(join(work, 'Demo.db'));
const queries = distinctTypingQueries(contactNames(join(work, 'Demo.db')));

// The file to import: new ids after the database's, the last one with a name no other contact has.
// Letters only: a name's digits are a token of their own, and the type-ahead looks for the whole marker.
const marker = `Livebench${[...String(process.pid)].map((d) => 'abcdefghij'[Number(d)]).join('')}`;
const csv = join(work, `import-${imported}.csv`);
{
  const out = createWriteStream(csv);
  const fields = FIELDS.filter((f) => !f.readOnly);
  let first = true,
    done = 0;
  for (const batch of generateContacts({ count: imported, seed: 25, startAt: size + 1 }, 20_000)) {
    done += batch.length;
    if (done === imported) batch[batch.length - 1] = { ...batch.at(-1)!, LastName: marker };
    const text = writeCsv(batch, fields);
    out.write(first ? text : text.slice(text.indexOf('\r\n') + 2));
    first = false;
  }
  await new Promise((r) => out.end(r));
}
const env = {
  CONTACT_SEARCH_DATA_DIR: work,
  CONTACT_SEARCH_HOST: '127.0.0.1',
  CONTACT_SEARCH_LOG_LEVEL: 'info', // the database's lines on stderr: its load, each segment's steps
  CONTACT_SEARCH_WORKERS: '1',
  ...SERVER_ENV, // as `npm start` runs it
};
// Over the wire, a 100,000-row ImportContacts runs past the default 30 s request budget on a loaded
// machine (refused, nothing written): the bench gives it 10 minutes.
const limits = {
  ...(values['watch-ms'] ? { eventLoopBlockMs: Number(values['watch-ms']) } : {}),
  ...(values['warm-up'] !== undefined ? { warmUpQueries: Number(values['warm-up']) } : {}),
  ...(values.via !== 'cli' ? { requestMs: 600_000 } : {}),
};
if (Object.keys(limits).length) {
  const config = join(work, 'limits.json');
  writeFileSync(config, JSON.stringify({ limits }));
  Object.assign(env, { CONTACT_SEARCH_CONFIG: config });
}

// 1. Start: spawn → port open → /healthz 200.
const port = await freePort();
const profile = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(values.profile)}`] : [];
const args = serverArgs(root, profile); // compiles first: not part of the start timed below
const t0 = performance.now();
const server = spawn(process.execPath, args, {
  cwd: root,
  env: { ...process.env, ...env, CONTACT_SEARCH_PORT: String(port) },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const cap = values['cap-mb']
  ? memoryCgroup(`bench-live-${process.pid}`, Number(values['cap-mb']))
  : undefined;
cap?.add(server.pid!);
const stopServer = () => {
  server.kill('SIGKILL');
  if (!values.keep) rmSync(work, { recursive: true, force: true });
  cap?.remove();
};
process.on('exit', stopServer);
const exitedEarly = (code: number | null, signal: string | null) => {
  console.error(
    `the server exited (${signal ?? code})${cap ? `; the cgroup's ${cap.report()}` : ''}`,
  );
  cap?.remove();
  process.exit(1);
};
server.once('exit', exitedEarly);
while (!(await connects(port))) await sleep(20);
const portOpen = since(t0);
let slowestHealth = 0, // the longest /healthz answer while loading: does the server answer meanwhile?
  unanswered = 0;
for (;;) {
  const t = performance.now();
  const status = await get(port, '/healthz').catch(() => 0);
  if (status === 0) unanswered++;
  else slowestHealth = Math.max(slowestHealth, since(t));
  if (status === 200) break;
  await sleep(100);
}
const healthy = since(t0);
console.log(
  `${size.toLocaleString('en')} contacts: port open ${s(portOpen)} after the spawn, /healthz ok after ${s(healthy)}; ` +
    `while loading its slowest answer took ${Math.round(slowestHealth)} ms, ${unanswered} polls got none within 5 s`,
);

// 2–4. Steady type-ahead, the import, until its marked contact is found.
const op = operation('GetPredictiveOptionsSearchContacts')!;
const nsBase = defaultConfig().nsBase;
const path = `/DesktopModules/${defaultConfig().module}_Common/WebServices/API.asmx`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const envelope = (text: string) =>
  `${XML_DECL}<s:Envelope xmlns:s="${SOAP11_NS}"><s:Body><${op.name} xmlns="${requestNamespace(op, nsBase)}"><StringOfJSONParameters>${escapeText(JSON.stringify({ Text: text, Limit: 10 }))}</StringOfJSONParameters><DBName>Demo</DBName><AsType>JSON</AsType></${op.name}></s:Body></s:Envelope>`;
function typeAhead(text: string): Promise<{ ms: number; body: string }> {
  const t = performance.now();
  return new Promise((done, fail) => {
    const req = http.request(
      {
        port,
        host: '127.0.0.1',
        path,
        method: 'POST',
        agent,
        headers: {
          'Content-Type': CONTENT_TYPE.soap11,
          SOAPAction: `"${soapAction(op, nsBase)}"`,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => {
          if (res.statusCode !== 200)
            fail(
              new Error(
                `HTTP ${res.statusCode} ${/<Error Code="(\w+)"/.exec(body)?.[1] ?? ''}`.trim(),
              ),
            );
          else done({ ms: since(t), body });
        });
      },
    );
    req.on('error', fail);
    req.end(envelope(text));
  });
}

type Phase = 'before' | 'import' | 'catch-up' | 'after';
let phase: Phase = 'before';
const times: Record<Phase, number[]> = { before: [], import: [], 'catch-up': [], after: [] };
// The requests sent in the first seconds after /healthz ok: what a node's first users meet after a restart.
const FIRST_S = 3;
const first: number[] = [];
const slow: string[] = []; // answers over 50 ms: when sent (since the spawn), how long, in which phase
let sent = 0;
const failures = new Map<string, number>(); // by HTTP status and error code, or the client's error
const inflight = new Set<Promise<void>>();
// The server's resident memory (Linux: /proc), sampled every 100 ms: the largest per phase.
const rssPeak: Record<Phase, number> = { before: 0, import: 0, 'catch-up': 0, after: 0 };
const rss = setInterval(() => {
  const rss = statusBytes(procStatus(server.pid), 'VmRSS');
  if (rss) rssPeak[phase] = Math.max(rssPeak[phase], rss / 1048576);
}, 100);
const tTraffic = performance.now();
const traffic = setInterval(() => {
  const at = phase; // a request counts in the phase it was sent in
  const sentAt = since(t0);
  const early = performance.now() - tTraffic < FIRST_S * 1000;
  const p = typeAhead(queries[sent++ % queries.length]).then(
    (r) => {
      times[at].push(r.ms);
      if (early) first.push(r.ms);
      if (r.ms > 50) slow.push(`${(sentAt / 1000).toFixed(2)} s +${Math.round(r.ms)} ms (${at})`);
    },
    (e: Error) => void failures.set(e.message, (failures.get(e.message) ?? 0) + 1),
  );
  inflight.add(p);
  void p.finally(() => inflight.delete(p));
}, 1000 / rate);

await sleep(beforeS * 1000);
// The snapshot this start wrote (renamed into place when whole), kept for the next run.
const written = join(work, 'Demo.db.index');
if (existsSync(written) && statSync(written).mtimeMs > Date.now() - performance.now() + t0)
  copyFileSync(written, keptSnapshot);
phase = 'import';
const tImport = performance.now();
let tCommit = 0; // when the CLI prints its summary, just after its commit (it exits a moment later)
if (values.via !== 'cli') {
  const answer = await importOverTheWire(readFileSync(csv, 'utf8'), values.via === 'soap');
  if (answer.status !== 200) {
    console.error(`ImportContacts answered ${answer.status}: ${answer.body.slice(0, 500)}`);
    process.exit(1);
  }
} else {
  const cli = await runImportCli(root, csv, env, [], () => {
    tCommit = performance.now();
    phase = 'catch-up';
  });
  if (cli.code !== 0) {
    console.error(`the import CLI exited ${cli.code}: ${cli.report}`);
    process.exit(1);
  }
}
const importMs = since(tImport);
phase = 'catch-up';
tCommit ||= performance.now();
while (!/"Options":\[\{/.test((await typeAhead(marker)).body.replace(/&quot;/g, '"'))) {
  if (since(tCommit) > 600_000) {
    console.error(`the imported contact ${marker} was not found within 10 minutes`);
    process.exit(1);
  }
  await sleep(100);
}
const visible = since(tCommit);
// --after S: the traffic goes on S seconds more (the full build queued behind the segment runs and
// swaps in meanwhile at 1M), then the server's memory as it settled.
const afterS = Number(values.after);
let settled = '';
if (afterS > 0) {
  phase = 'after';
  await sleep(afterS * 1000);
  const status = procStatus(server.pid);
  const kb = (name: string) => Math.round(statusBytes(status, name) / 1048576);
  settled = `; ${afterS} s after found: RSS ${kb('VmRSS')} MB (own ${kb('RssAnon')}, mapped files ${kb('RssFile')})`;
}
clearInterval(traffic);
await Promise.all(inflight);

function row(name: string, ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  const f = (x: number) => `${Math.round(x)} ms`;
  return `| ${name} | ${sorted.length} | ${f(at(0.5))} | ${f(at(0.99))} | ${f(sorted.at(-1) ?? 0)} | ${sorted.filter((x) => x > 100).length} | ${sorted.filter((x) => x > 200).length} |`;
}
console.log(
  `\nimport of ${imported.toLocaleString('en')} contacts (${values.via === 'cli' ? 'import CLI' : `ProcessRequest ImportContacts over ${values.via === 'soap' ? 'SOAP 1.1' : 'JSON'}, answered`}): ${s(importMs)}; commit → found by a search: ${s(visible)}; type-ahead requests failed: ${[...failures].map(([why, n]) => `${n} ${why}`).join(', ') || 'none'}\n`,
);
console.log(
  `type-ahead, ${rate}/s SOAP 1.1 GetPredictiveOptionsSearchContacts (distinct queries):\n`,
);
console.log(
  '| phase | requests | median | p99 | max | > 100 ms | > 200 ms |\n|---|---|---|---|---|---|---|',
);
console.log(row(`before the import (${beforeS} s)`, times.before));
console.log(row(`of which the first ${FIRST_S} s after /healthz ok`, first));
console.log(
  row(
    values.via !== 'cli'
      ? 'while the import is sent and runs, until its answer'
      : 'while the import CLI runs, until its commit',
    times.import,
  ),
);
console.log(row('commit → found', times['catch-up']));
if (afterS > 0) console.log(row(`the ${afterS} s after found`, times.after));
clearInterval(rss);
const mb = (x: number) => (x ? `${Math.round(x)} MB` : '—');
if (rssPeak.before)
  console.log(
    `\nthe server's RSS, largest: before the import ${mb(rssPeak.before)}, during it ${mb(rssPeak.import)}, from its commit until found ${mb(rssPeak['catch-up'])}${afterS > 0 ? `, in the ${afterS} s after ${mb(rssPeak.after)}` : ''}${settled}`,
  );
if (cap) {
  const text = await new Promise<string>((done) =>
    http.get({ port, host: '127.0.0.1', path: '/metrics' }, (res) => {
      let t = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (t += d));
      res.on('end', () => done(t));
    }),
  );
  const deferred = /^contact_search_index_compaction_deferred\{[^}]*\} (\d+)/m.exec(text)?.[1];
  console.log(
    `\nin a ${values['cap-mb']} MB memory cgroup: the compaction ${deferred === '1' ? 'put off (no room)' : 'not put off'}; the cgroup's ${cap.report()}`,
  );
}
if (cap && !values.profile) {
  // The group can go only once its process has: killed and waited for here, not in the exit hook.
  server.off('exit', exitedEarly);
  const gone = new Promise((r) => server.once('exit', r));
  server.kill('SIGKILL');
  await gone;
  cap.remove();
}
if (values.profile) {
  console.log(`\nanswers over 50 ms, sent at (since the spawn): ${slow.join(', ') || 'none'}`);
  server.off('exit', exitedEarly);
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM'); // --cpu-prof writes its file as the process exits
  await exited;
  console.log(`profile written to ${resolve(values.profile)}`);
}
process.exit(0);

/** ImportContacts of `content` (CSV) as one ProcessRequest, JSON binding or SOAP 1.1: its status and body. */
function importOverTheWire(
  content: string,
  soap: boolean,
): Promise<{ status: number; body: string }> {
  const params = JSON.stringify({
    Request: 'ImportContacts',
    DBName: 'Demo',
    Format: 'CSV',
    Content: content,
  });
  const pr = operation('ProcessRequest')!;
  const body = soap
    ? `${XML_DECL}<s:Envelope xmlns:s="${SOAP11_NS}"><s:Body><${pr.name} xmlns="${requestNamespace(pr, nsBase)}"><StringOfJSONParameters>${escapeText(params)}</StringOfJSONParameters></${pr.name}></s:Body></s:Envelope>`
    : JSON.stringify({ StringOfJSONParameters: params });
  return new Promise((done, fail) => {
    const req = http.request(
      {
        port,
        host: '127.0.0.1',
        path: soap ? path : `${path}/ProcessRequest`,
        method: 'POST',
        agent: false,
        headers: soap
          ? { 'Content-Type': CONTENT_TYPE.soap11, SOAPAction: `"${soapAction(pr, nsBase)}"` }
          : { 'Content-Type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => done({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}
function connects(p: number): Promise<boolean> {
  return new Promise((done) => {
    const c = net.connect(p, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      done(true);
    });
    c.once('error', () => done(false));
  });
}
function get(p: number, url: string): Promise<number> {
  return new Promise((done, fail) => {
    http
      .get({ port: p, host: '127.0.0.1', path: url, agent: false, timeout: 5000 }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      })
      .on('error', fail)
      .on('timeout', function (this: http.ClientRequest) {
        this.destroy(new Error('timeout'));
      });
  });
}
function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const a = probe.address() as net.AddressInfo;
      probe.close(() => done(a.port));
    });
  });
}
