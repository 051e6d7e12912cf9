/**
 * `/metrics` in the Prometheus text format (CONTRACT §9): event loop delay and blocks, and how many
 * client addresses the rate limiter tracks. Only counts and durations: no data, keys or addresses.
 */
import type { ResultCacheStats } from '../service/result-cache.ts';
import type { EventLoopStats } from './event-loop-watchdog.ts';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface MetricsSources {
  eventLoop: EventLoopStats;
  rateLimitAddressBuckets: number;
  resultCache?: ResultCacheStats;
  /** node:cluster's id of the worker process answering; 0 for a server of one process. */
  worker: number;
  /** Request-body bytes held against limits.inflightBodyBytes now (inflight-bodies.ts). */
  inflightBodyBytes?: number;
}

/** Milliseconds as seconds, to the microsecond (no float noise in the text). */
const s = (ms: number) => String(Math.round(ms * 1000) / 1e6);

export function renderMetrics({ eventLoop: e, rateLimitAddressBuckets, resultCache: c, worker, inflightBodyBytes }: MetricsSources): string {
  const lines = [
    '# HELP contact_search_worker The worker process that answered (0: a server of one process); every figure here is that process\'s own.',
    '# TYPE contact_search_worker gauge',
    `contact_search_worker ${worker}`,
    '# HELP contact_search_event_loop_delay_seconds Event loop delay beyond the 10 ms sampling period (perf_hooks monitorEventLoopDelay), since start.',
    '# TYPE contact_search_event_loop_delay_seconds summary',
    `contact_search_event_loop_delay_seconds{quantile="0.5"} ${s(e.p50Ms)}`,
    `contact_search_event_loop_delay_seconds{quantile="0.9"} ${s(e.p90Ms)}`,
    `contact_search_event_loop_delay_seconds{quantile="0.99"} ${s(e.p99Ms)}`,
    `contact_search_event_loop_delay_seconds_sum ${s(e.sumMs)}`,
    `contact_search_event_loop_delay_seconds_count ${e.samples}`,
    '# HELP contact_search_event_loop_delay_max_seconds Longest event loop delay since start.',
    '# TYPE contact_search_event_loop_delay_max_seconds gauge',
    `contact_search_event_loop_delay_max_seconds ${s(e.maxMs)}`,
    '# HELP contact_search_event_loop_blocks_total Times the event loop was blocked longer than limits.eventLoopBlockMs (time the process waited for a CPU not counted).',
    '# TYPE contact_search_event_loop_blocks_total counter',
    `contact_search_event_loop_blocks_total ${e.blocks}`,
    '# HELP contact_search_event_loop_longest_block_seconds Longest block over the threshold since start.',
    '# TYPE contact_search_event_loop_longest_block_seconds gauge',
    `contact_search_event_loop_longest_block_seconds ${s(e.longestBlockMs)}`,
    '# HELP contact_search_event_loop_starved_total Times the event loop was that late only because the process waited for a CPU (a busy machine).',
    '# TYPE contact_search_event_loop_starved_total counter',
    `contact_search_event_loop_starved_total ${e.starved}`,
    '# HELP contact_search_rate_limit_address_buckets Client addresses the keyless rate limiter tracks now.',
    '# TYPE contact_search_rate_limit_address_buckets gauge',
    `contact_search_rate_limit_address_buckets ${rateLimitAddressBuckets}`,
  ];
  if (inflightBodyBytes !== undefined) {
    lines.push(
      '# HELP contact_search_inflight_body_bytes Request-body bytes being received or held now, against limits.inflightBodyBytes (the first 64 KiB of each body not counted).',
      '# TYPE contact_search_inflight_body_bytes gauge',
      `contact_search_inflight_body_bytes ${inflightBodyBytes}`,
    );
  }
  if (c) {
    lines.push(
      '# HELP contact_search_result_cache_lookups_total Read requests looked up in the result cache, by outcome.',
      '# TYPE contact_search_result_cache_lookups_total counter',
      `contact_search_result_cache_lookups_total{outcome="hit"} ${c.hits}`,
      `contact_search_result_cache_lookups_total{outcome="miss"} ${c.misses}`,
      '# HELP contact_search_result_cache_entries Results the cache holds now.',
      '# TYPE contact_search_result_cache_entries gauge',
      `contact_search_result_cache_entries ${c.entries}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
