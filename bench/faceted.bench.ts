/**
 * `npm run bench:faceted [-- --rounds R --warm W --only REGEX --data-dir DIR]`: the faceted GetSearchResults misses in one
 * process (not a test). Opens bench:http's SQLite database (generate it first with `npm run bench:http`
 * or `npm run generate -- --db Demo --count 1000000 --data-dir .tmp/bench-http`), then sends
 * bench:http's 100 faceted requests (`facetedSearches`, bench/support/typing.ts) R times with the
 * result cache off, and prints mean/p50/p90/p99, the rounds' total time, each round's mean and the
 * slowest requests. `--warm W`: W untimed rounds first (steady state; without, the first round holds
 * the first touches: whole-table filter sets, facet codes, JIT); `--only REGEX`: the requests whose
 * Query matches. Two checkouts in one process, interleaved: bench:faceted-ab.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { createService } from '../src/service/index.ts';
import { openDatabase, registryOf } from '../src/database/registry.ts';
import { facetedSearch } from './support/faceted.ts';
import { facetedSearches, sampleContacts } from './support/typing.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    warm: { type: 'string', default: '0' },
    only: { type: 'string' },
    'data-dir': { type: 'string', default: join(root, '.tmp', 'bench-http') },
  },
});
const t0 = performance.now();
const db = await openDatabase(
  { name: 'Demo', backend: 'sqlite' },
  resolve(values['data-dir']!),
  () => {},
  () => {},
  false,
);
console.log(
  `opened ${db.index.size.toLocaleString('en')} contacts in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
const service = createService({
  databases: registryOf(new Map([['demo', db]])),
  limits: { ...DEFAULT_LIMITS, resultCacheEntries: 0 },
});
const faceted = facetedSearches(
  sampleContacts(join(resolve(values['data-dir']!), 'Demo.db')),
).filter((p) => !values.only || new RegExp(values.only).test(p.Query));
const send = facetedSearch(service);
for (let r = 0; r < Number(values.warm); r++) for (const p of faceted) await send(p);
const all: number[] = [];
const roundMeans: number[] = [];
const last = new Map<string, number>();
const began = performance.now();
for (let r = 0; r < Number(values.rounds); r++) {
  let sum = 0;
  for (const p of faceted) {
    const [ms] = await send(p);
    sum += ms;
    all.push(ms);
    last.set(`${p.Query} ${p.Filters[0].Values!.join('+')}`, ms);
  }
  roundMeans.push(sum / faceted.length);
}
const totalMs = performance.now() - began;
all.sort((a, b) => a - b);
const pct = (q: number) => all[Math.floor(q * (all.length - 1))].toFixed(2);
console.log(
  `${all.length} requests in ${totalMs.toFixed(0)} ms (after ${values.warm} warm rounds): mean ${(all.reduce((a, b) => a + b) / all.length).toFixed(2)} ms, p50 ${pct(0.5)}, p90 ${pct(0.9)}, p99 ${pct(0.99)}, max ${pct(1)}`,
);
console.log(`each round's mean: ${roundMeans.map((m) => m.toFixed(2)).join(', ')} ms`);
console.log(
  'slowest in the last round:',
  [...last]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([k, v]) => `${JSON.stringify(k)} ${v.toFixed(1)} ms`)
    .join(', '),
);
await db.close();
