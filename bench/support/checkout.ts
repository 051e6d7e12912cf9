/**
 * A checkout's service over a database folder, its modules imported from that checkout's tree: the
 * one-process A/B benches (bench:typing-ab, bench:faceted-ab) load two checkouts side by side, each
 * with its own code and its own open of its folder's Demo.db, result cache off.
 */
import { join, resolve } from 'node:path';
import type { Invokes } from './type-ahead.ts';

/**
 * The A/B benches' shared options: `--before ROOT` (the other checkout), `--data-dir DIR` (this
 * checkout's folder) and `--before-data-dir DIR2` (ROOT's, default DIR: give a copy of its own when
 * the two index code versions differ, or each open rebuilds and overwrites the other's snapshot).
 */
export const checkoutOptions = (root: string) =>
  ({
    before: { type: 'string' },
    'data-dir': { type: 'string', default: join(root, '.tmp', 'bench-http') },
    'before-data-dir': { type: 'string' },
  }) as const;

/** The folders the options name: this checkout's DIR and the before side's (DIR2, default DIR). */
export function checkoutDirs(values: { 'data-dir'?: string; 'before-data-dir'?: string }): {
  dir: string;
  beforeDir: string;
} {
  const dir = resolve(values['data-dir']!);
  return { dir, beforeDir: resolve(values['before-data-dir'] ?? dir) };
}

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
