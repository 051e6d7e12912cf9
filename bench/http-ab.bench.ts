/**
 * `npm run bench:http-ab -- --before ROOT [--data-dir DIR --before-data-dir DIR2 --scenario typing|faceted
 * --rounds R --slice S --workers W --before-workers W2 --flags F --before-flags F2 --connections C
 * --settle S]`: two checkouts' servers over the wire
 * (not a test) — this one and ROOT's (the "before" of a change; ROOT needs node_modules, a symlink to
 * this checkout's will do), each spawned as `npm start` runs it (with this checkout's node flags, so
 * a change of those is not what it compares) over its folder's Demo.db — loaded in turn by
 * autocannon, S seconds (5) a side, R rounds (6), alternating which goes first. The traffic is
 * bench:http's: `typing` (default) its SOAP 1.1 distinct typing queries, each side walking the same
 * list; `faceted` its faceted GetSearchResults with each request unique. Prints, per side and round,
 * req/s, the server's CPU per request, p50/p99 and the longest answer after each connection's first,
 * then each side's median and range, and the after/before ratio of CPU per request round by round.
 *
 * Settings too: `--before-workers` (default `--workers`) and `--before-flags` / `--flags` (node flags
 * added before the entry point, space-separated, given with `=`: `--flags=--single-threaded-gc`;
 * a worker process inherits them) set each side's own; `--before .` with them compares two settings
 * of this checkout (`--before . --before-workers 1 --workers auto`).
 *
 * Two runs of bench:http minutes apart on a shared VM moved by up to 2×; slices of a few seconds side
 * by side share the machine's state, so their ratio is what a wire change is read by. Two identical
 * trees read medians of 1.02 and 0.97 over 10 rounds, single rounds 0.86–1.13
 * (docs/perf-log/2026-11-29-wire-ab.md).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { checkoutDirs, checkoutOptions } from './support/checkout.ts';
import {
  facetedSearches,
  sampleContacts,
  contactNames,
  distinctTypingQueries,
} from './support/typing.ts';
import {
  cpuSeconds,
  distinctTyping,
  load,
  median,
  soap,
  spread,
  staggered,
  startServer,
  unique,
  type Req,
} from './support/wire-load.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    ...checkoutOptions(root),
    scenario: { type: 'string', default: 'typing' },
    rounds: { type: 'string', default: '6' },
    slice: { type: 'string', default: '5' },
    workers: { type: 'string', default: '1' },
    'before-workers': { type: 'string' },
    flags: { type: 'string', default: '' },
    'before-flags': { type: 'string', default: '' },
    connections: { type: 'string', default: '64' },
    settle: { type: 'string', default: '10' },
  },
});
const rounds = Number(values.rounds),
  slice = Number(values.slice),
  connections = Number(values.connections),
  settle = Number(values.settle);
if (
  !values.before ||
  !['typing', 'faceted'].includes(values.scenario!) ||
  !(rounds > 0 && slice > 0 && connections > 0 && settle >= 0) ||
  ![values.workers!, values['before-workers'] ?? values.workers!].every((w) =>
    /^(auto|\d+)$/.test(w),
  )
) {
  console.error(
    '--before ROOT is required; --scenario is typing or faceted; --rounds, --slice and --connections take positive numbers, --settle 0 or more, --workers and --before-workers a number or auto',
  );
  process.exit(2);
}
const { dir, beforeDir } = checkoutDirs(values);
for (const d of [dir, beforeDir])
  if (!existsSync(join(d, 'Demo.db'))) {
    console.error(
      `${d}/Demo.db is missing: npm run generate -- --db Demo --count N --data-dir ${d}`,
    );
    process.exit(2);
  }

interface Server {
  name: string;
  pid: number;
  port: number;
  stop: () => void;
}
/** Each side's tree, folder and settings; a side's settings show in its name when the two differ. */
const sides = [
  {
    label: `before (${resolve(values.before)}`,
    tree: resolve(values.before),
    folder: beforeDir,
    workers: values['before-workers'] ?? values.workers!,
    flags: values['before-flags']!,
  },
  {
    label: `this checkout (${root}`,
    tree: root,
    folder: dir,
    workers: values.workers!,
    flags: values.flags!,
  },
];
const sameSettings = sides[0].workers === sides[1].workers && sides[0].flags === sides[1].flags;
console.log('starting the two servers, one after the other …');
const servers: Server[] = [];
for (const side of sides) {
  const { child, port } = await startServer({
    tree: side.tree,
    dataDir: side.folder,
    workers: side.workers,
    flags: side.flags.split(/\s+/).filter(Boolean),
  });
  child.on('error', () => {});
  const settings = sameSettings
    ? ''
    : `, workers ${side.workers}${side.flags ? `, ${side.flags}` : ''}`;
  servers.push({
    name: `${side.label}${settings})`,
    pid: child.pid!,
    port,
    stop: () => child.kill(),
  });
}
process.on('exit', () => servers.forEach((s) => s.stop()));
console.log(`both up; settling ${settle} s …`);
await new Promise((done) => setTimeout(done, settle * 1000));

