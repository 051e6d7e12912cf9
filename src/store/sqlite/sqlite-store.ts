/**
 * SQLite store of record (CONTRACT.md §9): one file per database, WAL with synchronous=FULL so a
 * committed write survives a crash, every write in one transaction. Reads are on this thread's
 * connection; writes on a connection of their own thread (write-thread.ts), the rows sent to it a
 * time slice at a time while searches keep answering; the transaction stays open across the slices
 * and calls, so a crash or an error leaves none of it. The caller serialises writes
 * (ContactDatabase's queue): one transaction at a time per store.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SavedSearch } from '../../fields/contact.ts';
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
import { writeThread } from './write-thread.ts';
import { storedContact } from '../../fields/stored.ts';

const SCHEMA_VERSION = 3; // 2: the changes table (the change feed); 3: contact_count (kept-count.ts)
/** How long a write waits for another process's write lock before it fails (the request budget's length). */
const WRITE_LOCK_WAIT_MS = 30_000;

export interface SqliteStoreOptions {
  /** A write waits this long for another writer's lock, then fails Unavailable (the server: limits.requestMs). */
  lockWaitMs?: number;
  /** Where a failed background checkpoint is reported (checkpoint.ts). */
  warn?: (msg: string) => void;
  /** How long the write thread lives on idle (write-thread.ts WRITE_IDLE_MS). */
  writeIdleMs?: number;
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

  const page = db.prepare(
    'SELECT contact_id, doc FROM contacts WHERE contact_id > ? ORDER BY contact_id LIMIT ?',
  );
  const byIds = db
    .prepare(
      'SELECT contact_id, doc FROM contacts WHERE contact_id IN (SELECT value FROM json_each(?))',
    )
    .raw();
  let keptCount: Database.Statement | undefined;

  // The change feed (ChangeFeed in store.ts): rows written in each write's own transaction.
  const writer = randomUUID();
  const feedHead = db.prepare('SELECT coalesce(max(seq), 0) FROM changes').pluck();
  const feedRows = db.prepare('SELECT writer, kind, key FROM changes WHERE seq > ? AND seq <= ?');
  // Asked before every answer: the wal-index header (one pread), else PRAGMA data_version (wal-header.ts says why).
  const wal = watchWal(file);
  // Checkpoints on a worker thread, not inside a COMMIT here (checkpoint.ts); without the wal-index
  // to tell how far behind the file is, SQLite's own automatic ones stay.
  const checkpoints = wal && checkpointer(file, () => wal.framesBehind(), opts.warn ?? (() => {}));
  if (checkpoints) db.pragma('wal_autocheckpoint = 0');
  const writes = writeThread(file, {
    lockWaitMs,
    autoCheckpoint: !checkpoints,
    idleMs: opts.writeIdleMs,
  });
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
  /** One saved search put (with its document) or deleted, in a transaction of its own with its feed row. */
  async function savedWrite(key: string, doc?: string): Promise<number> {
    const tx = await openTransaction();
    return inTransaction(tx, async () => {
      const changed = await writes.call<number>('saved', { key, doc });
      tx.wrote.saved(key);
      return changed;
    });
  }

  /**
   * Takes the write lock on the write thread, which waits up to `lockWaitMs` for another process's
   * (a worker, the import CLI) while this thread answers searches; then the write fails with
   * StoreUnavailable (nothing written). Commit writes the feed rows of what was recorded, then commits.
   */
  async function openTransaction() {
    await checkpoints?.beforeWrite(); // the WAL started again off the write thread too (checkpoint.ts)
    try {
      await writes.call('begin');
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
      throw new StoreUnavailable(
        `the SQLite file is locked by another writer (waited ${lockWaitMs} ms)`,
      );
    }
    const wrote = new FeedRecorder();
    return {
      wrote,
      async commit() {
        // Read with the write lock held by the thread: another process may have added the kept
        // count since the open, and none can until this commits.
        const keptCount = hasKeptCount(db);
        await writes.call('commit', { writer, rows: wrote.rows(), keep: FEED_KEEP, keptCount });
        checkpoints?.committed();
      },
      rollback: () => writes.call('rollback'),
    };
  }

  /** The contacts counted on a worker (kept-count.ts), the kept count added or set anew where it can be. */
  async function counting(recount: boolean): Promise<number> {
    return countOnWorker(file, recount).catch(
      () => db.prepare('SELECT count(*) FROM contacts').pluck().get() as number, // no worker: here, as before
    );
  }

  async function begin(): Promise<StoreTransaction> {
    const { wrote, commit, rollback } = await openTransaction();
    /**
     * The last batch sent and not yet answered: a call returns with at most one batch on the write
     * thread, so the next slice (an import's next rows) is made while the thread writes this one.
     */
    let inFlight: Promise<unknown> = Promise.resolve();
    /** Sends `items` in batches of a time slice's worth each, made by `add` on this thread. */
    async function send<T>(
      op: string,
      items: Iterable<T>,
      add: (item: T, ids: string[], docs: string[]) => void,
    ): Promise<void> {
      const due = timeSlice();
      let ids: string[] = [],
        docs: string[] = [];
      const flush = async () => {
        const before = inFlight;
        inFlight = writes.call(op, { ids, docs });
        inFlight.catch(() => undefined); // answered by the next call's await
        ids = [];
        docs = [];
        await before;
      };
      for (const item of items) {
        add(item, ids, docs);
        if (due()) {
          await flush();
          await nextTurn();
        }
      }
      if (ids.length) await flush();
    }
    return {
      put: (contacts) =>
        send('put', contacts, (c, ids, docs) => {
          ids.push(c.ContactId);
          docs.push(JSON.stringify(c));
          wrote.touch(c.ContactId);
        }),
      delete: (ids) =>
        send('delete', ids, (id, out) => {
          out.push(id);
          wrote.touch(id);
        }),
      async deleteAllExcept(ids) {
        await send('keep', ids, (id, out) => out.push(id));
        await inFlight; // every id kept (the first error thrown)
        const n = await writes.call<number>('deleteOthers');
        wrote.everything();
        return n;
      },
      segment(nonce) {
        wrote.segment = nonce;
      },
      async commit() {
        await inFlight;
        await commit();
      },
      async rollback() {
        await inFlight.catch(() => undefined);
        await rollback();
      },
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
        yield rows.map((r) => storedContact(JSON.parse(r.doc), r.contact_id));
        after = rows[rows.length - 1].contact_id;
      }
    },
    async get(ids) {
      return (byIds.all(JSON.stringify(ids)) as [string, string][]).map(([key, doc]) =>
        storedContact(JSON.parse(doc), key),
      );
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
      await savedWrite(s.Name.toLowerCase(), JSON.stringify(s));
    },
    async deleteSavedSearch(name) {
      return (await savedWrite(name.toLowerCase())) > 0;
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
      await writes.close();
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
