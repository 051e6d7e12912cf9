/**
 * The real PostgreSQL of the test machines (127.0.0.1:5432, database test, trust auth): whether it
 * answers, and the rule every PostgreSQL test follows: unreachable, the test is SKIPPED by name
 * locally and FAILS under CI=true (.ci/run starts PostgreSQL, so there it must run).
 */
import { test } from 'node:test';
import pg from 'pg';

export const PG_URL =
  process.env.CONTACT_SEARCH_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** undefined when PostgreSQL answers, else why not. */
export async function pgUnreachable(url = PG_URL): Promise<string | undefined> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.query('SELECT 1');
    return undefined;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** Registers `suite` when PostgreSQL answers; otherwise one skipped test (locally) or one failing test (CI). */
export async function withPostgres(title: string, suite: () => void): Promise<void> {
  const why = await pgUnreachable();
  if (why && process.env.CI)
    test(title, () => {
      throw new Error(`PostgreSQL not reachable at ${PG_URL}: ${why}`);
    });
  else if (why)
    test(
      `${title} SKIPPED: PostgreSQL not reachable at ${PG_URL} (${why})`,
      { skip: `PostgreSQL not reachable: ${why}` },
      () => {},
    );
  else suite();
}

/** One statement on a connection of its own. */
export async function pgQuery(
  sql: string,
  params: unknown[] = [],
  url = PG_URL,
): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end().catch(() => undefined);
  }
}

export const dropSchema = (schema: string) => pgQuery(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