// Only the scenario's own list is read from the database (every name of 1M contacts takes seconds).
const dbFile = join(dir, 'Demo.db');
const queries = values.scenario === 'typing' ? distinctTypingQueries(contactNames(dbFile)) : [];
const faceted =
  values.scenario === 'faceted'
    ? facetedSearches(sampleContacts(dbFile)).map((p) => soap('1.1', 'GetSearchResults', p))
    : [];
const requestsOf = (s: Server): Req[] =>
  values.scenario === 'typing'
    ? distinctTyping(queries, s.port, (p) => soap('1.1', 'GetPredictiveOptionsSearchContacts', p))
    : unique(faceted);

interface Figures {
  rps: number;
  cpuUs: number;
  p50: number;
  p99: number;
  steadyMax: number;
  failed: number;
}
async function slice1(s: Server, requests: Req[], seconds: number): Promise<Figures> {
  const cpu0 = cpuSeconds(s.pid);
  const { result, steadyMax } = await load({
    url: `http://127.0.0.1:${s.port}`,
    connections,
    duration: seconds,
    ...staggered(requests, connections),
  });
  const total = Math.max(1, result.requests.total);
  return {
    rps: result.requests.average,
    cpuUs: ((cpuSeconds(s.pid) - cpu0) * 1e6) / total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    steadyMax,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

const requests = servers.map(requestsOf);
for (const [i, s] of servers.entries()) await slice1(s, requests[i], 3); // warm-up (JIT)
const figures: Figures[][] = servers.map(() => []);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [0, 1] : [1, 0];
  for (const i of order) {
    const f = await slice1(servers[i], requests[i], slice);
    figures[i].push(f);
    console.log(
      `round ${r + 1}, ${i === 0 ? 'before' : 'after '}: ${Math.round(f.rps)} req/s, server CPU ${Math.round(f.cpuUs)} µs/request, p50 ${f.p50} ms, p99 ${f.p99} ms, longest after the first answers ${f.steadyMax} ms${f.failed ? `, ${f.failed} failed` : ''}`,
    );
  }
}

const fixed = (xs: number[], digits = 0) => spread(xs, (x) => x.toFixed(digits));
console.log(
  `\n${values.scenario === 'typing' ? 'SOAP 1.1 distinct typing' : 'faceted GetSearchResults, each request unique'}, ${connections} connections, workers ${sides[0].workers === sides[1].workers ? sides[0].workers : sides.map((x) => x.workers).join(' / ')}, ${rounds} rounds of ${slice} s a side; median (range):\n`,
);
console.log(
  '| side | req/s | server CPU per request | p50 | p99 | longest after the first answers |',
);
console.log('|---|---|---|---|---|---|');
for (const [i, s] of servers.entries()) {
  const f = figures[i];
  console.log(
    `| ${s.name} | ${fixed(f.map((x) => x.rps))} | ${fixed(f.map((x) => x.cpuUs))} µs | ${fixed(f.map((x) => x.p50))} ms | ${fixed(f.map((x) => x.p99))} ms | ${fixed(f.map((x) => x.steadyMax))} ms |`,
  );
}
const ratios = figures[1].map((f, r) => f.cpuUs / figures[0][r].cpuUs);
console.log(
  `\nserver CPU per request, after / before, round by round: ${ratios.map((x) => x.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)}`,
);
process.exit(0);
