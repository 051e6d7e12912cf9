/**
 * Hang detection (issue "Security, limits and hostile input"; CONTRACT §9 metrics): a timer that
 * notices when the event loop was blocked longer than `limits.eventLoopBlockMs` and logs a
 * structured warning (durations only, never request content), plus perf_hooks'
 * monitorEventLoopDelay histogram for the percentiles /metrics shows.
 *
 * A blocked loop cannot run this timer, so a block is reported when it ends, with its length; a loop
 * that never comes back is for the supervisor's /healthz probe to catch.
 *
 * A late tick is not always this process's doing: on a machine with more runnable processes than
 * cores, the main thread waits for a CPU. Linux counts that wait (/proc/thread-self/schedstat); a
 * delay that is over the threshold only with it is counted apart, as `starved` (issue 27's hostile
 * suite asks whether an attack blocks the loop, not whether the machine is busy). Elsewhere the wait
 * reads 0 and every late tick is a block.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Log } from '../log.ts';
import type { EventLoopStats } from '../metrics/metrics.ts';

/** perf_hooks samples every RESOLUTION_MS; a sample is the time between two samples, so the period is subtracted. */
const RESOLUTION_MS = 10;

/** Field `i` of this thread's schedstat in milliseconds (0: on a CPU, 1: runnable but waiting for one); undefined off Linux. */
function schedstatMs(i: 0 | 1): number | undefined {
  try {
    const v = Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[i]) / 1e6;
    return Number.isFinite(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Milliseconds the calling thread has spent runnable but waiting for a CPU; 0 where the kernel does not say. */
export const runQueueWaitMs = (): number => schedstatMs(1) ?? 0;

/** Milliseconds the calling thread has run on a CPU; wall time where the kernel does not say (tests burn CPU time with it). */
export const onCpuMs = (): number => schedstatMs(0) ?? performance.now();

export class EventLoopWatchdog {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({
    resolution: RESOLUTION_MS,
  });
  private readonly intervalMs: number;
  private timer?: NodeJS.Timeout;
  private last = 0;
  private lastWaitMs = 0;
  private blocks = 0;
  private longestBlockMs = 0;
  private starved = 0;

  constructor(
    private readonly thresholdMs: number,
    private readonly log: Log,
    private readonly waitForCpuMs = runQueueWaitMs,
  ) {
    // Ticks often enough that a block just over the threshold is measured, without waking an idle server much.
    this.intervalMs = Math.max(10, Math.min(500, thresholdMs / 2));
  }

  start(): this {
    if (this.timer) return this;
    this.histogram.enable();
    this.last = performance.now();
    this.lastWaitMs = this.waitForCpuMs();
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
    const waitMs = this.waitForCpuMs();
    const lateMs = now - this.last - this.intervalMs;
    const waitedMs = waitMs - this.lastWaitMs;
    this.last = now;
    this.lastWaitMs = waitMs;
    if (lateMs <= this.thresholdMs) return;
    const blockedMs = lateMs - waitedMs;
    if (blockedMs <= this.thresholdMs) {
      this.starved++;
      this.log('warn', 'event loop late: the process waited for a CPU', {
        lateMs: Math.round(lateMs),
        waitedForCpuMs: Math.round(waitedMs),
        thresholdMs: this.thresholdMs,
      });
      return;
    }
    this.blocks++;
    this.longestBlockMs = Math.max(this.longestBlockMs, blockedMs);
    this.log('warn', 'event loop blocked', {
      blockedMs: Math.round(blockedMs),
      waitedForCpuMs: Math.round(waitedMs),
      thresholdMs: this.thresholdMs,
    });
  }

  stats(): EventLoopStats {
    const h = this.histogram;
    const ms = (ns: number) => (h.count === 0 ? 0 : Math.max(0, ns / 1e6 - RESOLUTION_MS));
    return {
      p50Ms: ms(h.percentile(50)),
      p90Ms: ms(h.percentile(90)),
      p99Ms: ms(h.percentile(99)),
      maxMs: ms(h.max),
      sumMs: h.count === 0 ? 0 : Math.max(0, h.mean / 1e6 - RESOLUTION_MS) * h.count,
      samples: h.count,
      blocks: this.blocks,
      longestBlockMs: this.longestBlockMs,
      starved: this.starved,
    };
  }
}
