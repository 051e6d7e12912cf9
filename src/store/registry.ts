/**
 * Opens every configured database (CONTRACT.md §2) and resolves DBNames case-insensitively. A DBName
 * that is not configured is UnknownDatabase: it is never used as a file path or an SQL identifier.
 */
import { join } from 'node:path';
import type { Config, DatabaseConfig } from '../config.ts';
import { fail } from '../errors.ts';
import { IndexedContactDatabase } from './contact-database.ts';
import type { ContactDatabase, DatabaseRegistry } from './database.ts';
import { generateContacts } from './demo/generate.ts';
import { defaultSchema, openPostgresStore } from './postgres/postgres-store.ts';
import { openSqliteStore } from './sqlite/sqlite-store.ts';
import { applyChange, type ContactStore } from './store.ts';
import { timedStore } from './timed-store.ts';

export async function openStore(d: DatabaseConfig, dataDir: string): Promise<ContactStore> {
  if (d.backend === 'postgres') {
    if (!d.url) throw new Error(`database "${d.name}": backend postgres needs a url`);
    return openPostgresStore({ url: d.url, schema: d.schema ?? defaultSchema(d.name) });
  }
  return openSqliteStore(d.file ?? join(dataDir, `${d.name}.db`));
}

type Say = (msg: string) => void;

/** Fills an empty database configured with `seedDemo` (the embedded Demo on first start). */
async function seedIfEmpty(d: DatabaseConfig, store: ContactStore, log: Say): Promise<void> {
  if (!d.seedDemo || (await store.count()) > 0) return;
  const started = Date.now();
  for (const batch of generateContacts({ count: d.seedDemo })) await applyChange(store, { upsert: batch });
  log(`database ${d.name}: generated ${d.seedDemo} demo contacts in ${Date.now() - started} ms`);
}

/** Opens a database and indexes it. `seed: false` when a primary process seeded it already (workers). */
export async function openDatabase(d: DatabaseConfig, dataDir: string, log: Say = () => {}, warn: Say = log, seed = true): Promise<IndexedContactDatabase> {
  const store = await openStore(d, dataDir);
  if (seed) await seedIfEmpty(d, store, log);
  const started = Date.now();
  const db = await IndexedContactDatabase.open(d.name, timedStore(store), warn); // timed for /metrics
  log(`database ${d.name} (${d.backend}): ${db.size} contacts indexed in ${Date.now() - started} ms`);
  return db;
}

export async function openDatabases(config: Config, log: Say = () => {}, warn: Say = log, seed = true): Promise<DatabaseRegistry> {
  const byName = new Map<string, ContactDatabase>();
  for (const d of config.databases) byName.set(d.name.toLowerCase(), await openDatabase(d, config.dataDir, log, warn, seed));
  return registryOf(byName);
}

/** Before the workers start: seeds what needs seeding once, so that they do not race to do it. */
export async function seedDatabases(config: Config, log: Say = () => {}): Promise<void> {
  for (const d of config.databases) {
    if (!d.seedDemo) continue;
    const store = await openStore(d, config.dataDir);
    try { await seedIfEmpty(d, store, log); } finally { await store.close(); }
  }
}

export function registryOf(byName: Map<string, ContactDatabase>): DatabaseRegistry {
  const find = (name: string) => byName.get(name.trim().toLowerCase());
  return {
    find,
    get(name, where = { parameter: 'DBName' }) {
      const db = find(name);
      if (!db) throw fail('UnknownDatabase', `No database named "${name}" is configured; check DBName.`, where);
      return db;
    },
    names: () => [...byName.values()].map((d) => d.name),
    async close() {
      for (const d of byName.values()) await d.close();
    },
  };
}
