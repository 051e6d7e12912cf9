/**
 * Every metric the service exposes on `/metrics` (prom-client; docs/MONITORING.md lists them): a
 * leaf module that the HTTP server, the stores and the watchdog report to; it imports none of them.
 *
 * Series of one process (the event loop, caches, each database's index, prom-client's process
 * metrics) carry a `worker` label: with worker processes the primary's AggregatorRegistry merges
 * the workers' registries (src/metrics/cluster.ts), and the label keeps each worker's figures apart.
 * Request and store-query counts have no such label: the aggregation sums them over the workers.
 * Only counts, durations and sizes: no contact data, query text, keys or addresses.
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import {
  collectDefaultMetrics,
  Histogram,
  Registry,
  type Aggregator,
  type Metric,
} from 'prom-client';

export const registry = new Registry();
export const METRICS_CONTENT_TYPE = registry.contentType;

/** node:cluster's id of this worker process; 0 for a server of one process. */
export const WORKER = String(cluster.worker?.id ?? 0);

/** Seconds; type-ahead answers take tens of microseconds, imports minutes. */
const REQUEST_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
  30, 60,
];
const STORE_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60];

const storeSeconds = new Histogram({
  name: 'contact_search_store_query_duration_seconds',
  help: 'Calls into the store of record, by backend and kind of query.',
  labelNames: ['backend', 'query'] as const,
  buckets: STORE_BUCKETS,
  registers: [registry],
});

/**
 * Request counts and latencies, by (operation, binding, outcome), kept here and written by the
 * registry like any other metric. prom-client's Counter and Histogram children validate and hash their
 * labels on every call: 2.7 µs a request measured on the 2-core machine, against type-ahead answers
 * of about 100 µs; this is a Map lookup and a bucket search (under 0.1 µs).
 */
interface RequestSeries {
  labels: Record<string, string>;
  buckets: Float64Array;
  sum: number;
  count: number;
}
const requestSeries = new Map<string, RequestSeries>();

/** One answered operation request. `operation` is `unknown` when the request named none this service has. */
export function observeRequest(
  operation: string,
  binding: string,
  outcome: string,
  seconds: number,
): void {
  const key = `${operation}\u0000${binding}\u0000${outcome}`;
  let r = requestSeries.get(key);
  if (r === undefined)
    requestSeries.set(
      key,
      (r = {
        labels: { operation, binding, outcome },
        buckets: new Float64Array(REQUEST_BUCKETS.length),
        sum: 0,
        count: 0,
      }),
    );
  let b = 0;
  while (b < REQUEST_BUCKETS.length && seconds > REQUEST_BUCKETS[b]) b++;
  if (b < REQUEST_BUCKETS.length) r.buckets[b]++;
  r.sum += seconds;
  r.count++;
}

const storeChildren = new Map<string, Histogram.Internal<'backend' | 'query'>>();

export function observeStoreQuery(backend: string, query: string, seconds: number): void {
  const key = `${backend}\u0000${query}`;
  let h = storeChildren.get(key);
  if (h === undefined) storeChildren.set(key, (h = storeSeconds.labels(backend, query)));
  h.observe(seconds);
}

/** Milliseconds, delays beyond the watchdog's sampling period (an idle loop reads about 0). */
export interface EventLoopStats {
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Sum of all sampled delays, and how many samples (Prometheus summary _sum and _count). */
  sumMs: number;
  samples: number;
  /** Times the loop was blocked longer than the threshold, and the longest such block (time waiting for a CPU not counted). */
  blocks: number;
  longestBlockMs: number;
  /** Times a tick was that late only because the process waited for a CPU. */
  starved: number;
}

/** One database as this process holds it. */
export interface DatabaseStats {
  name: string;
  backend: string;
  /** The store answered the change-feed read just made for this report. */
  up: boolean;
  contacts: number;
  /** An estimate of the index's memory (SearchIndex.approximateBytes says how). */
  indexBytes: number;
  /** When the index was last built (epoch ms). */
  indexBuiltAt: number;
  /** Changes other writers committed that the index has not applied; undefined when the store did not answer. */
  feedLag?: number;
  /** The last import (ImportContacts or UpsertContacts) this process committed. */
  lastImport?: { rows: number; seconds: number; at: number };
  /** The index compaction is put off for want of memory (database/rebuilds.ts). */
  compactionDeferred?: boolean;
}

/** What one server process reports; the server registers it when created. */
export interface ProcessSources {
  eventLoop(): EventLoopStats;
  rateLimitAddressBuckets(): number;
  /** Request-body bytes held against limits.inflightBodyBytes now (http/inflight-bodies.ts). */
  inflightBodyBytes?(): number;
  resultCache?(): { hits: number; misses: number; entries: number } | undefined;
  databases?(): Promise<DatabaseStats[]>;
}

/** The servers of this process, the newest last (tests run several in one process; one is reported). */
const sources: ProcessSources[] = [];
let defaultsStarted = false;

