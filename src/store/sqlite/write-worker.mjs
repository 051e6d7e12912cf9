/**
 * The SQLite store's writes, on a thread of their own (write-thread.ts says why): one connection that
 * takes the write lock, writes a transaction's rows as they arrive and commits it. Plain JavaScript,
 * so the thread starts without tsx. Messages are `{ id, op, ... }`, answered `{ id, value }` or
 * `{ id, error: { code, message } }` in the order they came. Once a call of a transaction fails,
 * every later one but `rollback` fails the same: nothing is committed after an error.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { nicer } from '../../nicer.mjs';

const { file, lockWaitMs, autoCheckpoint, nice } = workerData;
nicer(nice ?? 0); // searches' thread first: an import's inserts wait for a spare core
const db = new Database(file, { fileMustExist: true });
db.pragma('synchronous = FULL');
if (!autoCheckpoint) db.pragma('wal_autocheckpoint = 0'); // checkpoints on their own thread (checkpoint.ts)
db.exec('CREATE TEMP TABLE IF NOT EXISTS keep_ids (id TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID');

// Two statements, not one upsert, to know a new row from a replaced one (the kept count). Each put
// tries first what the last one was (an import is mostly new contacts or mostly known ones), so only
// a guess that misses costs a second lookup.
const insertNew = db.prepare(
  'INSERT INTO contacts (contact_id, doc) VALUES (?, ?) ON CONFLICT (contact_id) DO NOTHING',
);
const replace = db.prepare('UPDATE contacts SET doc = ? WHERE contact_id = ?');
const del = db.prepare('DELETE FROM contacts WHERE contact_id = ?');
const keep = db.prepare('INSERT OR IGNORE INTO keep_ids (id) VALUES (?)');
const deleteOthers = db.prepare(
  'DELETE FROM contacts WHERE contact_id NOT IN (SELECT id FROM keep_ids)',
);
const putSaved = db.prepare(
  'INSERT INTO saved_searches (name_key, doc) VALUES (?, ?) ON CONFLICT (name_key) DO UPDATE SET doc = excluded.doc',
);
const deleteSaved = db.prepare('DELETE FROM saved_searches WHERE name_key = ?');
const feedRow = db.prepare('INSERT INTO changes (writer, kind, key) VALUES (?, ?, ?)');
const feedPrune = db.prepare('DELETE FROM changes WHERE seq <= (SELECT max(seq) FROM changes) - ?');
let addCount;

/** The open transaction: rows added less rows deleted, whether its last put replaced a row, its first error. */
let tx;

const ops = {
  begin() {
    // The wait for another connection's lock is this thread's: busy_timeout, not timers.
    db.pragma(`busy_timeout = ${lockWaitMs}`);
    try {
      db.exec('BEGIN IMMEDIATE');
    } finally {
      db.pragma('busy_timeout = 5000');
    }
    tx = { n: 0, replacing: false, failed: undefined };
  },
  put({ ids, docs }) {
    for (let i = 0; i < ids.length; i++) {
      if (tx.replacing && replace.run(docs[i], ids[i]).changes) continue; // replaced, as the last one was
      if (insertNew.run(ids[i], docs[i]).changes) {
        tx.n++;
        tx.replacing = false;
      } else {
        replace.run(docs[i], ids[i]);
        tx.replacing = true;
      }
    }
  },
  delete({ ids }) {
    for (const id of ids) tx.n -= del.run(id).changes;
  },
  keep({ ids }) {
    for (const id of ids) keep.run(id);
  },
  deleteOthers() {
    const n = deleteOthers.run().changes;
    tx.n -= n;
    db.exec('DELETE FROM keep_ids');
    return n;
  },
  saved({ key, doc }) {
    return doc === undefined ? deleteSaved.run(key).changes : putSaved.run(key, doc).changes;
  },
  /**
   * The kept count moved (where the file has it: `keptCount`), the feed rows (FeedRecorder.rows)
   * written and all but the newest `keep` pruned, then COMMIT.
   */
  commit({ writer, rows, keep: feedKeep, keptCount }) {
    if (tx.n !== 0 && keptCount)
      (addCount ??= db.prepare('UPDATE contact_count SET n = n + ?')).run(tx.n);
    for (const [kind, key] of rows) feedRow.run(writer, kind, key);
    if (rows.length) feedPrune.run(feedKeep);
    db.exec('COMMIT');
    tx = undefined;
  },
  rollback() {
    if (db.inTransaction) db.exec('ROLLBACK');
    tx = undefined;
  },
};

parentPort.on('message', (m) => {
  if (m.op === 'close') {
    if (db.inTransaction) db.exec('ROLLBACK');
    db.close();
    parentPort.postMessage({ id: m.id });
    parentPort.close();
    return;
  }
  try {
    if (m.op !== 'begin' && m.op !== 'rollback') {
      if (!tx) throw new Error(`no open transaction for ${m.op}`);
      if (tx.failed) throw tx.failed;
    }
    parentPort.postMessage({ id: m.id, value: ops[m.op](m) });
  } catch (err) {
    const error = { code: err.code, message: err.message };
    if (tx && m.op !== 'rollback') tx.failed ??= error;
    parentPort.postMessage({ id: m.id, error });
  }
});
