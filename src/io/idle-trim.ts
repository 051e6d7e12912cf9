/**
 * The C heap's free pages given back to the kernel once a busy spell ends (trimMalloc, glibc's
 * malloc_trim). free() gives back only the top of a heap: what an index open, a warm-up, a build's
 * hand-over or a burst of requests freed in the middle stays resident, ~7 MB of a settled 1M node
 * (issue 25's memory; docs/perf-log/2026-12-07-compiled.md). V8 shrinks its own heap when idle (its
 * memory reducer); this does the same for malloc's, once a spell, so a node that answers all day
 * pays a trim (a few ms) at most once an idle period.
 */
import { performance } from 'node:perf_hooks';
import { trimMalloc } from './file-map.ts';

export interface IdleTrimOptions {
  /** How often the event loop's use is read (ms; 10,000). */
  everyMs?: number;
  /** A period with the loop busy less than this share of it is idle (0.01: under 100 ms in 10 s). */
  idleBelow?: number;
  /** What gives the memory back (tests count calls). */
  trim?: () => boolean;
}

/**
 * Calls `trim` at the first idle period after a busy one (the start counts as busy). Returns its
 * stop; the timer keeps no process alive.
 */
export function trimWhenIdle(opts: IdleTrimOptions = {}): () => void {
  const { everyMs = 10_000, idleBelow = 0.01, trim = trimMalloc } = opts;
  let last = performance.eventLoopUtilization();
  let busy = true;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const used = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (used >= idleBelow) busy = true;
    else if (busy) {
      busy = false;
      trim();
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
