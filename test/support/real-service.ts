/** The real service over a fresh SQLite database in a temp folder, for black-box tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS, type Config } from '../../src/config.ts';
import type { Log } from '../../src/log.ts';
import { createService } from '../../src/service/index.ts';
import type { Contact } from '../../src/fields/contact.ts';
import type { DatabaseRegistry } from '../../src/database/database.ts';
import { openDatabase, registryOf } from '../../src/database/registry.ts';
import { startServer, type Running } from './server.ts';

export interface RealService extends Running {
  databases: DatabaseRegistry;
  dir: string;
}

export async function startRealService(
  opts: { seedDemo?: number; contacts?: Contact[]; config?: Partial<Config>; log?: Log } = {},
): Promise<RealService> {
  const dir = mkdtempSync(join(tmpdir(), 'contacts-e2e-'));
  const db = await openDatabase({ name: 'Demo', backend: 'sqlite', seedDemo: opts.seedDemo }, dir);
  if (opts.contacts?.length) await db.write({ upsert: opts.contacts });
  const databases = registryOf(new Map([['demo', db]]));
  // The service sees the same limits as the server, so a test can set e.g. requestMs through config.
  const service = createService({
    databases,
    limits: { ...DEFAULT_LIMITS, ...opts.config?.limits },
  });
  const running = await startServer(service, { dataDir: dir, ...opts.config }, opts.log);
  return {
    ...running,
    databases,
    dir,
    async close() {
      await running.close();
      await databases.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
