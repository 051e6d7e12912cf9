/**
 * Schema version 3 (sqlite-store.ts): the contacts' row count in a one-row table, `contact_count`,
 * moved by each write transaction by the rows it added less those it deleted, so that `count` reads
 * one row. SQLite's count(*) reads every page of the table, and the documents live in it: at a
 * start, on the thread that answers requests, twice (1M contacts: 0.4 s with the file in the page
 * cache, 1.3 s without; 10M: 2.7 and 21.8 s). Triggers would keep it for any writer but cost ~17 µs
 * a row written (an import 70–80% slower: docs/perf-log/2026-11-29-count.md); an older build, which
 * would write without moving it, refuses a version-3 file instead.
 *
 * A new file gets the table at its open. An older one is counted once, by the first `count`, on a
 * worker thread with a connection of its own, in the transaction that adds the table: that count is
 * the same full read, and on this thread it would hold the loop (and a supervisor's health probe)
 * for as long, once, at the first start after an upgrade. A kept count that disagrees with an index
 * is counted anew the same way (`recount`: database/rebuilds.ts countAgrees).
 */
import type Database from 'better-sqlite3';
import { sqliteWorker } from './sqlite-worker.ts';

/** Adds the table (or sets it anew: a recount), counted; inside a write transaction. */
const ADD = `CREATE TABLE IF NOT EXISTS contact_count (n INTEGER NOT NULL);
DELETE FROM contact_count;
INSERT INTO contact_count (n) SELECT count(*) FROM contacts;
PRAGMA user_version = 3;`;

/** Whether the file holds the kept count (its schema version is 3). */
export const hasKeptCount = (db: Database.Database): boolean =>
  (db.pragma('user_version', { simple: true }) as number) >= 3;

/** Adds it to a file just made (its contacts table empty: nothing to read). */
export const addKeptCount = (db: Database.Database): void =>
  db
    .transaction(() => {
      if (!hasKeptCount(db)) db.exec(ADD);
    })
    .immediate();

/**
 * The worker's job (sqlite-worker.ts), `{ file, recount }` its data. With the write lock free, adds
 * the kept count, or with `recount` counts it anew; with the lock held by another process, only
 * counts (a read, no lock), and a later call tries again.
 */
const JOB = `const db = new Database(workerData.file, { fileMustExist: true });
try {
  if (!tryWriteLock(db)) parentPort.postMessage(db.prepare('SELECT count(*) FROM contacts').pluck().get());
  else {
    try {
      if (workerData.recount || db.pragma('user_version', { simple: true }) < 3) db.exec(${JSON.stringify(ADD)});
      const n = db.prepare('SELECT n FROM contact_count').pluck().get();
      db.exec('COMMIT');
      parentPort.postMessage(n);
    } catch (err) { db.exec('ROLLBACK'); throw err; }
  }
} finally {
  db.close();
}`;

/** The contacts of `file` counted on a worker thread, the kept count added (with `recount`: set anew) when it could be. */
export function countOnWorker(file: string, recount = false): Promise<number> {
  const worker = sqliteWorker(JOB, { file, recount });
  return new Promise((done, fail) => {
    let answer: number | undefined;
    worker.once('message', (n: number) => (answer = n));
    worker.once('error', fail);
    worker.once('exit', () =>
      answer !== undefined
        ? done(answer)
        : fail(new Error('the count worker exited without a count')),
    );
  });
}
