/**
 * Opens every configured database (CONTRACT.md §2) and resolves DBNames case-insensitively. A DBName
 * that is not configured is UnknownDatabase: it is never used as a file path or an SQL identifier.
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config, DatabaseConfig } from '../config.ts';
import { fail } from '../errors.ts';
import { IndexedContactDatabase } from './contact-database.ts';
import type { ContactDatabase, DatabaseRegistry } from './database.ts';
import { generateContacts } from '../demo/generate.ts';
import { defaultSchema, openPostgresStore } from '../store/postgres/postgres-store.ts';
import { openSqliteStore } from '../store/sqlite/sqlite-store.ts';
import { applyChange, StoreUnavailable, type ContactStore } from '../store/store.ts';
import { timedStore } from '../store/timed-store.ts';

type Say = (msg: string) => void;

export interface OpenOptions {
  /** The connection to PostgreSQL lost and back. */
  warn?: Say;
  /** How long a SQLite write waits for another writer's lock (the server: the request budget). */
  lockWaitMs?: number;
}

/**
 * Opens a database's store. Start-up problems come out as one line naming what to fix: a data
 * directory that cannot be written, PostgreSQL that cannot be reached, a schema of a newer version.
 */
export async function openStore(
  d: DatabaseConfig,
  dataDir: string,
  opts: OpenOptions = {},
): Promise<ContactStore> {
  if (d.backend === 'postgres') {
    if (!d.url) throw new Error(`database "${d.name}": backend postgres needs a url`);
    const schema = d.schema ?? defaultSchema(d.name);
    try {
      return await openPostgresStore({
        url: d.url,
        schema,
        say: (level, msg) => opts.warn?.(`database ${d.name}: ${msg}`),
      });
    } catch (err) {
      const why =
        err instanceof StoreUnavailable
          ? `${err.reason} at ${where(d.url)}; check that PostgreSQL runs and the url is right`
          : err instanceof Error
            ? err.message
            : String(err);
      throw new Error(`database "${d.name}": ${why}`, { cause: err });
    }
  }
  const file = d.file ?? join(dataDir, `${d.name}.db`);
  try {
    mkdirSync(dirname(file), { recursive: true });
    accessSync(dirname(file), constants.W_OK);
  } catch (err) {
    throw new Error(
      `database "${d.name}": cannot write the directory ${dirname(file)} (${(err as { code?: string }).code ?? String(err)}); make dataDir (CONTACT_SEARCH_DATA_DIR) or the database's file point to a writable directory`,
      { cause: err },
    );
  }
  try {
    return openSqliteStore(file, { lockWaitMs: opts.lockWaitMs });
  } catch (err) {
    throw new Error(
      `database "${d.name}": cannot open ${file}: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
}

/** host:port/database of a connection string, without user or password. */
function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'the configured url';
  }
}

/** Fills an empty database configured with `seedDemo` (the embedded Demo on first start). */
async function seedIfEmpty(d: DatabaseConfig, store: ContactStore, log: Say): Promise<void> {
  if (!d.seedDemo || (await store.count()) > 0) return;
  const started = Date.now();
  for (const batch of generateContacts({ count: d.seedDemo }))
    await applyChange(store, { upsert: batch });
  log(`database ${d.name}: generated ${d.seedDemo} demo contacts in ${Date.now() - started} ms`);
}

/** Opens a database and indexes it. `seed: false` when a primary process seeded it already (workers). */
export async function openDatabase(
  d: DatabaseConfig,
  dataDir: string,
  log: Say = () => {},
  warn: Say = log,
  seed = true,
  lockWaitMs?: number,
): Promise<IndexedContactDatabase> {
  const store = await openStore(d, dataDir, { warn, lockWaitMs });
  if (seed) await seedIfEmpty(d, store, log);
  const started = Date.now();
  const db = await IndexedContactDatabase.open(d.name, timedStore(store), warn).catch(
    async (err: unknown) => {
      // timed for /metrics
      await store.close().catch(() => undefined);
      throw new Error(
        `database "${d.name}": could not load it: ${err instanceof Error ? err.message : String(err)}`,
      );
    },
  );
  log(
    `database ${d.name} (${d.backend}): ${db.size} contacts indexed in ${Date.now() - started} ms`,
  );
  return db;
}

export async function openDatabases(
  config: Config,
  log: Say = () => {},
  warn: Say = log,
  seed = true,
): Promise<DatabaseRegistry> {
  const byName = new Map<string, ContactDatabase>();
  for (const d of config.databases)
    byName.set(
      d.name.toLowerCase(),
      await openDatabase(d, config.dataDir, log, warn, seed, config.limits.requestMs),
    );
  return registryOf(byName);
}

/** Before the workers start: seeds what needs seeding once, so that they do not race to do it. */
export async function seedDatabases(config: Config, log: Say = () => {}): Promise<void> {
  for (const d of config.databases) {
    if (!d.seedDemo) continue;
    const store = await openStore(d, config.dataDir);
    try {
      await seedIfEmpty(d, store, log);
    } finally {
      await store.close();
    }
  }
}

export function registryOf(byName: Map<string, ContactDatabase>): DatabaseRegistry {
  const find = (name: string) => byName.get(name.trim().toLowerCase());
  return {
    find,
    get(name, where = { parameter: 'DBName' }) {
      const db = find(name);
      if (!db)
        throw fail(
          'UnknownDatabase',
          `No database named "${name}" is configured; check DBName.`,
          where,
        );
      return db;
    },
    names: () => [...byName.values()].map((d) => d.name),
    down: () =>
      [...byName.values()].flatMap((d) => {
        const st = d.status();
        return st.up ? [] : [{ name: d.name, reason: st.reason ?? 'unavailable' }];
      }),
    async close() {
      for (const d of byName.values()) await d.close();
    },
  };
}
