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
 * request metrics and log do not count them. A full build swapped in later (a new base) is warmed
 * again (`keepWarm`).
 */
import type { Limits } from '../config.ts';
import type { ContactDatabase, DatabaseRegistry } from '../database/database.ts';
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

interface WarmUpOptions {
  /** The longest run of queries between two turns of the event loop (ms; 4). */
  sliceMs?: number;
  stopped?: () => boolean;
}

/**
 * One database's warm-up, on a service of its own without a result cache; stops early (its report
 * says how far) once `stopped()` or a query fails. undefined when the warm-up is off.
 */
function warmer(
  databases: DatabaseRegistry,
  limits: Limits,
  { sliceMs = 4, stopped = () => false }: WarmUpOptions,
): ((db: ContactDatabase) => Promise<WarmUpReport>) | undefined {
  if (limits.warmUpQueries <= 0) return undefined;
  const service = createService({ databases, limits: { ...limits, resultCacheEntries: 0 } });
  return async (db) => {
    const started = performance.now();
    let slice = started,
      done = 0;
    try {
      for (const Text of warmUpTexts(db.index.table, limits.warmUpQueries)) {
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
    return { database: db.name, queries: done, ms: Math.round(performance.now() - started) };
  };
}

/** The databases searchable now, in their configured order. */
const searchable = (databases: DatabaseRegistry): ContactDatabase[] =>
  databases.names().flatMap((name) => databases.find(name) ?? []);

/** Warms every searchable database in turn. */
export async function warmUp(
  databases: DatabaseRegistry,
  limits: Limits,
  opts: WarmUpOptions = {},
): Promise<WarmUpReport[]> {
  const warm = warmer(databases, limits, opts);
  const reports: WarmUpReport[] = [];
  if (warm) for (const db of searchable(databases)) reports.push(await warm(db));
  return reports;
}

/**
 * What a server process runs once its databases are searchable: each warmed in turn, then each
 * warmed again after every full build swapped in (a Replace, a big import: a new base whose tokens
 * the queries meet anew), one warm-up of a database at a time. `report` hears of each, with why.
 */
export async function keepWarm(
  databases: DatabaseRegistry,
  limits: Limits,
  report: (r: WarmUpReport, after: 'start' | 'rebuild') => void,
  opts: WarmUpOptions = {},
): Promise<void> {
  const warm = warmer(databases, limits, opts);
  if (!warm) return;
  const dbs = searchable(databases);
  for (const db of dbs) report(await warm(db), 'start');
  for (const db of dbs) {
    let running = false;
    db.onBuilt?.(() => {
      if (running || opts.stopped?.()) return;
      running = true;
      void warm(db)
        .then((r) => report(r, 'rebuild'))
        .finally(() => (running = false));
    });
  }
}
