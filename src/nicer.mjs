/**
 * Makes the calling thread `by` nicer than it is (Linux: a thread's own nice value; a new thread
 * starts at its starter's). Relative, so a server started under `nice` still answers ahead of its
 * background threads. Plain JavaScript: write-worker.mjs runs without tsx.
 */
import { getPriority, setPriority } from 'node:os';

/**
 * How much nicer the threads that work beside the answering one run: the index builds, SQLite's
 * write thread and the large-text worker. On 2 cores an import keeps three of them busy; at nice 10
 * the scheduler gives the event loop its core first (docs/perf-log/2026-12-02-wire-garbage.md).
 */
export const BACKGROUND_NICE = 10;

/** @param {number} by */
export function nicer(by) {
  if (by <= 0) return;
  try {
    setPriority(Math.min(19, getPriority() + by));
  } catch {
    /* not allowed here: the thread runs at the process's priority */
  }
}
