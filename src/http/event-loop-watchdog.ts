/**
 * Hang detection (issue "Security, limits and hostile input"; CONTRACT §9 metrics): a timer that
 * notices when the event loop was blocked longer than `limits.eventLoopBlockMs` and logs a
 * structured warning (durations only, never request content), plus perf_hooks'
 * monitorEventLoopDelay histogram for the percentiles /metrics shows.
 *
 * A blocked loop cannot run this timer, so a block is reported when it ends, with its length; a loop
 * that never comes back is for the supervisor's /healthz probe to catch.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Log } from '../log.ts';
import type { EventLoopStats } from '../metrics/metrics.ts';

/** perf_hooks samples every RESOLUTION_MS; a sample is the time between two samples, so the period is subtracted. */
const RESOLUTION_MS = 10;

export class EventLoopWatchdog {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private readonly intervalMs: number;
  private timer?: NodeJS.Timeout;
  private last = 0;
  private blocks = 0;
  private longestBlockMs = 0;

  constructor(private readonly thresholdMs: number, private readonly log: Log) {
    // Ticks often enough that a block just over the threshold is measured, without waking an idle server much.
    this.intervalMs = Math.max(10, Math.min(500, thresholdMs / 2));
  }

  start(): this {
    if (this.timer) return this;
    this.histogram.enable();
    this.last = performance.now();
    this.timer = setInterval(() => this.tick(), this.intervalMs).unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.histogram.disable();
  }

  /** A tick that comes late by more than the threshold means the loop was blocked that long. */
  private tick(): void {
    const now = performance.now();
    const blockedMs = now - this.last - this.intervalMs;
    this.last = now;
    if (blockedMs <= this.thresholdMs) return;
    this.blocks++;
    this.longestBlockMs = Math.max(this.longestBlockMs, blockedMs);
    this.log('warn', 'event loop blocked', { blockedMs: Math.round(blockedMs), thresholdMs: this.thresholdMs });
  }

  stats(): EventLoopStats {
    const h = this.histogram;
    const ms = (ns: number) => (h.count === 0 ? 0 : Math.max(0, ns / 1e6 - RESOLUTION_MS));
    return {
      p50Ms: ms(h.percentile(50)), p90Ms: ms(h.percentile(90)), p99Ms: ms(h.percentile(99)), maxMs: ms(h.max),
      sumMs: h.count === 0 ? 0 : Math.max(0, h.mean / 1e6 - RESOLUTION_MS) * h.count, samples: h.count,
      blocks: this.blocks, longestBlockMs: this.longestBlockMs,
    };
  }
}
