/**
 * PostgreSQL store of record (CONTRACT.md §2, §9): one schema per database, contacts as JSONB keyed by
 * ContactId, every write in one transaction. Used when several stateless nodes share the data.
 * PostgreSQL going away (a restart, a failover, a cut connection) never takes the process down: every
 * connection has an 'error' listener, the errors become StoreUnavailable (connection-errors.ts), the
 * pool opens new connections when asked, and the LISTEN connection reconnects by itself (listen.ts).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Contact, SavedSearch } from '../../fields/contact.ts';
import {
  FEED_KEEP,
  FeedRecorder,
  foldFeed,
  inTransaction,
  type ContactStore,
  type StoreTransaction,
} from '../store.ts';
import { guarded, isConnectionError, unavailableOr } from './connection-errors.ts';
import { listenForChanges, type Say } from './listen.ts';
import { storedContact } from '../../fields/stored.ts';

const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;
const WRITE_BATCH = 5000;
/** 1: contacts, saved_searches, changes (the first layout, stamped when found without a version). */
export const PG_SCHEMA_VERSION = 1;
/** A request waits this long for a connection before it is answered Unavailable. */
const CONNECT_TIMEOUT_MS = 5000;
/**
 * A statement that gets no answer in this long counts as a lost connection (a cut network sends no
 * error). Twice the default request budget: an import's batches and a Replace's delete stay far below.
 */
const QUERY_TIMEOUT_MS = 60_000;

export interface PostgresStoreOptions {
  /** Connection string, e.g. postgres://postgres@127.0.0.1:5432/test */
  url: string;
  /** Schema holding this database's tables; lower-case letters, digits and `_` only. */
  schema: string;
  poolSize?: number;
  /** Connection lost and back (no secrets, no data). */
  say?: Say;
}

/** Default schema for a DBName: `contacts_<name>` lower-cased, `-` → `_` (DBNames are already 1–64 of A–Z a–z 0–9 _ -). */
export function defaultSchema(dbName: string): string {
  return `contacts_${dbName.toLowerCase().replace(/-/g, '_')}`.slice(0, 63);
}

