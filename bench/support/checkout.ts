/**
 * A checkout's service over a database folder, its modules imported from that checkout's tree: the
 * one-process A/B benches (bench:typing-ab, bench:faceted-ab) load two checkouts side by side, each
 * with its own code and its own open of DIR/Demo.db, result cache off.
 */
import { resolve } from 'node:path';
import type { Invokes } from './type-ahead.ts';

export async function checkoutService(tree: string, dataDir: string): Promise<Invokes> {
  const { DEFAULT_LIMITS } = await import(resolve(tree, 'src/config.ts'));
  const { createService } = await import(resolve(tree, 'src/service/index.ts'));
  const { openDatabase, registryOf } = await import(resolve(tree, 'src/database/registry.ts'));
  const db = await openDatabase({ name: 'Demo', backend: 'sqlite' }, dataDir);
  return createService({
    databases: registryOf(new Map([['demo', db]])),
    limits: { ...DEFAULT_LIMITS, resultCacheEntries: 0 },
  });
}
