/**
 * The one-process A/B benches' parts (bench:typing-ab, bench:faceted-ab): a checkout's service over
 * a database folder, its modules imported from that checkout's tree (two checkouts side by side, each
 * with its own code and its own open of its folder's Demo.db, result cache off), and the two sides'
 * alternating run and its summary.
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

/** One side of an A/B bench: its label and how it answers an item (milliseconds, answer text). */
export interface Side<T> {
  name: string;
  ask: (item: T) => Promise<[number, string]>;
}

/**
 * Items in blocks of `block`, each block on one side then the other, alternating which goes first;
 * every answer of the two sides compared byte for byte (the first few differences printed). Answers
 * each side's times by item and how many answers differ.
 */
export async function alternate<T>(
  sides: readonly [Side<T>, Side<T>],
  items: readonly T[],
  block: number,
): Promise<{ times: Float64Array[]; differing: number }> {
  const times = sides.map(() => new Float64Array(items.length));
  let differing = 0;
  for (let from = 0, b = 0; from < items.length; from += block, b++) {
    const to = Math.min(items.length, from + block);
    const answers: string[][] = [[], []];
    for (const k of b % 2 ? [1, 0] : [0, 1])
      for (let i = from; i < to; i++) {
        const [ms, text] = await sides[k].ask(items[i]);
        times[k][i] = ms;
        answers[k].push(text);
      }
    for (let i = from; i < to; i++) {
      if (answers[0][i - from] === answers[1][i - from]) continue;
      if (differing++ < 5)
        console.log(
          `differs: ${JSON.stringify(items[i])}\n  ${answers[0][i - from]}\n  ${answers[1][i - from]}`,
        );
    }
  }
  return { times, differing };
}

/** A side's times summarised: mean, median, p90, p99 and max (milliseconds). */
export function summary(
  times: Float64Array,
): Record<'mean' | 'p50' | 'p90' | 'p99' | 'max', number> {
  const t = Float64Array.from(times).sort();
  const at = (p: number) => t[Math.min(t.length - 1, Math.floor(p * t.length))];
  return {
    mean: t.reduce((a, x) => a + x, 0) / t.length,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: t[t.length - 1],
  };
}
