/**
 * `npm run bench [-- --count N --queries Q --settle S --stream]`: in-process search benchmark (not a test).
 * Generates N demo contacts, indexes them, then replays realistic typing (successive prefixes of
 * names, emails and phones, 1- and 2-character prefixes included) through GetPredictiveOptionsSearchContacts,
 * and faceted searches (two filters + facets) through GetSearchResults. Prints p50/p99, build time and RSS.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { createService } from '../src/service/index.ts';
import { IndexedContactDatabase } from '../src/database/contact-database.ts';
import type { Contact } from '../src/fields/contact.ts';
import { generateContacts } from '../src/demo/generate.ts';
import { registryOf } from '../src/database/registry.ts';
import type { ContactStore } from '../src/store/store.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000000' },
    queries: { type: 'string', default: '2000' },
    slowest: { type: 'string', default: '6' },
    settle: { type: 'string', default: '30' },
    stream: { type: 'boolean', default: false },
  },
});
const count = Number(values.count);
const nQueries = Number(values.queries);

/** A store that only holds the generated batches in memory: the bench measures the engine, not SQLite. */
function memoryStore(batches: Iterable<Contact[]>): ContactStore {
  return {
    backend: 'sqlite',
    async *loadAll() {
      yield* batches;
    },
    async count() {
      return count;
    },
    async get() {
      return [];
    },
    async begin() {
      const done = async () => {};
      return {
        put: done,
        delete: done,
        deleteAllExcept: async () => 0,
        commit: done,
        rollback: done,
      };
    },
    async listSavedSearches() {
      return [];
    },
    async putSavedSearch() {},
    async deleteSavedSearch() {
      return false;
    },
    async describe() {
      return {};
    },
    async close() {},
    feed: {
      moved: () => false,
      async head() {
        return 0;
      },
      async since(seq) {
        return { last: seq, contacts: [], listed: [], saved: false, all: false };
      },
    }, // no other writer
  };
}

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
// The sample: every (count / 500)th contact. --stream generates the batches while the index loads
// them, as a server streams its store, so the generated contacts never sit in the old space together
// (without it, freeing them right before the queries leaves ~600 MB of holes every scavenge pays for).
const every = Math.max(1, Math.floor(count / 500));
const sample: Contact[] = [];
function* sampled(batches: Iterable<Contact[]>): Generator<Contact[]> {
  let i = 0;
  for (const batch of batches) {
    for (const c of batch) if (i++ % every === 0 && sample.length < 500) sample.push(c);
    yield batch;
  }
}
let t = performance.now();
const batches = values.stream ? [] : [...generateContacts({ count })];
const genMs = performance.now() - t;
t = performance.now();
const db = await IndexedContactDatabase.open(
  'Bench',
  memoryStore(sampled(values.stream ? generateContacts({ count }) : batches)),
);
const buildMs = performance.now() - t;
batches.length = 0;
global.gc?.();
// --settle S (default 30): wait S seconds before timing, as a server answers its queries after start-up.
// Right after a build the old space holds ~800 MB of freed holes and every young-generation GC costs
// 3.5–6 ms instead of ~1.5 ms, until V8's memory reducer gives them back (docs/perf-log/
// 2026-11-23-engine.md "Garbage collection"); `--settle 0` times that moment.
if (Number(values.settle) > 0) {
  await new Promise((r) => setTimeout(r, Number(values.settle) * 1000));
  global.gc?.();
}
const mem = process.memoryUsage();
const live = mem.heapUsed + mem.arrayBuffers;
// The engine is what this measures: no result cache (repeated queries would be hits).
const service = createService({
  databases: registryOf(new Map([['bench', db]])),
  limits: { ...DEFAULT_LIMITS, resultCacheEntries: 0 },
});

/** Typing sessions: every prefix of a last name, "first last", an email, a phone's digits. */
const typing: string[] = [];
for (const c of sample) {
  const words = [
    c.LastName ?? c.DisplayName,
    `${c.FirstName ?? ''} ${c.LastName ?? ''}`.trim(),
    c.Emails[0],
    c.Phones[0],
  ];
  const s = words[typing.length % words.length] ?? c.DisplayName;
  for (let i = 1; i <= Math.min(s.length, 12); i++) typing.push(s.slice(0, i));
  if (typing.length >= nQueries) break;
}

const slowest: [number, string][] = [];
async function time(
  op: 'GetPredictiveOptionsSearchContacts' | 'GetSearchResults',
  params: object[],
): Promise<number[]> {
  const out: number[] = [];
  for (const p of params) {
    const s = performance.now();
    await service.invoke({
      op,
      StringOfJSONParameters: JSON.stringify(p),
      DBName: 'Bench',
      AsType: 'JSON',
      caller: { binding: 'json', loopback: true },
    });
    const ms = performance.now() - s;
    out.push(ms);
    slowest.push([ms, `${op} ${JSON.stringify(p)}`]);
  }
  return out.sort((a, b) => a - b);
}
const pct = (xs: number[], p: number) =>
  xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`);

const ta = await time(
  'GetPredictiveOptionsSearchContacts',
  typing.map((Text) => ({ Text, Limit: 10 })),
);
const short = await time(
  'GetPredictiveOptionsSearchContacts',
  typing.filter((q) => q.length <= 2).map((Text) => ({ Text, Limit: 10 })),
);
const countries = ['US', 'DE', 'FR', 'GB', 'SE'];
const faceted = await time(
  'GetSearchResults',
  sample.slice(0, 100).map((c, i) => ({
    Query: (c.LastName ?? c.DisplayName).slice(0, 3),
    PageSize: 25,
    Facets: ['Country', 'Tags'],
    Filters: [
      { Field: 'Country', Op: 'In', Values: [countries[i % 5], countries[(i + 1) % 5]] },
      { Field: 'CreatedAt', Op: 'Gte', Values: ['2022-01-01'] },
    ],
  })),
);
const lines = [
  `contacts: ${count.toLocaleString('en')}; queries timed ${values.settle} s after the build; ${values.stream ? `generated while indexed (--stream) in ${(buildMs / 1000).toFixed(1)} s` : `generated in ${(genMs / 1000).toFixed(1)} s, indexed in ${(buildMs / 1000).toFixed(1)} s`}; RSS ${mb(process.memoryUsage().rss)} (the generated objects came and went: the server's RSS is bench:http's), live after GC ${mb(live)} (JS heap + array buffers)`,
  `type-ahead (${ta.length} typing queries): p50 ${fmt(pct(ta, 50))}, p99 ${fmt(pct(ta, 99))}, max ${fmt(ta[ta.length - 1])}`,
  `type-ahead, 1–2 character prefixes only (${short.length}): p50 ${fmt(pct(short, 50))}, p99 ${fmt(pct(short, 99))}`,
  `faceted search, 2 filters + 2 facets (${faceted.length}): p50 ${fmt(pct(faceted, 50))}, p99 ${fmt(pct(faceted, 99))}`,
];
console.log(lines.join('\n'));
for (const op of ['GetPredictiveOptionsSearchContacts', 'GetSearchResults']) {
  console.log(
    `slowest ${op}:\n` +
      slowest
        .filter(([, q]) => q.startsWith(op))
        .sort((a, b) => b[0] - a[0])
        .slice(0, Number(values.slowest))
        .map(([ms, q]) => `  ${fmt(ms)}  ${q.slice(op.length + 1, 200)}`)
        .join('\n'),
  );
}
