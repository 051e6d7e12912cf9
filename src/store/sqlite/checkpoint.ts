/**
 * WAL checkpoints off the event loop. SQLite checkpoints on the connection that commits once the WAL
 * passes `wal_autocheckpoint` pages, inside the COMMIT call: after a 100,000-contact import that is
 * the whole import copied into the database file and synced, 0.4-0.6 s of a synchronous call on the
 * thread that serves searches (the COMMIT alone: 77 ms; measured on a copy of the 1M database on the
 * loaded 2-core VM). So the store turns automatic checkpoints off on its connection and, after a
 * commit that leaves the WAL past the same size, runs a PASSIVE checkpoint on a worker thread with a
 * connection of its own (it waits for no reader or writer; what it cannot copy yet, the next one does).
 */
import { Worker } from 'node:worker_threads';

/** SQLite's default wal_autocheckpoint: pages written to the WAL and not yet to the database file. */
const CHECKPOINT_FROM_FRAMES = 1000;

/** The worker's code: better-sqlite3 (resolved here) on the file, one PASSIVE checkpoint. */
function workerCode(): string {
  const sqlite = JSON.stringify(import.meta.resolve('better-sqlite3'));
  return `import Database from ${sqlite};
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
try { setPriority(10); } catch {}
const db = new Database(workerData, { fileMustExist: true });
try {
  db.pragma('busy_timeout = 5000');
  parentPort.postMessage(db.pragma('wal_checkpoint(PASSIVE)'));
} finally {
  db.close();
}`;
}

export interface Checkpointer {
  /** After a commit: a checkpoint on a worker when the WAL is past the size and none runs. */
  committed(): void;
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
  return {
    committed() {
      if (running || framesBehind() < CHECKPOINT_FROM_FRAMES) return;
      const worker = new Worker(
        new URL(`data:text/javascript,${encodeURIComponent(workerCode())}`),
        { workerData: file },
      );
      running = new Promise<void>((done) => {
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
      });
    },
    idle: () => running ?? Promise.resolve(),
  };
}
