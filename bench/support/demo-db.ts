/** The benchmarks' Demo database: generated once into a folder (the generator is deterministic). */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { RUN_TS } from '../../src/boot/run-ts.ts';

/** Contacts in a SQLite store file; 0 when there is none. */
export function contactsIn(file: string): number {
  if (!existsSync(file)) return 0;
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM contacts').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** `dataDir`/Demo.db with at least `count` contacts (generating what is missing); its path. */
export function ensureDemo(dataDir: string, count: number, root: string): string {
  const file = join(dataDir, 'Demo.db');
  const have = contactsIn(file);
  if (have < count) {
    console.log(`generating ${count - have} contacts into ${file} …`);
    const r = spawnSync(
      process.execPath,
      [...RUN_TS, 'src/cli/generate.ts', '--db', 'Demo', '--count', String(count - have)],
      { cwd: root, stdio: 'inherit', env: { ...process.env, CONTACT_SEARCH_DATA_DIR: dataDir } },
    );
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  return file;
}
