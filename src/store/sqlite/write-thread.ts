/**
 * The thread a SQLite store writes on (write-worker.mjs). better-sqlite3's calls are synchronous: on
 * the thread that answers searches, a 100,000-contact import's inserts were seconds of CPU taken in
 * slices, and its COMMIT one call of 46–130 ms at 1M (docs/perf-log/2026-11-29-tails.md: the dirty
 * pages written out, whatever the page cache's size). On a connection of its own thread they cost the
 * event loop a message each; the event loop awaits them. The thread starts at the store's first write
 * and is referenced only while a call waits (an idle one keeps no process alive). With no call waiting
 * and no transaction open for `idleMs` it closes its connection and ends: an isolate and SQLite's page
 * cache, ~12 MB, are not kept for a store written once a day (docs/perf-log/2026-12-02-idle-thread.md);
 * the next write starts another, its start on that thread, not on the event loop. One that dies fails
 * its waiting calls (its connection, closed, rolled back what was open); the next write starts another.
 */
import { Worker } from 'node:worker_threads';
import { BACKGROUND_NICE } from '../../nicer.mjs';

export interface WriteThreadOptions {
  /** How long BEGIN IMMEDIATE waits for another connection's write lock (SQLite's busy_timeout). */
  lockWaitMs: number;
  /** Whether SQLite checkpoints inside COMMIT (false: checkpoint.ts runs them on a worker of their own). */
  autoCheckpoint: boolean;
  /** How long an idle thread (no call waiting, no transaction open) lives on (default WRITE_IDLE_MS). */
  idleMs?: number;
}

/** How long an idle write thread lives on: an import's next transaction, moments later, reuses it. */
export const WRITE_IDLE_MS = 30_000;

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

type Waiting = Map<number, { op: string; done: (v: unknown) => void; fail: (e: Error) => void }>;

export function writeThread(file: string, opts: WriteThreadOptions): WriteThread {
  const { idleMs = WRITE_IDLE_MS, ...shared } = opts;
  /**
   * The thread, its calls not yet answered (a thread that dies fails only its own), and whether a
   * transaction is open on it: from a `begin` sent to its `rollback` answered or `commit` done.
   */
  let thread: { w: Worker; waiting: Waiting; open: boolean } | undefined;
  let next = 0;
  let idle: NodeJS.Timeout | undefined;

  /** Nothing waits and no transaction is open: the thread ends after `idleMs` unless called again. */
  function settle(t: NonNullable<typeof thread>) {
    clearTimeout(idle);
    if (t.waiting.size || t.open) return;
    idle = setTimeout(() => {
      if (thread !== t || t.waiting.size || t.open) return;
      thread = undefined; // a call from now on starts another: none is sent to this one after its close
      t.w.postMessage({ id: -1, op: 'close' });
    }, idleMs).unref();
  }

  function start(): NonNullable<typeof thread> {
    const w = new Worker(new URL('./write-worker.mjs', import.meta.url), {
      workerData: { file, nice: BACKGROUND_NICE, ...shared },
    });
    const waiting: Waiting = new Map();
    const t = { w, waiting, open: false };
    const failAll = (err: Error) => {
      for (const call of waiting.values()) call.fail(err);
      waiting.clear();
    };
    w.on('message', (r: Reply) => {
      const call = waiting.get(r.id);
      if (!call) return;
      waiting.delete(r.id);
      if (waiting.size === 0) w.unref();
      // A failed begin opened nothing; a failed commit leaves the transaction open for its rollback.
      if (call.op === 'rollback' || (r.error ? call.op === 'begin' : call.op === 'commit'))
        t.open = false;
      settle(t);
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
    return t;
  }
  function call<T>(op: string, args?: Record<string, unknown>): Promise<T> {
    const t = (thread ??= start());
    clearTimeout(idle);
    if (op === 'begin') t.open = true;
    const id = next++;
    t.w.ref();
    return new Promise<T>((done, fail) => {
      t.waiting.set(id, { op, done: done as (v: unknown) => void, fail });
      t.w.postMessage({ ...args, id, op });
    });
  }
  return {
    call,
    /** Its connection closed (the thread then ends by itself). */
    async close() {
      if (!thread) return;
      clearTimeout(idle);
      await call('close').catch(() => undefined);
      thread = undefined;
    },
  };
}
