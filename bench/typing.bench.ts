/**
 * `npm run bench:typing [-- --data-dir DIR --count N --limit L --block B --traffic distinct|sessions]`:
 * type-ahead in one process, no HTTP, result cache off, over DIR/Demo.db (default: bench:http's
 * database), against an unranked sorted-token index of the same contacts built here
 * (bench/support/sorted-token-baseline.ts), on the same queries in the same run: blocks of B queries
 * (200) alternate between the two, each block's first system alternating too. Both get an untimed
 * warm-up first (bench:http's typing sessions). Prints, for each, the median, p90, p99, max, mean and
 * the hit rate (queries with at least one answer), and the engine/baseline ratios of median and p99.
 *
 * Traffic (bench/support/typing.ts): `distinct` (the default) is the first N (133,000) of the
 * database's distinct typing queries, the very list bench:http sends first; `sessions` replays
 * bench:http's typing sessions of 300 contacts (3,100 queries) instead.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { createService } from '../src/service/index.ts';
import { openDatabase, registryOf } from '../src/database/registry.ts';
import { SortedTokenBaseline } from './support/sorted-token-baseline.ts';
import {
  contactNames,
  distinctTypingQueries,
  sampleContacts,
  typingSessions,
} from './support/typing.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: join(root, '.tmp', 'bench-http') },
    count: { type: 'string', default: '133000' },
    limit: { type: 'string', default: '10' },
    block: { type: 'string', default: '200' },
    traffic: { type: 'string', default: 'distinct' },
  },
});
const dir = resolve(values['data-dir']!);
const dbFile = join(dir, 'Demo.db');
const limit = Number(values.limit),
  block = Number(values.block),
  count = Number(values.count);
if (!(limit > 0 && block > 0 && count > 0) || !['distinct', 'sessions'].includes(values.traffic!)) {
  console.error(
    '--limit, --block and --count take positive numbers; --traffic is distinct or sessions',
  );
  process.exit(2);
}
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
console.log(`start: ${uptime()}`);

const sessions = typingSessions(sampleContacts(dbFile));
let queries: string[], generated: number;
if (values.traffic === 'distinct') {
  const all = distinctTypingQueries(contactNames(dbFile));
  generated = all.length;
  queries = all.slice(0, count);
} else {
  generated = sessions.length;
  queries = sessions.slice(0, count);
}

const t0 = performance.now();
const db = await openDatabase({ name: 'Demo', backend: 'sqlite' }, dir);
const t1 = performance.now();
const baseline = SortedTokenBaseline.build(db.all());
const t2 = performance.now();
console.log(
  `${db.size.toLocaleString('en')} contacts: engine opened in ${((t1 - t0) / 1000).toFixed(1)} s; baseline ${baseline.termCount.toLocaleString('en')} terms, ` +
    `${baseline.pairCount.toLocaleString('en')} (term, contact) pairs, built in ${((t2 - t1) / 1000).toFixed(1)} s`,
);

// The engine is what this measures: no result cache.
const service = createService({
  databases: registryOf(new Map([['demo', db]])),
  limits: { ...DEFAULT_LIMITS, resultCacheEntries: 0 },
});
async function engine(Text: string): Promise<[number, number]> {
  const t = performance.now();
  const r = await service.invoke({
    op: 'GetPredictiveOptionsSearchContacts',
    StringOfJSONParameters: JSON.stringify({ Text, Limit: limit }),
    DBName: 'Demo',
    AsType: 'JSON',
    caller: { binding: 'soap11', loopback: true },
  });
  const ms = performance.now() - t;
  if (r.kind !== 'text') throw new Error(`AsType JSON answered ${r.kind}`);
  return [ms, (JSON.parse(r.text) as { Options: unknown[] }).Options.length];
}
function base(text: string): [number, number] {
  const t = performance.now();
  const found = baseline.search(text, limit).length;
  return [performance.now() - t, found];
}

// Warm-up (JIT, first touches of the index): other queries than the timed ones when the traffic is distinct.
for (const q of sessions) {
  await engine(q);
  base(q);
}

const n = queries.length;
const time = { engine: new Float64Array(n), baseline: new Float64Array(n) };
const found = { engine: new Uint16Array(n), baseline: new Uint16Array(n) };
for (let from = 0, b = 0; from < n; from += block, b++) {
  const to = Math.min(n, from + block);
  const runBase = () => {
    for (let i = from; i < to; i++) [time.baseline[i], found.baseline[i]] = base(queries[i]);
  };
  if (b % 2 === 1) runBase();
  for (let i = from; i < to; i++) [time.engine[i], found.engine[i]] = await engine(queries[i]);
  if (b % 2 === 0) runBase();
}

interface Figures {
  median: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  hitRate: number;
}
function figures(ms: Float64Array, hits: Uint16Array): Figures {
  const s = Float64Array.from(ms).sort();
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return {
    median: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: s[s.length - 1],
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    hitRate: hits.filter((h) => h > 0).length / hits.length,
  };
}
const e = figures(time.engine, found.engine),
  bl = figures(time.baseline, found.baseline);
const us = (ms: number) => `${Math.round(ms * 1000).toLocaleString('en')} µs`;
const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
const row = (name: string, f: Figures) =>
  `| ${name} | ${us(f.median)} | ${us(f.p90)} | ${us(f.p99)} | ${us(f.max)} | ${us(f.mean)} | ${pct(f.hitRate)} |`;
const trafficName =
  values.traffic === 'distinct'
    ? `${n.toLocaleString('en')} distinct typing queries (the first of ${generated.toLocaleString('en')})`
    : `${n.toLocaleString('en')} typing-session queries (of ${generated.toLocaleString('en')})`;
console.log(
  `\n${db.size.toLocaleString('en')} contacts, ${trafficName}, Limit ${limit}, interleaved in blocks of ${block}\n`,
);
console.log('| | median | p90 | p99 | max | mean | hit rate |\n|---|---|---|---|---|---|---|');
console.log(row('engine (GetPredictiveOptionsSearchContacts, in-process)', e));
console.log(row('unranked sorted-token baseline', bl));
console.log(
  `\nengine / baseline: median ${(e.median / bl.median).toFixed(1)}×, p99 ${(e.p99 / bl.p99).toFixed(1)}×`,
);

// Where the hit rates part: the engine's extras (typo matches, spelling variants, transliterations,
// nicknames) find more; fewer would be a semantic gap of the baseline or of the engine.
let engineOnly = 0,
  baselineOnly = 0,
  fewer = 0,
  more = 0;
const examples: string[] = [];
for (let i = 0; i < n; i++) {
  const a = found.engine[i],
    z = found.baseline[i];
  if (a > 0 && z === 0) engineOnly++;
  if (a === 0 && z > 0) {
    baselineOnly++;
    if (examples.length < 10) examples.push(JSON.stringify(queries[i]));
  }
  if (a < z) fewer++;
  if (a > z) more++;
}
console.log(
  `hit rates ${e.hitRate === bl.hitRate ? 'equal' : 'differ'}: ${engineOnly} queries answered by the engine only, ${baselineOnly} by the baseline only` +
    `${examples.length ? ` (${examples.join(', ')})` : ''}; the engine returned fewer options than the baseline for ${fewer}, more for ${more}`,
);
const slowest = Array.from(time.engine.keys())
  .sort((a, b) => time.engine[b] - time.engine[a])
  .slice(0, 10);
console.log(
  'slowest engine queries:',
  slowest.map((i) => `${JSON.stringify(queries[i])} ${time.engine[i].toFixed(1)} ms`).join(', '),
);
console.log(`end: ${uptime()}`);
process.exit(0);
