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

export async function openStore(d: DatabaseConfig, dataDir: string): Promise<ContactStore> {
  if (d.backend === 'postgres') {
    if (!d.url) throw new Error(`database "${d.name}": backend postgres needs a url`);
    return openPostgresStore({ url: d.url, schema: d.schema ?? defaultSchema(d.name) });
  }
  return openSqliteStore(d.file ?? join(dataDir, `${d.name}.db`));
}

export async function openDatabase(d: DatabaseConfig, dataDir: string, log: (msg: string) => void = () => {}): Promise<IndexedContactDatabase> {
  const store = await openStore(d, dataDir);
  if (d.seedDemo && (await store.count()) === 0) {
    const started = Date.now();
    for (const batch of generateContacts({ count: d.seedDemo })) await applyChange(store, { upsert: batch });
    log(`database ${d.name}: generated ${d.seedDemo} demo contacts in ${Date.now() - started} ms`);
  }
  const started = Date.now();
  const db = await IndexedContactDatabase.open(d.name, store);
  log(`database ${d.name} (${d.backend}): ${db.size} contacts indexed in ${Date.now() - started} ms`);
  return db;
}

export async function openDatabases(config: Config, log: (msg: string) => void = () => {}): Promise<DatabaseRegistry> {
  const byName = new Map<string, ContactDatabase>();
  for (const d of config.databases) byName.set(d.name.toLowerCase(), await openDatabase(d, config.dataDir, log));
  return registryOf(byName);
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