/** Reports `s` on /metrics until the returned function is called. Starts prom-client's process metrics once. */
export function reportProcess(s: ProcessSources): () => void {
  if (!defaultsStarted) {
    defaultsStarted = true;
    collectDefaultMetrics({ register: registry, labels: { worker: WORKER } });
  }
  sources.push(s);
  return () => {
    const i = sources.indexOf(s);
    if (i >= 0) sources.splice(i, 1);
  };
}

const current = () => sources.at(-1);

interface Sample {
  labels?: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * A metric read from its source when scraped (counts kept elsewhere: the watchdog's, the cache's).
 * prom-client's registry takes any object with its get(); the aggregation reads `aggregator`.
 */
function sampled(
  name: string,
  help: string,
  type: 'gauge' | 'counter' | 'summary' | 'histogram',
  read: () => Sample[] | Promise<Sample[]>,
): void {
  // Per-process samples carry a worker label, so summing keeps each; request counts have none: they add up over the workers.
  const aggregator: Aggregator = 'sum';
  const metric = {
    name,
    help,
    type,
    aggregator,
    async get() {
      return { name, help, type, aggregator, values: await read() };
    },
    reset() {},
  };
  registry.registerMetric(metric as unknown as Metric);
}

sampled(
  'contact_search_requests_total',
  'Operation requests answered, by operation, binding and outcome (ok, or the error code).',
  'counter',
  () => [...requestSeries.values()].map((r) => ({ labels: r.labels, value: r.count })),
);
sampled(
  'contact_search_request_duration_seconds',
  "Time from a request's arrival to its answer, by operation, binding and outcome.",
  'histogram',
  () => {
    const out: Sample[] = [];
    const name = 'contact_search_request_duration_seconds';
    for (const r of requestSeries.values()) {
      let cumulative = 0;
      REQUEST_BUCKETS.forEach((le, i) => {
        cumulative += r.buckets[i];
        out.push({ labels: { ...r.labels, le }, value: cumulative, metricName: `${name}_bucket` });
      });
      out.push({
        labels: { ...r.labels, le: '+Inf' },
        value: r.count,
        metricName: `${name}_bucket`,
      });
      out.push({ labels: r.labels, value: r.sum, metricName: `${name}_sum` });
      out.push({ labels: r.labels, value: r.count, metricName: `${name}_count` });
    }
    return out;
  },
);

const w = { worker: WORKER };
const s = (ms: number) => Math.round(ms * 1000) / 1e6; // ms as seconds, to the microsecond
const eventLoop = (read: (e: EventLoopStats) => Sample[]) => () => {
  const src = current();
  return src ? read(src.eventLoop()) : [];
};

sampled(
  'contact_search_event_loop_delay_seconds',
  'Event loop delay beyond the 10 ms sampling period (perf_hooks monitorEventLoopDelay), since start.',
  'summary',
  eventLoop((e) => [
    { labels: { ...w, quantile: 0.5 }, value: s(e.p50Ms) },
    { labels: { ...w, quantile: 0.9 }, value: s(e.p90Ms) },
    { labels: { ...w, quantile: 0.99 }, value: s(e.p99Ms) },
    { labels: w, value: s(e.sumMs), metricName: 'contact_search_event_loop_delay_seconds_sum' },
    { labels: w, value: e.samples, metricName: 'contact_search_event_loop_delay_seconds_count' },
  ]),
);
sampled(
  'contact_search_event_loop_delay_max_seconds',
  'Longest event loop delay since start.',
  'gauge',
  eventLoop((e) => [{ labels: w, value: s(e.maxMs) }]),
);
sampled(
  'contact_search_event_loop_blocks_total',
  'Times the event loop was blocked longer than limits.eventLoopBlockMs (time the process waited for a CPU not counted).',
  'counter',
  eventLoop((e) => [{ labels: w, value: e.blocks }]),
);
sampled(
  'contact_search_event_loop_starved_total',
  'Times the event loop was that late only because the process waited for a CPU (a busy machine).',
  'counter',
  eventLoop((e) => [{ labels: w, value: e.starved }]),
);
sampled(
  'contact_search_event_loop_longest_block_seconds',
  'Longest block over the threshold since start.',
  'gauge',
  eventLoop((e) => [{ labels: w, value: s(e.longestBlockMs) }]),
);
sampled(
  'contact_search_rate_limit_address_buckets',
  'Client addresses the keyless rate limiter tracks now.',
  'gauge',
  () => {
    const src = current();
    return src ? [{ labels: w, value: src.rateLimitAddressBuckets() }] : [];
  },
);

sampled(
  'contact_search_inflight_body_bytes',
  'Request-body bytes being received or held now, against limits.inflightBodyBytes (the first 64 KiB of each body not counted).',
  'gauge',
  () => {
    const held = current()?.inflightBodyBytes?.();
    return held === undefined ? [] : [{ labels: w, value: held }];
  },
);

/**
 * The process's resident memory split as /proc/self/status splits it (Linux; absent elsewhere): its
 * own pages (RssAnon + RssShmem) and the files it maps (RssFile: the index snapshots, whose pages are
 * the kernel's page cache, and node's own binary). A node whose `files` fall while its traffic holds
 * is being squeezed: its searches read the snapshot from the disk again (docs/DEPLOYMENT.md "Memory").
 */
export function residentParts(status: string): { own: number; files: number } | undefined {
  const kb = (k: string) => Number(status.match(new RegExp(`^${k}:\\s*(\\d+) kB`, 'm'))?.[1]);
  const own = kb('RssAnon') + (kb('RssShmem') || 0),
    files = kb('RssFile');
  return Number.isFinite(own) && Number.isFinite(files)
    ? { own: own * 1024, files: files * 1024 }
    : undefined;
}
sampled(
  'contact_search_process_resident_bytes',
  "The process's resident memory by kind: own (its heap and buffers) and files (mapped files: the index snapshots' pages, node's binary).",
  'gauge',
  () => {
    let status: string;
    try {
      status = readFileSync('/proc/self/status', 'utf8');
    } catch {
      return []; // not Linux
    }
    const r = residentParts(status);
    return r
      ? [
          { labels: { ...w, kind: 'own' }, value: r.own },
          { labels: { ...w, kind: 'files' }, value: r.files },
        ]
      : [];
  },
);

const cache = () => current()?.resultCache?.();
sampled(
  'contact_search_result_cache_lookups_total',
  'Read requests looked up in the result cache, by outcome.',
  'counter',
  () => {
    const c = cache();
    return c
      ? [
          { labels: { ...w, outcome: 'hit' }, value: c.hits },
          { labels: { ...w, outcome: 'miss' }, value: c.misses },
        ]
      : [];
  },
);
sampled('contact_search_result_cache_entries', 'Results the cache holds now.', 'gauge', () => {
  const c = cache();
  return c ? [{ labels: w, value: c.entries }] : [];
});

/**
 * One read of the databases serves every per-database metric of a scrape (it queries each store
 * once): the registry asks all metrics at once, so they share the read in flight.
 */
let databasesRead: Promise<DatabaseStats[]> | undefined;
function databaseStats(): Promise<DatabaseStats[]> {
  const read = current()?.databases;
  if (!read) return Promise.resolve([]);
  databasesRead ??= read()
    .catch(() => [])
    .finally(() => {
      databasesRead = undefined;
    });
  return databasesRead;
}

function perDatabase(
  name: string,
  help: string,
  value: (d: DatabaseStats, now: number) => number | undefined,
  labels: (d: DatabaseStats) => Record<string, string> = () => ({}),
): void {
  sampled(name, help, 'gauge', async () => {
    const now = Date.now();
    const out: Sample[] = [];
    for (const d of await databaseStats()) {
      const v = value(d, now);
      if (v !== undefined) out.push({ labels: { database: d.name, ...labels(d), ...w }, value: v });
    }
    return out;
  });
}

perDatabase(
  'contact_search_database_up',
  "1 when the database's store answered this scrape's change-feed read, else 0 (0 at once while its PostgreSQL connection is lost).",
  (d) => (d.up ? 1 : 0),
  (d) => ({ backend: d.backend }),
);
perDatabase(
  'contact_search_database_contacts',
  "Contacts in the database's index.",
  (d) => d.contacts,
);
perDatabase(
  'contact_search_index_bytes',
  "Estimated memory of the database's search index: its typed arrays and term text, and the contact table's columns and dictionaries.",
  (d) => d.indexBytes,
);
perDatabase(
  'contact_search_index_age_seconds',
  'Seconds since the index was last built (at start, after an import or a full delta, or after a reload from the change feed).',
  (d, now) => Math.max(0, (now - d.indexBuiltAt) / 1000),
);
perDatabase(
  'contact_search_index_compaction_deferred',
  '1 while the index compaction is put off because the memory limit leaves too little room for its build (the changes since the last build searched beside the index; the warning in the log says how much it needs), else 0.',
  (d) => (d.compactionDeferred ? 1 : 0),
);
perDatabase(
  'contact_search_change_feed_lag',
  'Changes other writers committed to the store that this index has not applied yet (changed contacts, plus one for saved searches and one for a reload pending); absent while the store does not answer.',
  (d) => d.feedLag,
);
perDatabase(
  'contact_search_last_import_rows',
  'Contacts the last import this process committed wrote (ImportContacts, UpsertContacts).',
  (d) => d.lastImport?.rows,
);
perDatabase(
  'contact_search_last_import_duration_seconds',
  'How long the last import this process committed took, from its start to the index being up to date.',
  (d) => d.lastImport?.seconds,
);
perDatabase(
  'contact_search_last_import_timestamp_seconds',
  'When the last import this process committed finished (Unix seconds).',
  (d) => (d.lastImport ? d.lastImport.at / 1000 : undefined),
);
