/**
 * How `npm start` runs the server (package.json "start", docs/DEPLOYMENT.md's unit), for the benches
 * that spawn it, so that they measure what an operator runs:
 * - MALLOC_MMAP_THRESHOLD_: glibc maps the index build's big buffers and gives them back (RSS at 1M
 *   1.29 → 0.99 GB: docs/PERFORMANCE.md "Memory");
 * - --max-semi-space-size=32: V8's young generation grows to 2 × 32 MB instead of 2 × 16, so the
 *   objects of 64 requests in flight die young instead of being copied out: GC per distinct
 *   type-ahead request over SOAP at 10k 31–62 → 24–30 µs, no change to the settled RSS at 1M
 *   (docs/perf-log/2026-11-26-semispace.md);
 * - RUN_TS: tsx and its cheap kept names (src/boot/cheap-names-hooks.mjs).
 */
import { RUN_TS } from '../../src/boot/run-ts.ts';

export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32', ...RUN_TS] as const;
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' } as const;
