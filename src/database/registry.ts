/**
 * Opens every configured database (CONTRACT.md §2) and resolves DBNames case-insensitively. A DBName
 * that is not configured is UnknownDatabase: it is never used as a file path or an SQL identifier.
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config, DatabaseConfig } from '../config.ts';
import { fail } from '../errors.ts';
import { nextTurn } from '../next-turn.ts';
import { IndexedContactDatabase } from './contact-database.ts';
import type { ContactDatabase, DatabaseRegistry } from './database.ts';
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
    // Loaded only for a PostgreSQL database: the driver is ~2 MB of heap a SQLite node would keep.
    const { defaultSchema, openPostgresStore } =
      await import('../store/postgres/postgres-store.ts');
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
    return openSqliteStore(file, {
      lockWaitMs: opts.lockWaitMs,
      warn: (m) => opts.warn?.(`database ${d.name}: ${m}`),
    });
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
  // Loaded only to seed: faker's locales are ~16 MB of heap a server process would keep otherwise.
  const { generateContacts } = await import('../demo/generate.ts');
  for (const batch of generateContacts({ count: d.seedDemo })) {
    await applyChange(store, { upsert: batch });
    await nextTurn(); // a server answers meanwhile (it listens before it seeds: start.ts)
  }
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
  return indexDatabase(d, store, { log, warn, seed });
}

export interface IndexOptions {
  log?: Say;
  warn?: Say;
  /** false when a primary process seeded it already (workers). */
  seed?: boolean;
  /** The store as the index reads it (start.ts counts and paces the first load); the store itself by default. */
  reading?: (store: ContactStore) => ContactStore;
}

/** Seeds an opened store if it is configured so and empty, then loads it into its index; closes the store on failure. */
export async function indexDatabase(
  d: DatabaseConfig,
  store: ContactStore,
  { log = () => {}, warn = log, seed = true, reading = (s) => s }: IndexOptions = {},
): Promise<IndexedContactDatabase> {
  const started = Date.now();
  const db = await (async () => {
    if (seed) await seedIfEmpty(d, store, log);
    return IndexedContactDatabase.open(d.name, reading(timedStore(store)), warn, log); // timed for /metrics
  })().catch(async (err: unknown) => {
    await store.close().catch(() => undefined);
    throw new Error(
      `database "${d.name}": could not load it: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  });
  log(
    `database ${d.name} (${d.backend}): ${db.size} contacts indexed in ${Date.now() - started} ms`,
  );
  return db;
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

/** Where a configured database is: being loaded at start, searchable, or failed to load. */
export type DatabaseSlot = { readonly name: string } & (
  | { state: 'loading'; read: number }
  | { state: 'ready'; db: ContactDatabase }
  | { state: 'failed'; reason: string }
);

/** A registry of databases all loaded already (tools, tests, benchmarks). */
export function registryOf(byName: Map<string, ContactDatabase>): DatabaseRegistry {
  const slots = new Map<string, DatabaseSlot>();
  for (const [key, db] of byName) slots.set(key, { name: db.name, state: 'ready', db });
  return slotRegistry(slots, async () => {
    for (const d of byName.values()) await d.close();
  });
}

/** How long a client is told to wait (Retry-After) while a database loads: a 1M-contact load takes about a minute. */
const LOADING_RETRY_S = 5;

/** The registry over slots keyed by lower-case name, which start.ts moves from loading to ready. */
export function slotRegistry(
  slots: ReadonlyMap<string, DatabaseSlot>,
  close: () => Promise<void>,
): DatabaseRegistry {
  const slotOf = (name: string) => slots.get(name.trim().toLowerCase());
  const ready = () => [...slots.values()].flatMap((s) => (s.state === 'ready' ? [s.db] : []));
  return {
    find(name) {
      const s = slotOf(name);
      return s?.state === 'ready' ? s.db : undefined;
    },
    get(name, where = { parameter: 'DBName' }) {
      const s = slotOf(name);
      if (!s)
        throw fail(
          'UnknownDatabase',
          `No database named "${name}" is configured; check DBName.`,
          where,
        );
      if (s.state === 'ready') return s.db;
      const why =
        s.state === 'loading'
          ? `is still loading after a start (${s.read} contacts read so far); retry in a few seconds.`
          : `could not be loaded (${s.reason}); the server is stopping.`;
      throw Object.assign(fail('Unavailable', `Database "${s.name}" ${why}`, where), {
        retryAfter: LOADING_RETRY_S,
      });
    },
    names: () => [...slots.values()].map((s) => s.name),
    down: () =>
      ready().flatMap((d) => {
        const st = d.status();
        return st.up ? [] : [{ name: d.name, reason: st.reason ?? 'unavailable' }];
      }),
    loading: () =>
      [...slots.values()].flatMap((s) =>
        s.state === 'loading' ? [{ name: s.name, read: s.read }] : [],
      ),
    close,
  };
}
