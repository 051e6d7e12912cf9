/**
 * A bounded LRU of rendered read results (docs/DESIGN.md "Result cache"). A document operation's
 * result is a pure function of the database's contents (index version, saved searches), the
 * operation, StringOfJSONParameters and AsType; type-ahead traffic repeats the same short prefixes
 * across users, so the same few thousand answers are asked for again and again.
 *
 * Never stale: an entry remembers the index version it was computed against and is dropped when
 * the version moved; every ProcessRequest (the one write path of the service: contacts and saved
 * searches) empties the cache when it ends, and while one runs the cache is neither read nor filled.
 *
 * Kept on repeat (`limits.resultCacheOnRepeat`, the default): a result is stored the second time its
 * request is asked, not the first (../seen-before.ts says why).
 */
import { SeenBefore } from '../seen-before.ts';
import type { OperationResult, ResultCacheStats } from './types.ts';

interface Entry {
  readonly result: OperationResult;
  /** The database's index version the result was computed against. */
  readonly version: number;
  readonly chars: number;
}

export class ResultCache {
  /** Insertion order is recency order: a hit moves its entry to the end, eviction takes the front. */
  private entries = new Map<string, Entry>();
  private chars = 0;
  private hits = 0;
  private misses = 0;
  private writing = 0;
  /** Bumped when a write ends: a computation that saw a write end (or run) is not stored. */
  private generation = 0;
  private readonly seen?: SeenBefore;

  /**
   * @param maxEntries most results held; 0 turns the cache off.
   * @param maxChars most characters held; one result over an eighth of it is never stored.
   * @param onRepeat store a result only the second time its key is set (the first is remembered).
   */
  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
    onRepeat = false,
  ) {
    if (onRepeat && maxEntries > 0) this.seen = new SeenBefore(maxEntries);
  }

  get enabled(): boolean {
    return this.maxEntries > 0;
  }

  /** The cached result, or undefined (counted as a miss) when absent, stale, or a write is running. */
  get(key: string, version: number): OperationResult | undefined {
    if (!this.enabled) return undefined;
    const e = this.writing === 0 ? this.entries.get(key) : undefined;
    if (e === undefined || e.version !== version) {
      if (e !== undefined) this.drop(key, e);
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.result;
  }

  /** A token for `set`: what the cache knew when the computation started. */
  ticket(): number {
    return this.writing === 0 ? this.generation : -1;
  }

  /** Stores a result computed against `version`, unless a write ran or ended since `ticket`. */
  set(key: string, version: number, ticket: number, result: OperationResult): void {
    if (!this.enabled || ticket !== this.generation || this.writing !== 0) return;
    if (this.seen && !this.seen.again(key)) return;
    const chars = key.length + sizeOf(result);
    if (chars > this.maxChars / 8) return;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, { result, version, chars });
    this.chars += chars;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.drop(k, e);
    }
  }

  /** Runs a write: the cache is bypassed while it runs and emptied when it ends, failed or not. */
  async duringWrite<T>(run: () => Promise<T>): Promise<T> {
    this.writing++;
    try {
      return await run();
    } finally {
      this.writing--;
      this.generation++;
      this.entries.clear();
      this.chars = 0;
    }
  }

  stats(): ResultCacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, chars: this.chars };
  }

  private drop(key: string, e: Entry): void {
    this.entries.delete(key);
    this.chars -= e.chars;
  }
}

function sizeOf(r: OperationResult): number {
  return r.kind === 'text' ? r.text.length : elementChars(r.element);
}

function elementChars(el: {
  name: string;
  children: readonly unknown[];
  attrs?: readonly (readonly [string, string])[];
}): number {
  let n = el.name.length * 2 + 5;
  for (const [k, v] of el.attrs ?? []) n += k.length + v.length + 4;
  for (const c of el.children) n += typeof c === 'string' ? c.length : elementChars(c as typeof el);
  return n;
}
