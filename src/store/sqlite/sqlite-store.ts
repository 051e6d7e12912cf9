/**
 * SQLite store of record (CONTRACT.md §9): one file per database, WAL with synchronous=FULL so a
 * committed write survives a crash, every write in one transaction. A big write goes in slices with
 * the event loop let through between them (searches are served from memory and keep answering); the
 * transaction stays open across the slices and calls, so a crash or an error leaves none of it. The
 * caller serialises writes (ContactDatabase's queue): nothing else writes on the connection while a
 * transaction is open.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Contact, SavedSearch } from '../../fields/contact.ts';
import {
  FEED_KEEP,
  FeedRecorder,
  foldFeed,
  inTransaction,
  StoreUnavailable,
  type ContactStore,
  type StoreTransaction,
} from '../store.ts';
import { nextTurn, timeSlice } from '../../next-turn.ts';
import { checkpointer } from './checkpoint.ts';
import { watchWal } from './wal-header.ts';
import { addKeptCount, countOnWorker, hasKeptCount } from './kept-count.ts';

const SCHEMA_VERSION = 3; // 2: the changes table (the change feed); 3: contact_count (kept-count.ts)
/** How long a write waits for another process's write lock before it fails (the request budget's length). */
const WRITE_LOCK_WAIT_MS = 30_000;
/** Rows a transaction writes from which its WAL frames are synced before COMMIT (flushWal). */
const FLUSH_FROM_ROWS = 5_000;

export interface SqliteStoreOptions {
  /** A write waits this long for another writer's lock, then fails Unavailable (the server: limits.requestMs). */
  lockWaitMs?: number;
  /** Where a failed background checkpoint is reported (checkpoint.ts). */
  warn?: (msg: string) => void;
}

