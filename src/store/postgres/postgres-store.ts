/**
 * PostgreSQL store of record (CONTRACT.md §2, §9): one schema per database, contacts as JSONB keyed by
 * ContactId, every write in one transaction. Used when several stateless nodes share the data.
 */
import pg from 'pg';
import type { Contact, SavedSearch } from '../contact.ts';
import type { ContactStore, StoreTransaction } from '../store.ts';

const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;
const WRITE_BATCH = 5000;

export interface PostgresStoreOptions {
  /** Connection string, e.g. postgres://postgres@127.0.0.1:5432/test */
  url: string;
  /** Schema holding this database's tables; lower-case letters, digits and `_` only. */
  schema: string;
  poolSize?: number;
}

/** Default schema for a DBName: `contacts_<name>` lower-cased, `-` → `_` (DBNames are already 1–64 of A–Z a–z 0–9 _ -). */
export function defaultSchema(dbName: string): string {
  return `contacts_${dbName.toLowerCase().replace(/-/g, '_')}`.slice(0, 63);
}

export async function openPostgresStore(opts: PostgresStoreOptions): Promise<ContactStore> {
  if (!SCHEMA_PATTERN.test(opts.schema)) {
    throw new Error(`PostgreSQL schema "${opts.schema}" must be lower-case letters, digits and _ (at most 63)`);
  }
  const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 4 });
  const s = `"${opts.schema}"`; // validated above: safe to quote as an identifier
  await pool.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
  await pool.query(`CREATE TABLE IF NOT EXISTS ${s}.contacts (contact_id text PRIMARY KEY, doc jsonb NOT NULL)`);
  await pool.query(`CREATE TABLE IF NOT EXISTS ${s}.saved_searches (name_key text PRIMARY KEY, doc jsonb NOT NULL)`);

  const upsertSql = `INSERT INTO ${s}.contacts (contact_id, doc) SELECT * FROM unnest($1::text[], $2::jsonb[])
                     ON CONFLICT (contact_id) DO UPDATE SET doc = EXCLUDED.doc`;

  async function begin(): Promise<StoreTransaction> {
    const client = await pool.connect();
    let open = true;
    const end = (sql: string) => async () => {
      if (!open) return;
      open = false;
      try { await client.query(sql); } finally { client.release(); }
    };
    try {
      await client.query('BEGIN');
    } catch (err) {
      open = false;
      client.release();
      throw err;
    }
    return {
      async put(contacts) {
        for (let i = 0; i < contacts.length; i += WRITE_BATCH) {
          const batch = contacts.slice(i, i + WRITE_BATCH);
          await client.query(upsertSql, [batch.map((x) => x.ContactId), batch.map((x) => JSON.stringify(x))]);
        }
      },
      async delete(ids) {
        if (ids.length) await client.query(`DELETE FROM ${s}.contacts WHERE contact_id = ANY($1::text[])`, [ids]);
      },
      async deleteAllExcept(ids) {
        await client.query('CREATE TEMP TABLE IF NOT EXISTS keep_ids (id text PRIMARY KEY) ON COMMIT DROP');
        const all = [...ids];
        for (let i = 0; i < all.length; i += WRITE_BATCH) {
          await client.query('INSERT INTO keep_ids SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [all.slice(i, i + WRITE_BATCH)]);
        }
        const res = await client.query(`DELETE FROM ${s}.contacts c WHERE NOT EXISTS (SELECT 1 FROM keep_ids k WHERE k.id = c.contact_id)`);
        await client.query('DROP TABLE keep_ids');
        return res.rowCount ?? 0;
      },
      commit: end('COMMIT'),
      rollback: end('ROLLBACK'),
    };
  }

  return {
    backend: 'postgres',

    async *loadAll(batchSize = 10_000): AsyncIterable<Contact[]> {
      let after = '';
      for (;;) {
        const { rows } = await pool.query<{ contact_id: string; doc: Contact }>(
          `SELECT contact_id, doc FROM ${s}.contacts WHERE contact_id > $1 ORDER BY contact_id LIMIT $2`, [after, batchSize]);
        if (rows.length === 0) return;
        yield rows.map((r) => r.doc);
        after = rows[rows.length - 1].contact_id;
      }
    },

    async count() {
      const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${s}.contacts`);
      return Number(rows[0].n);
    },

    async get(ids) {
      const { rows } = await pool.query<{ doc: Contact }>(`SELECT doc FROM ${s}.contacts WHERE contact_id = ANY($1::text[])`, [ids]);
      return rows.map((r) => r.doc);
    },

    begin,

    async listSavedSearches() {
      const { rows } = await pool.query<{ doc: SavedSearch }>(`SELECT doc FROM ${s}.saved_searches ORDER BY name_key`);
      return rows.map((r) => r.doc);
    },

    async putSavedSearch(saved: SavedSearch) {
      await pool.query(
        `INSERT INTO ${s}.saved_searches (name_key, doc) VALUES ($1, $2)
         ON CONFLICT (name_key) DO UPDATE SET doc = EXCLUDED.doc`, [saved.Name.toLowerCase(), JSON.stringify(saved)]);
    },

    async deleteSavedSearch(name: string) {
      const res = await pool.query(`DELETE FROM ${s}.saved_searches WHERE name_key = $1`, [name.toLowerCase()]);
      return (res.rowCount ?? 0) > 0;
    },

    async describe() {
      const { rows } = await pool.query<{ bytes: string }>(
        `SELECT coalesce(sum(pg_total_relation_size(format('%I.%I', schemaname, tablename))), 0) AS bytes
         FROM pg_tables WHERE schemaname = $1`, [opts.schema]);
      return { Backend: 'postgres', Schema: opts.schema, StorageBytes: Number(rows[0].bytes) };
    },

    async close() {
      await pool.end();
    },
  };
}