export async function openPostgresStore(opts: PostgresStoreOptions): Promise<ContactStore> {
  if (!SCHEMA_PATTERN.test(opts.schema)) {
    throw new Error(
      `PostgreSQL schema "${opts.schema}" must be lower-case letters, digits and _ (at most 63)`,
    );
  }
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.poolSize ?? 4,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    query_timeout: QUERY_TIMEOUT_MS,
  });
  // An idle connection that drops is discarded by the pool; without a listener the event would end the process.
  pool.on('error', () => undefined);
  // A checked-out connection that drops between two queries of a transaction emits 'error' too; the
  // next query fails and the transaction says so.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const s = `"${opts.schema}"`; // validated above: safe to quote as an identifier
  try {
    await prepareSchema(pool, opts.schema);
  } catch (err) {
    await pool.end().catch(() => undefined);
    if (isConnectionError(err)) unavailableOr(err);
    throw err;
  }
  const writer = randomUUID();
  let feed: Awaited<ReturnType<typeof listenForChanges>>;
  try {
    feed = await listenForChanges(opts.url, opts.schema, writer, opts.say ?? (() => {}));
  } catch (err) {
    await pool.end().catch(() => undefined);
    return unavailableOr(err);
  }
  /**
   * Inside the open transaction, just before COMMIT: the rows of what it wrote. The table lock (held to
   * the commit; reads pass) makes sequence numbers follow commit order, so a reader that has seen
   * `seq` has seen every row below it.
   */
  async function record(
    client: pg.PoolClient,
    rows: readonly (readonly [kind: string, key: string | null])[],
  ) {
    if (!rows.length) return;
    await client.query(`LOCK TABLE ${s}.changes IN EXCLUSIVE MODE`);
    await client.query(
      `INSERT INTO ${s}.changes (writer, kind, key) SELECT $1, * FROM unnest($2::text[], $3::text[])`,
      [writer, rows.map((r) => r[0]), rows.map((r) => r[1])],
    );
    await client.query(
      `DELETE FROM ${s}.changes WHERE seq <= (SELECT max(seq) FROM ${s}.changes) - ${FEED_KEEP}`,
    );
    await client.query('SELECT pg_notify($1, $2)', [feed.channel, writer]); // delivered at COMMIT
  }

  const upsertSql = `INSERT INTO ${s}.contacts (contact_id, doc) SELECT * FROM unnest($1::text[], $2::jsonb[])
                     ON CONFLICT (contact_id) DO UPDATE SET doc = EXCLUDED.doc`;

  /**
   * BEGIN on a client of its own; commit writes the feed rows of what was recorded, then commits.
   * A connection lost before COMMIT was sent leaves nothing (PostgreSQL rolls the transaction back);
   * lost while COMMIT was on its way, the write may or may not be in: StoreUnavailable says which.
   */
  async function openTransaction() {
    const client = await guarded(() => pool.connect());
    try {
      await client.query('BEGIN');
    } catch (err) {
      client.release(true);
      return unavailableOr(err);
    }
    let open = true;
    const wrote = new FeedRecorder();
    const commit = async () => {
      if (!open) return;
      open = false;
      let sent = false;
      try {
        await record(client, wrote.rows());
        sent = true;
        await client.query('COMMIT');
        client.release();
      } catch (err) {
        const broken = isConnectionError(err);
        if (!broken) await client.query('ROLLBACK').catch(() => undefined);
        client.release(broken || undefined);
        unavailableOr(err, sent);
      }
    };
    const rollback = async () => {
      if (!open) return;
      open = false;
      try {
        await client.query('ROLLBACK');
        client.release();
      } catch (err) {
        client.release(true);
        if (!isConnectionError(err)) throw err; // a lost connection has rolled back already
      }
    };
    return { client, wrote, commit, rollback };
  }

  /** One saved-search statement in a transaction of its own, with its feed row. */
  async function savedWrite<T>(nameKey: string, run: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const tx = await openTransaction();
    return inTransaction(tx, async () => {
      const out = await guarded(() => run(tx.client));
      tx.wrote.saved(nameKey);
      return out;
    });
  }

  async function begin(): Promise<StoreTransaction> {
    const { client, wrote, commit, rollback } = await openTransaction();
    return {
      put: (contacts) =>
        guarded(async () => {
          for (let i = 0; i < contacts.length; i += WRITE_BATCH) {
            const batch = contacts.slice(i, i + WRITE_BATCH);
            await client.query(upsertSql, [
              batch.map((x) => x.ContactId),
              batch.map((x) => JSON.stringify(x)),
            ]);
            for (const x of batch) wrote.touch(x.ContactId);
          }
        }),
      delete: (ids) =>
        guarded(async () => {
          if (ids.length)
            await client.query(`DELETE FROM ${s}.contacts WHERE contact_id = ANY($1::text[])`, [
              ids,
            ]);
          for (const id of ids) wrote.touch(id);
        }),
      deleteAllExcept: (ids) =>
        guarded(async () => {
          await client.query(
            'CREATE TEMP TABLE IF NOT EXISTS keep_ids (id text PRIMARY KEY) ON COMMIT DROP',
          );
          const all = [...ids];
          for (let i = 0; i < all.length; i += WRITE_BATCH) {
            await client.query(
              'INSERT INTO keep_ids SELECT unnest($1::text[]) ON CONFLICT DO NOTHING',
              [all.slice(i, i + WRITE_BATCH)],
            );
          }
          const res = await client.query(
            `DELETE FROM ${s}.contacts c WHERE NOT EXISTS (SELECT 1 FROM keep_ids k WHERE k.id = c.contact_id)`,
          );
          await client.query('DROP TABLE keep_ids');
          wrote.everything();
          return res.rowCount ?? 0;
        }),
      commit,
      rollback,
    };
  }

  return {
    backend: 'postgres',

    status: () => feed.status(),

    async *loadAll(batchSize = 10_000): AsyncIterable<Contact[]> {
      let after = '';
      for (;;) {
        const { rows } = await guarded(() =>
          pool.query<{ contact_id: string; doc: Contact }>(
            `SELECT contact_id, doc FROM ${s}.contacts WHERE contact_id > $1 ORDER BY contact_id LIMIT $2`,
            [after, batchSize],
          ),
        );
        if (rows.length === 0) return;
        yield rows.map((r) => storedContact(r.doc, r.contact_id));
        after = rows[rows.length - 1].contact_id;
      }
    },

    async count() {
      const { rows } = await guarded(() =>
        pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${s}.contacts`),
      );
      return Number(rows[0].n);
    },

    async get(ids) {
      const { rows } = await guarded(() =>
        pool.query<{ contact_id: string; doc: Contact }>(
          `SELECT contact_id, doc FROM ${s}.contacts WHERE contact_id = ANY($1::text[])`,
          [ids],
        ),
      );
      return rows.map((r) => storedContact(r.doc, r.contact_id));
    },

    begin,

    async listSavedSearches() {
      const { rows } = await guarded(() =>
        pool.query<{ doc: SavedSearch }>(`SELECT doc FROM ${s}.saved_searches ORDER BY name_key`),
      );
      return rows.map((r) => r.doc);
    },

    async putSavedSearch(saved: SavedSearch) {
      const key = saved.Name.toLowerCase();
      await savedWrite(key, (c) =>
        c.query(
          `INSERT INTO ${s}.saved_searches (name_key, doc) VALUES ($1, $2)
         ON CONFLICT (name_key) DO UPDATE SET doc = EXCLUDED.doc`,
          [key, JSON.stringify(saved)],
        ),
      );
    },

    async deleteSavedSearch(name: string) {
      const res = await savedWrite(name.toLowerCase(), (c) =>
        c.query(`DELETE FROM ${s}.saved_searches WHERE name_key = $1`, [name.toLowerCase()]),
      );
      return (res.rowCount ?? 0) > 0;
    },

    feed: {
      moved: () => feed.moved(),
      async head() {
        const { rows } = await guarded(() =>
          pool.query<{ head: string }>(`SELECT coalesce(max(seq), 0) AS head FROM ${s}.changes`),
        );
        return Number(rows[0].head);
      },
      async since(seq) {
        // One statement, one snapshot: the head and the rows up to it.
        const { rows } = await guarded(() =>
          pool.query<{
            head: string;
            writer: string | null;
            kind: string | null;
            key: string | null;
          }>(
            `WITH h AS (SELECT coalesce(max(seq), 0) AS head FROM ${s}.changes)
           SELECT h.head, c.writer, c.kind, c.key FROM h LEFT JOIN ${s}.changes c ON c.seq > $1 AND c.seq <= h.head`,
            [seq],
          ),
        );
        const head = Number(rows[0].head);
        return foldFeed(
          seq,
          head,
          rows.filter((r) => r.writer !== null) as {
            writer: string;
            kind: string;
            key: string | null;
          }[],
          writer,
        );
      },
    },

    async describe() {
      const { rows } = await guarded(() =>
        pool.query<{ bytes: string }>(
          `SELECT coalesce(sum(pg_total_relation_size(format('%I.%I', schemaname, tablename))), 0) AS bytes
         FROM pg_tables WHERE schemaname = $1`,
          [opts.schema],
        ),
      );
      return { Backend: 'postgres', Schema: opts.schema, StorageBytes: Number(rows[0].bytes) };
    },

    async close() {
      await feed.close();
      await pool.end();
    },
  };
}

/**
 * Creates the tables, or checks the version of those found. Several nodes may start at once: an
 * advisory lock on the schema's name makes them take turns (concurrent CREATE … IF NOT EXISTS can
 * fail on PostgreSQL's catalogue). A schema of a newer layout is refused, not written without it.
 */
async function prepareSchema(pool: pg.Pool, schema: string): Promise<void> {
  const s = `"${schema}"`;
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_version (version integer NOT NULL)`);
    const { rows } = await client.query<{ version: number }>(
      `SELECT max(version) AS version FROM ${s}.schema_version`,
    );
    const found = rows[0]?.version ?? null;
    if (found !== null && found > PG_SCHEMA_VERSION) {
      throw new Error(
        `PostgreSQL schema "${schema}" has schema version ${found}; this build reads up to ${PG_SCHEMA_VERSION}: run a newer build, or configure another schema`,
      );
    }
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.contacts (contact_id text PRIMARY KEY, doc jsonb NOT NULL)`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.saved_searches (name_key text PRIMARY KEY, doc jsonb NOT NULL)`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.changes (seq bigserial PRIMARY KEY, writer text NOT NULL, kind text NOT NULL, key text)`,
    );
    if (found === null)
      await client.query(`INSERT INTO ${s}.schema_version (version) VALUES ($1)`, [
        PG_SCHEMA_VERSION,
      ]);
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [schema]).catch(() => undefined);
    client.release();
  }
}
