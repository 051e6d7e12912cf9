/**
 * A worker thread for a short SQLite job off the event loop (checkpoint.ts, kept-count.ts): plain
 * JavaScript from a data: URL, with no tsx to load (a worker's start is on the job's path), given in
 * scope `Database` (better-sqlite3, resolved here), `parentPort`, `workerData`, and
 * `tryWriteLock(db)`: BEGIN IMMEDIATE without waiting, false when another connection holds the lock.
 */
import { Worker } from 'node:worker_threads';

export function sqliteWorker(body: string, workerData: unknown): Worker {
  const code = `import Database from ${JSON.stringify(import.meta.resolve('better-sqlite3'))};
import { parentPort, workerData } from 'node:worker_threads';
function tryWriteLock(db) {
  db.pragma('busy_timeout = 0');
  try { db.exec('BEGIN IMMEDIATE'); return true; }
  catch (err) { if (err.code !== 'SQLITE_BUSY') throw err; return false; }
}
${body}`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), { workerData });
}
