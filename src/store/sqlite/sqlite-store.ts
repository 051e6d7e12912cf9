/**
 * SQLite store of record (CONTRACT.md §9): one file per database, WAL with synchronous=FULL so a
 * committed write survives a crash, every ChangeSet in one transaction. A big ChangeSet is written
 * in slices with the event loop let through between them (searches are served from memory and keep
 * answering); the transaction stays open across the slices, so a crash or an error leaves none of
 * it. The caller serialises writes (ContactDatabase's queue): nothing else uses the connection while
 * a transaction is open.
 */
import Database from 'better-sqlite3';
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Contact, SavedSearch } from '../contact.ts';
import type { ChangeSet, ContactStore } from '../store.ts';
import { every, nextTurn } from '../../next-turn.ts';

const SCHEMA_VERSION = 1;

export function openSqliteStore(file: string): ContactStore {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) throw new Error(`${file} has schema version ${version}; this build reads up to ${SCHEMA_VERSION}`);
  db.exec(`CREATE TABLE IF NOT EXISTS contacts (contact_id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL) WITHOUT ROWID;
           CREATE TABLE IF NOT EXISTS saved_searches (name_key TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL);
           PRAGMA user_version = ${SCHEMA_VERSION};`);

  const upsert = db.prepare('INSERT INTO contacts (contact_id, doc) VALUES (?, ?) ON CONFLICT (contact_id) DO UPDATE SET doc = excluded.doc');
  const del = db.prepare('DELETE FROM contacts WHERE contact_id = ?');
  const clear = db.prepare('DELETE FROM contacts');
  const page = db.prepare('SELECT contact_id, doc FROM contacts WHERE contact_id > ? ORDER BY contact_id LIMIT ?');
  const count = db.prepare('SELECT count(*) AS n FROM contacts');
  async function apply(change: ChangeSet): Promise<void> {
    db.exec('BEGIN IMMEDIATE');
    try {
      if (change.replaceAll) clear.run();
      const due = every();
      for (const id of change.delete ?? []) { del.run(id); if (due()) await nextTurn(); }
      for (const c of change.upsert ?? []) { upsert.run(c.ContactId, JSON.stringify(c)); if (due()) await nextTurn(); }
      db.exec('COMMIT');
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw err;
    }
  }

  return {
    backend: 'sqlite',
    async *loadAll(batchSize = 10_000) {
      let after = '';
      for (;;) {
        const rows = page.all(after, batchSize) as { contact_id: string; doc: string }[];
        if (rows.length === 0) return;
        yield rows.map((r) => JSON.parse(r.doc) as Contact);
        after = rows[rows.length - 1].contact_id;
      }
    },
    async count() {
      return (count.get() as { n: number }).n;
    },
    apply,
    async listSavedSearches() {
      return (db.prepare('SELECT doc FROM saved_searches ORDER BY name_key').all() as { doc: string }[]).map((r) => JSON.parse(r.doc) as SavedSearch);
    },
    async putSavedSearch(s) {
      db.prepare('INSERT INTO saved_searches (name_key, doc) VALUES (?, ?) ON CONFLICT (name_key) DO UPDATE SET doc = excluded.doc')
        .run(s.Name.toLowerCase(), JSON.stringify(s));
    },
    async deleteSavedSearch(name) {
      return db.prepare('DELETE FROM saved_searches WHERE name_key = ?').run(name.toLowerCase()).changes > 0;
    },
    async describe() {
      let bytes = 0;
      try { bytes = statSync(file).size; } catch { /* not yet flushed */ }
      return { Backend: 'sqlite', StorageBytes: bytes, JournalMode: 'wal' };
    },
    async close() {
      db.close();
    },
  };
}
