/**
 * Start-up in two steps, so that the port opens at once whatever the size of the databases
 * (docs/DESIGN.md "Start-up"): `startDatabases` opens every configured store — what can fail for a
 * reason an operator must fix (data directory, PostgreSQL unreachable, schema version) fails here,
 * before the service answers and the "listening" line is printed — and returns a registry whose databases are `loading`; each is then
 * seeded if so configured and indexed in the background, and turns `ready` (searchable) or `failed`.
 */
import type { Config, DatabaseConfig } from '../config.ts';
import { nextTurn } from '../next-turn.ts';
import type { ContactStore } from '../store/store.ts';
import type { DatabaseRegistry } from './database.ts';
import { indexDatabase, openStore, slotRegistry, type DatabaseSlot } from './registry.ts';

type Say = (msg: string) => void;

export interface StartingDatabases {
  /** Every configured database, each loading, ready or failed. */
  databases: DatabaseRegistry;
  /** Resolves once every database is searchable; rejects with the first that could not be loaded. */
  ready: Promise<void>;
}

/**
 * Opens every store now (a problem is thrown, every store opened so far closed again), then loads
 * them one after another in the background, the first one first searchable.
 */
export async function startDatabases(
  config: Config,
  log: Say = () => {},
  warn: Say = log,
  seed = true,
): Promise<StartingDatabases> {
  const opened: [DatabaseConfig, ContactStore][] = [];
  try {
    for (const d of config.databases)
      opened.push([
        d,
        await openStore(d, config.dataDir, { warn, lockWaitMs: config.limits.requestMs }),
      ]);
  } catch (err) {
    for (const [, store] of opened) await store.close().catch(() => undefined);
    throw err;
  }
  const slots = new Map<string, DatabaseSlot>();
  for (const [d] of opened)
    slots.set(d.name.toLowerCase(), { name: d.name, state: 'loading', read: 0 });
  let closing = false;

  async function load(d: DatabaseConfig, store: ContactStore): Promise<void> {
    const slot = slots.get(d.name.toLowerCase())!;
    const counting = (s: ContactStore) =>
      pacedFirstLoad(s, (n) => {
        if (slot.state === 'loading') slot.read += n;
      });
    try {
      const db = await indexDatabase(d, store, { log, warn, seed, reading: counting });
      if (closing) return void (await db.close());
      slots.set(d.name.toLowerCase(), { name: d.name, state: 'ready', db });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      slots.set(d.name.toLowerCase(), { name: d.name, state: 'failed', reason });
      throw err;
    }
  }

  const ready = (async () => {
    for (const [d, store] of opened) {
      if (closing) return;
      await load(d, store);
    }
  })();
  ready.catch(() => undefined); // the caller decides; never an unhandled rejection meanwhile

  const databases = slotRegistry(slots, async () => {
    closing = true;
    // A load in progress fails on its closed store; its error is the caller's to ignore (shutting down).
    for (const [d, store] of opened) {
      const slot = slots.get(d.name.toLowerCase())!;
      if (slot.state === 'ready') await slot.db.close();
      else if (slot.state === 'loading') await store.close().catch(() => undefined);
    }
  });
  return { databases, ready };
}

/**
 * The store as the index reads it at start: its first `loadAll` counts the contacts read (the
 * `loading` state's figure) and lets the event loop through between batches, so that /healthz and
 * the "still loading" answers are given meanwhile (a SQLite store reads synchronously). Later loads
 * (a reload after others' writes) are the store's own.
 */
/** Contacts read between two turns of the event loop: 10,000 (the stores' default) held it up to 2 s on a loaded machine. */
const FIRST_LOAD_BATCH = 2_000;

function pacedFirstLoad(store: ContactStore, read: (n: number) => void): ContactStore {
  let first = true;
  const loadAll = (batchSize?: number) => {
    if (!first) return store.loadAll(batchSize);
    first = false;
    return paced(store.loadAll(batchSize ?? FIRST_LOAD_BATCH), read);
  };
  return new Proxy(store, {
    get(target, key) {
      if (key === 'loadAll') return loadAll;
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

async function* paced<T>(batches: AsyncIterable<T[]>, read: (n: number) => void) {
  for await (const batch of batches) {
    read(batch.length);
    yield batch;
    await nextTurn();
  }
}