export function openSqliteStore(file: string, opts: SqliteStoreOptions = {}): ContactStore {
  const lockWaitMs = opts.lockWaitMs ?? WRITE_LOCK_WAIT_MS;
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION)
    throw new Error(
      `${file} has schema version ${version}; this build reads up to ${SCHEMA_VERSION}: run a newer build, or configure another file`,
    );
  db.exec(`CREATE TABLE IF NOT EXISTS contacts (contact_id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL) WITHOUT ROWID;
           CREATE TABLE IF NOT EXISTS saved_searches (name_key TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL);
           CREATE TABLE IF NOT EXISTS changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, writer TEXT NOT NULL, kind TEXT NOT NULL, key TEXT);
           `);
  // Written only when it changes: the write would wait for another process's write lock.
  if (version === 0) addKeptCount(db);
  else if (version < 2) db.pragma('user_version = 2');

  // The ids a Replace keeps, per connection; filled and emptied inside the import's transaction.
  db.exec('CREATE TEMP TABLE IF NOT EXISTS keep_ids (id TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID');
  // Two statements, not one upsert, to know a new row from a replaced one (the kept count). Each
  // put tries first what the last one was (an import is mostly new contacts or mostly known ones),
  // so only a guess that misses costs a second lookup.
  const insertNew = db.prepare(
    'INSERT INTO contacts (contact_id, doc) VALUES (?, ?) ON CONFLICT (contact_id) DO NOTHING',
  );
  const replace = db.prepare('UPDATE contacts SET doc = ? WHERE contact_id = ?');
  const del = db.prepare('DELETE FROM contacts WHERE contact_id = ?');
  const keep = db.prepare('INSERT OR IGNORE INTO keep_ids (id) VALUES (?)');
  const deleteOthers = db.prepare(
    'DELETE FROM contacts WHERE contact_id NOT IN (SELECT id FROM keep_ids)',
  );
  const page = db.prepare(
    'SELECT contact_id, doc FROM contacts WHERE contact_id > ? ORDER BY contact_id LIMIT ?',
  );
  const byIds = db
    .prepare('SELECT doc FROM contacts WHERE contact_id IN (SELECT value FROM json_each(?))')
    .pluck();
  let keptCount: Database.Statement | undefined, addCount: Database.Statement | undefined;

  // The change feed (ChangeFeed in store.ts): rows written in each write's own transaction.
  const writer = randomUUID();
  const feedRow = db.prepare('INSERT INTO changes (writer, kind, key) VALUES (?, ?, ?)');
  const feedHead = db.prepare('SELECT coalesce(max(seq), 0) FROM changes').pluck();
  const feedRows = db.prepare('SELECT writer, kind, key FROM changes WHERE seq > ? AND seq <= ?');
  const feedPrune = db.prepare('DELETE FROM changes WHERE seq <= ?');
  // Asked before every answer: the wal-index header (one pread), else PRAGMA data_version (wal-header.ts says why).
  const wal = watchWal(file);
  // Checkpoints on a worker thread, not inside a COMMIT here (checkpoint.ts); without the wal-index
  // to tell how far behind the file is, SQLite's own automatic ones stay.
  const checkpoints = wal && checkpointer(file, () => wal.framesBehind(), opts.warn ?? (() => {}));
  if (checkpoints) db.pragma('wal_autocheckpoint = 0');
  const moved = wal ? () => wal.moved() : dataVersionWatch(db);
  const readFeed = db.transaction((seq: number) => {
    const head = feedHead.get() as number;
    return foldFeed(
      seq,
      head,
      feedRows.all(seq, head) as Array<{ writer: string; kind: string; key: string | null }>,
      writer,
    );
  });
  /** One saved-search statement in a transaction of its own, with its feed row. */
  async function savedWrite(run: () => number, nameKey: string): Promise<number> {
    const tx = await openTransaction();
    return inTransaction(tx, () => {
      const changed = run();
      tx.wrote.saved(nameKey);
      return changed;
    });
  }

  /**
   * Takes the write lock without blocking the event loop: another process (a worker, the import CLI)
   * may hold it for as long as its import runs, and better-sqlite3's busy wait would freeze every
   * search of this process meanwhile. So the attempt does not wait (busy_timeout 0) and is retried
   * on timers, up to `lockWaitMs`; then the write fails with StoreUnavailable (nothing written).
   */
  async function beginImmediate(): Promise<void> {
    const until = Date.now() + lockWaitMs;
    for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
      db.pragma('busy_timeout = 0');
      try {
        db.exec('BEGIN IMMEDIATE');
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
        if (Date.now() > until)
          throw new StoreUnavailable(
            `the SQLite file is locked by another writer (waited ${lockWaitMs} ms)`,
          );
      } finally {
        db.pragma('busy_timeout = 5000');
      }
      await new Promise((done) => setTimeout(done, pause));
    }
  }

  /** Runs `one` per item, letting the event loop through every few milliseconds. */
  async function each<T>(items: Iterable<T>, one: (item: T) => void): Promise<void> {
    const due = timeSlice();
    for (const item of items) {
      one(item);
      if (due()) await nextTurn();
    }
  }

  /**
   * The frames a transaction wrote to the WAL so far, put on disk by the thread pool: COMMIT's own
   * fsync (synchronous=FULL) then has only its last frames left. A 100,000-contact import's COMMIT
   * held this thread 56-67 ms, nearly all of it that fsync (bench:live --via wire at 1M). Durability
   * is COMMIT's as before; this only moves the waiting off the event loop. Only for a write of
   * FLUSH_FROM_ROWS or more (a small one would pay two fsyncs for one). A file that cannot be opened
   * (no WAL yet) is left to COMMIT.
   */
  async function flushWal(): Promise<void> {
    const wal = await open(`${file}-wal`, 'r').catch(() => undefined);
    if (!wal) return;
    try {
      await wal.datasync();
    } catch {
      // COMMIT syncs anyway
    } finally {
      await wal.close();
    }
  }

  /** The write lock taken; commit writes the feed rows of what was recorded, then commits. */
  async function openTransaction() {
    await checkpoints?.beforeWrite(); // the WAL started again off this thread (checkpoint.ts)
    await beginImmediate();
    const wrote = new FeedRecorder();
    /** Rows added less rows deleted by this transaction; whether its last put replaced a row. */
    const net = { n: 0, replacing: false };
    return {
      wrote,
      net,
      async commit() {
        // Read under the write lock: another process may have added the kept count since the open.
        if (net.n !== 0 && hasKeptCount(db))
          (addCount ??= db.prepare('UPDATE contact_count SET n = n + ?')).run(net.n);
        const rows = wrote.rows();
        for (const [kind, key] of rows) feedRow.run(writer, kind, key);
        if (rows.length) feedPrune.run((feedHead.get() as number) - FEED_KEEP);
        if (wrote.touched >= FLUSH_FROM_ROWS) await flushWal();
        db.exec('COMMIT');
        checkpoints?.committed();
      },
      async rollback() {
        if (db.inTransaction) db.exec('ROLLBACK');
      },
    };
  }

  /** The contacts counted on a worker (kept-count.ts), the kept count added or set anew where it can be. */
  async function counting(recount: boolean): Promise<number> {
    return countOnWorker(file, recount).catch(
      () => db.prepare('SELECT count(*) FROM contacts').pluck().get() as number, // no worker: here, as before
    );
  }

  async function begin(): Promise<StoreTransaction> {
    const { wrote, net, commit, rollback } = await openTransaction();
    return {
      put: (contacts) =>
        each(contacts, (c) => {
          const doc = JSON.stringify(c);
          if (net.replacing && replace.run(doc, c.ContactId).changes) {
            // replaced, as the last one was
          } else if (insertNew.run(c.ContactId, doc).changes) {
            net.n++;
            net.replacing = false;
          } else {
            replace.run(doc, c.ContactId);
            net.replacing = true;
          }
          wrote.touch(c.ContactId);
        }),
      delete: (ids) =>
        each(ids, (id) => {
          net.n -= del.run(id).changes;
          wrote.touch(id);
        }),
      async deleteAllExcept(ids) {
        await each(ids, (id) => keep.run(id));
        const n = deleteOthers.run().changes;
        net.n -= n;
        db.exec('DELETE FROM keep_ids');
        wrote.everything();
        return n;
      },
      segment(nonce) {
        wrote.segment = nonce;
      },
      commit,
      rollback,
    };
  }

  return {
    backend: 'sqlite',
    file,
    async *loadAll(batchSize = 10_000) {
      let after = '';
      for (;;) {
        const rows = page.all(after, batchSize) as { contact_id: string; doc: string }[];
        if (rows.length === 0) return;
        yield rows.map((r) => JSON.parse(r.doc) as Contact);
        after = rows[rows.length - 1].contact_id;
      }
    },
    async get(ids) {
      return (byIds.all(JSON.stringify(ids)) as string[]).map((doc) => JSON.parse(doc) as Contact);
    },
    async count() {
      // Another process may have added it since; else it is added (or, the write lock held, the
      // contacts only counted) on a worker: kept-count.ts.
      if (!hasKeptCount(db)) return counting(false);
      keptCount ??= db.prepare('SELECT n FROM contact_count').pluck();
      return keptCount.get() as number;
    },
    recount: () => counting(true),
    begin,
    async listSavedSearches() {
      return (
        db.prepare('SELECT doc FROM saved_searches ORDER BY name_key').all() as { doc: string }[]
      ).map((r) => JSON.parse(r.doc) as SavedSearch);
    },
    async putSavedSearch(s) {
      const put = db.prepare(
        'INSERT INTO saved_searches (name_key, doc) VALUES (?, ?) ON CONFLICT (name_key) DO UPDATE SET doc = excluded.doc',
      );
      await savedWrite(
        () => put.run(s.Name.toLowerCase(), JSON.stringify(s)).changes,
        s.Name.toLowerCase(),
      );
    },
    async deleteSavedSearch(name) {
      const del = db.prepare('DELETE FROM saved_searches WHERE name_key = ?');
      return (await savedWrite(() => del.run(name.toLowerCase()).changes, name.toLowerCase())) > 0;
    },
    feed: {
      moved,
      async head() {
        return feedHead.get() as number;
      },
      async since(seq) {
        return readFeed(seq);
      },
    },
    async describe() {
      let bytes = 0;
      try {
        bytes = statSync(file).size;
      } catch {
        /* not yet flushed */
      }
      return { Backend: 'sqlite', StorageBytes: bytes, JournalMode: 'wal' };
    },
    async close() {
      await checkpoints?.idle();
      db.close();
      wal?.close(); // after SQLite's own descriptors: see wal-header.ts
    },
  };
}

/** The fallback of ChangeFeed.moved: `PRAGMA data_version` moves when another connection commits. */
function dataVersionWatch(db: Database.Database): () => boolean {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seen: unknown;
  return () => {
    const v = dataVersion.get();
    if (v === seen) return false;
    seen = v;
    return true;
  };
}
