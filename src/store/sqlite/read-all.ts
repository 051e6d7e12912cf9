/**
 * Every contact of a SQLite store file, read on a connection of its own in one read transaction (WAL:
 * readers do not wait for the writer, and the transaction sees one commit's state throughout), with
 * the change feed's sequence number of that state. A worker thread builds the index from it
 * (database/build-worker.ts) while the process that owns the store goes on writing.
 */
import Database from 'better-sqlite3';

/** A batch of stored rows: [contact_id, doc (JSON text)]. */
export type DocBatch = (rows: [string, string][]) => void;

/** Calls `batch` with the stored documents, in ContactId order; returns the feed's sequence number they are at. */
export function readAllDocs(file: string, batch: DocBatch, size = 10_000): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const page = db
      .prepare(
        'SELECT contact_id, doc FROM contacts WHERE contact_id > ? ORDER BY contact_id LIMIT ?',
      )
      .raw();
    const head = db.prepare('SELECT coalesce(max(seq), 0) FROM changes').pluck();
    return db.transaction(() => {
      const seq = head.get() as number;
      let after = '';
      for (;;) {
        const rows = page.all(after, size) as [string, string][];
        if (rows.length === 0) return seq;
        batch(rows);
        after = rows[rows.length - 1][0];
      }
    })();
  } finally {
    db.close();
  }
}

/**
 * The stored documents of these ids (absent ones left out), read like readAllDocs: on a connection of
 * its own, in one read transaction, `size` ids a query.
 */
export function readDocsById(
  file: string,
  ids: readonly string[],
  batch: DocBatch,
  size = 2_000,
): void {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const byIds = db
      .prepare(
        'SELECT contact_id, doc FROM contacts WHERE contact_id IN (SELECT value FROM json_each(?))',
      )
      .raw();
    db.transaction(() => {
      for (let i = 0; i < ids.length; i += size)
        batch(byIds.all(JSON.stringify(ids.slice(i, i + size))) as [string, string][]);
    })();
  } finally {
    db.close();
  }
}
