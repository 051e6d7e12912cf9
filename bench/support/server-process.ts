/**
 * How `npm start` runs the server (package.json "prestart" and "start", docs/DEPLOYMENT.md's unit),
 * for the benches that spawn it, so that they measure what an operator runs:
 * - MALLOC_MMAP_THRESHOLD_: glibc maps the index build's big buffers and gives them back (RSS at 1M
 *   1.29 → 0.99 GB: docs/PERFORMANCE.md "Memory");
 * - --max-semi-space-size=32: V8's young generation grows to 2 × 32 MB instead of 2 × 16, so the
 *   objects of 64 requests in flight die young instead of being copied out: GC per distinct
 *   type-ahead request over SOAP at 10k 31–62 → 24–30 µs, no change to the settled RSS at 1M
 *   (docs/perf-log/2026-11-26-semispace.md);
 * - the compiled tree (scripts/compile.mjs: dist/main.js), no TypeScript loader; a checkout from
 *   before it (an A/B's base) runs its sources through tsx and its cheap kept names, as its own
 *   `npm start` did.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_TS } from '../../src/boot/run-ts.ts';

export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' } as const;
const SEMI_SPACE = '--max-semi-space-size=32';

/**
 * The node arguments that start checkout `tree`'s server as its `npm start` does, `flags` (a
 * profile, a GC trace) before the entry point; compiles the tree first where it compiles.
 */
export function serverArgs(tree: string, flags: readonly string[] = []): string[] {
  const compile = join(tree, 'scripts', 'compile.mjs');
  if (!existsSync(compile)) return [SEMI_SPACE, ...RUN_TS, ...flags, 'src/main.ts'];
  execFileSync(process.execPath, [compile], { cwd: tree, stdio: 'inherit' });
  return [SEMI_SPACE, ...flags, 'dist/main.js'];
}
