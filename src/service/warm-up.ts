/**
 * A started server's warm-up (docs/DESIGN.md "Warm-up"): once every database is searchable, each
 * process answers `limits.warmUpQueries` type-ahead queries of its own, made from its contacts' names
 * as people type them, in slices of a few milliseconds between which requests are answered. A server
 * fresh from a start runs its request path half-compiled and meets every typed token for the first
 * time (its ranges in the dictionary, its typo ranges, its bucket marks, its snapshot pages): at 1M the
 * first 300 distinct type-ahead queries after an open took a median 0.61–0.71 ms and a p99 9–11 ms,
 * against 0.18–0.22 and 1.1–1.5 ms after 2,000 of these (docs/perf-log/2026-11-29-warm-up.md).
 *
 * The queries go through the operation as a request would (parameters, search, options, JSON) on a
 * service of their own without a result cache: nothing a client later gets depends on them, and the
 * request metrics and log do not count them.
 */
import type { Limits } from '../config.ts';
import type { DatabaseRegistry } from '../database/database.ts';
import type { ContactTable } from '../search/table/contact-table.ts';
import { createService } from './index.ts';

/** How much a warm-up query holds, at most: as bench/support/typing.ts's distinct typing traffic. */
const FIRST_CHARS = 5;
const LAST_CHARS = 4;

/**
 * Up to `count` distinct type-ahead texts from the table's names, deterministic: rows evenly spread
 * over the table, each giving the first 1–5 characters of its first name (code points, trimmed), every
 * other one followed by a space and the first 1–4 of its last name. A row without a first name (a
 * company) passes its turn to the next of the few after it that has one.
 */
export function warmUpTexts(table: Pick<ContactTable, 'rows' | 'value'>, count: number): string[] {
  const out = new Set<string>();
  const rows = table.rows;
  for (let i = 0; i < count && rows > 0; i++) {
    const from = Math.floor((i * rows) / count);
    for (let row = from; row < Math.min(rows, from + 8); row++) {
      const first = prefix(table.value(row, 'FirstName'), 1 + (i % FIRST_CHARS));
      if (!first) continue;
      const last = i % 2 === 1 ? prefix(table.value(row, 'LastName'), 1 + (i % LAST_CHARS)) : '';
      out.add(last ? `${first} ${last}` : first);
      break;
    }
  }
  return [...out];
}

const prefix = (s: string | undefined, chars: number): string =>
  s ? Array.from(s.trim()).slice(0, chars).join('').trimEnd() : '';

export interface WarmUpReport {
  database: string;
  queries: number;
  ms: number;
}

/**
 * Warms every searchable database in turn; each slice of queries runs at most `sliceMs` before the
 * event loop gets a turn. Stops early (and says so in its report's count) once `stopped()` says so, or
 * a database fails a query (closed under it).
 */
export async function warmUp(
  databases: DatabaseRegistry,
  limits: Limits,
  opts: { sliceMs?: number; stopped?: () => boolean } = {},
): Promise<WarmUpReport[]> {
  const sliceMs = opts.sliceMs ?? 4;
  const stopped = opts.stopped ?? (() => false);
  const service = createService({ databases, limits: { ...limits, resultCacheEntries: 0 } });
  const reports: WarmUpReport[] = [];
  for (const name of databases.names()) {
    const db = databases.find(name);
    if (!db || limits.warmUpQueries <= 0) continue;
    const texts = warmUpTexts(db.index.table, limits.warmUpQueries);
    const started = performance.now();
    let slice = started,
      done = 0;
    try {
      for (const Text of texts) {
        if (stopped()) break;
        await service.invoke({
          op: 'GetPredictiveOptionsSearchContacts',
          StringOfJSONParameters: JSON.stringify({ Text, Limit: 10 }),
          DBName: db.name,
          AsType: 'JSON',
          caller: { binding: 'json', loopback: true },
        });
        done++;
        if (performance.now() - slice >= sliceMs) {
          await new Promise((next) => setImmediate(next));
          slice = performance.now();
        }
      }
    } catch {
      // The database closed or failed under the warm-up: its queries so far are reported.
    }
    reports.push({ database: db.name, queries: done, ms: Math.round(performance.now() - started) });
  }
  return reports;
}
