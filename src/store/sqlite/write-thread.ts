/**
 * The thread a SQLite store writes on (write-worker.mjs). better-sqlite3's calls are synchronous: on
 * the thread that answers searches, a 100,000-contact import's inserts were seconds of CPU taken in
 * slices, and its COMMIT one call of 46–130 ms at 1M (docs/perf-log/2026-11-29-tails.md: the dirty
 * pages written out, whatever the page cache's size). On a connection of its own thread they cost the
 * event loop a message each; the event loop awaits them. The thread starts at the store's first write
 * and lives until the store closes, referenced only while a call waits (an idle one keeps no process
 * alive). One that dies fails its waiting calls (its connection, closed, rolled back what was open);
 * the next write starts another.
 */
import { Worker } from 'node:worker_threads';
import { BACKGROUND_NICE } from '../../nicer.mjs';

export interface WriteThreadOptions {
  /** How long BEGIN IMMEDIATE waits for another connection's write lock (SQLite's busy_timeout). */
  lockWaitMs: number;
  /** Whether SQLite checkpoints inside COMMIT (false: checkpoint.ts runs them on a worker of their own). */
  autoCheckpoint: boolean;
}

/** A failed call: SQLite's error code (SQLITE_BUSY, …) where it has one. */
export class WriteError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'WriteError';
  }
}

export interface WriteThread {
  call<T = void>(op: string, args?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

interface Reply {
  id: number;
  value?: unknown;
  error?: { code?: string; message: string };
}

type Waiting = Map<number, { done: (v: unknown) => void; fail: (e: Error) => void }>;

export function writeThread(file: string, opts: WriteThreadOptions): WriteThread {
  /** The thread and its calls not yet answered (a thread that dies fails only its own). */
  let thread: { w: Worker; waiting: Waiting } | undefined;
  let next = 0;

  function start(): { w: Worker; waiting: Waiting } {
    const w = new Worker(new URL('./write-worker.mjs', import.meta.url), {
      workerData: { file, nice: BACKGROUND_NICE, ...opts },
    });
    const waiting: Waiting = new Map();
    const failAll = (err: Error) => {
      for (const call of waiting.values()) call.fail(err);
      waiting.clear();
    };
    w.on('message', (r: Reply) => {
      const call = waiting.get(r.id);
      if (!call) return;
      waiting.delete(r.id);
      if (waiting.size === 0) w.unref();
      if (r.error) call.fail(new WriteError(r.error.message, r.error.code));
      else call.done(r.value);
    });
    w.on('error', (err) =>
      failAll(new WriteError(`the SQLite write thread failed: ${err.message}`)),
    );
    w.on('exit', () => {
      if (thread?.w === w) thread = undefined;
      failAll(new WriteError('the SQLite write thread exited'));
    });
    return { w, waiting };
  }
  function call<T>(op: string, args?: Record<string, unknown>): Promise<T> {
    const { w, waiting } = (thread ??= start());
    const id = next++;
    w.ref();
    return new Promise<T>((done, fail) => {
      waiting.set(id, { done: done as (v: unknown) => void, fail });
      w.postMessage({ ...args, id, op });
    });
  }
  return {
    call,
    /** Its connection closed (the thread then ends by itself). */
    async close() {
      if (!thread) return;
      await call('close').catch(() => undefined);
      thread = undefined;
    },
  };
}
