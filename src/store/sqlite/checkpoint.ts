/**
 * WAL checkpoints off the event loop. SQLite checkpoints on the connection that commits once the WAL
 * passes `wal_autocheckpoint` pages, inside the COMMIT call: after a 100,000-contact import that is
 * the whole import copied into the database file and synced, 0.4-0.6 s of a synchronous call on the
 * thread that serves searches (the COMMIT alone: 77 ms; measured on a copy of the 1M database on the
 * loaded 2-core VM). So the store turns automatic checkpoints off on its connection and, after a
 * commit that leaves the WAL past the same size, runs a PASSIVE checkpoint on a worker thread with a
 * connection of its own (it waits for no reader or writer; what it cannot copy yet, the next one does).
 *
 * A checkpoint that copied every frame leaves the WAL to be started again from its beginning by the
 * next write: SQLite writes a new WAL header then and fsyncs it, inside the statement that first
 * writes a page — on the event loop, and as long as the disk takes: 210 ms once, at the start of a
 * 100,000-contact import into 1M (bench:live --via wire --fresh with the page cache dropped, `perf
 * trace`: the WAL's fsync on the main thread; the watchdog saw the loop blocked 147–192 ms). So the
 * worker starts it again itself: one write of page 1 as it is (the schema version set to what it
 * reads, under the write lock), which the restart and its fsync come with. The next write of the
 * store then appends to a WAL that has a frame, and syncs only at its COMMIT. The same before a
 * store's first write since it opened (an empty WAL: `beforeWrite`). Not when another writer holds
 * the lock (busy_timeout 0: that writer starts it, as before). The store's writes are on a thread of
 * their own now (write-thread.ts), so neither would hold the event loop any more; this keeps the
 * restart's fsync out of the first statement of an import's transaction all the same.
 */
import { sqliteWorker } from './sqlite-worker.ts';

/** SQLite's default wal_autocheckpoint: pages written to the WAL and not yet to the database file. */
const CHECKPOINT_FROM_FRAMES = 1000;

/** The worker's job (sqlite-worker.ts): one PASSIVE checkpoint, the WAL started again when it copied every frame. */
const JOB = `import { setPriority } from 'node:os';
try { setPriority(10); } catch {}
const db = new Database(workerData, { fileMustExist: true });
try {
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = FULL');
  const [done] = db.pragma('wal_checkpoint(PASSIVE)');
  if (done.busy === 0 && done.checkpointed === done.log && tryWriteLock(db)) {
    try {
      db.pragma('user_version = ' + Number(db.pragma('user_version', { simple: true })));
      db.exec('COMMIT');
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
    }
  }
  parentPort.postMessage(done);
} finally {
  db.close();
}`;

export interface Checkpointer {
  /** After a commit: a checkpoint on a worker when the WAL is past the size and none runs. */
  committed(): void;
  /**
   * Before a write transaction: when every frame of the WAL is copied (or none was written since the
   * open), the write would start the WAL again on this thread; a worker does it first.
   */
  beforeWrite(): Promise<void>;
  /** Resolves once a running checkpoint ended (close waits for it: the worker holds the file open). */
  idle(): Promise<void>;
}

/** `framesBehind`: the WAL's frames not yet checkpointed (wal-header.ts, read from the wal-index). */
export function checkpointer(
  file: string,
  framesBehind: () => number,
  warn: (msg: string) => void,
): Checkpointer {
  let running: Promise<void> | undefined;
  let failed = false;
  function start(): Promise<void> {
    const worker = sqliteWorker(JOB, file);
    return (running = new Promise<void>((done) => {
      worker.once('message', () => {
        failed = false;
      });
      worker.once('error', (err) => {
        if (!failed) warn(`WAL checkpoint on a worker thread failed: ${err.message}`);
        failed = true;
      });
      worker.once('exit', () => {
        running = undefined;
        done();
      });
    }));
  }
  return {
    committed() {
      if (!running && framesBehind() >= CHECKPOINT_FROM_FRAMES) void start();
    },
    async beforeWrite() {
      // A running checkpoint starts the WAL when it is done; a worker that failed: as before, here.
      if (!failed && framesBehind() === 0) await (running ?? start());
    },
    idle: () => running ?? Promise.resolve(),
  };
}
