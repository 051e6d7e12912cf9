/** The shared store suite against the real PostgreSQL server (127.0.0.1:5432, database test). */
import pg from 'pg';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { openDatabase } from '../src/database/registry.ts';
import { search } from '../src/search/match.ts';
import { contact, eventually, storeCases } from './cases/store.case.ts';
import { PG_URL, pgUnreachable } from './support/pg.ts';

const url = PG_URL;
const schema = `contacts_test_${process.pid}`;

async function dropSchema() {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await c.end();
}

const why = await pgUnreachable();
if (why && process.env.CI) {
  // CI must run these: .ci/run starts PostgreSQL, so an unreachable server is a failure there.
  test('PostgreSQL store suite', () => {
    throw new Error(`PostgreSQL not reachable at ${url}: ${why}`);
  });
} else if (why) {
  test(
    `PostgreSQL store suite SKIPPED: PostgreSQL not reachable at ${url} (${why})`,
    { skip: `PostgreSQL not reachable: ${why}` },
    () => {},
  );
} else {
  storeCases(
    'postgres',
    async () => {
      await dropSchema();
      return openPostgresStore({ url, schema });
    },
    async () => openPostgresStore({ url, schema }),
  );
  test('postgres: a database over PostgreSQL seeds, indexes, and sees its writes at once and after reopen', async () => {
    await dropSchema();
    const cfg = { name: 'PgDemo', backend: 'postgres' as const, url, schema, seedDemo: 50 };
    const db = await openDatabase(cfg, '/nonexistent');
    assert.equal(db.size, 50);
    await db.write({ upsert: [contact('pg1', 'Zoë', 'Ångström')] });
    assert.deepEqual(
      search(db.index, 'zoe ang').hits.map((h) => db.index.doc(h.ord)!.ContactId),
      ['pg1'],
    );
    await db.close();
    const again = await openDatabase(cfg, '/nonexistent');
    assert.equal(again.size, 51);
    assert.equal(again.get('pg1')?.LastName, 'Ångström');
    await again.close();
  });
  test("postgres: two nodes over one schema see each other's writes once the NOTIFY arrives", async () => {
    await dropSchema();
    const cfg = { name: 'PgNodes', backend: 'postgres' as const, url, schema };
    const a = await openDatabase(cfg, '/nonexistent');
    const b = await openDatabase(cfg, '/nonexistent');
    try {
      await a.write({
        upsert: [contact('n1', 'Nadia', 'Okonkwo'), contact('n2', 'Nils', 'Okonkwo')],
      });
      assert.ok(
        await eventually(async () => {
          await b.sync();
          return b.size === 2;
        }),
        'b has both',
      );
      assert.deepEqual(
        search(b.index, 'okonkwo')
          .hits.map((h) => b.index.doc(h.ord)!.ContactId)
          .sort(),
        ['n1', 'n2'],
      );
      const summary = await b.write({ upsert: [contact('n1', 'Nadia', 'Okafor')], delete: ['n2'] });
      assert.deepEqual(summary, { inserted: 0, updated: 1, deleted: 1 });
      assert.ok(
        await eventually(async () => {
          await a.sync();
          return a.size === 1 && a.get('n1')?.LastName === 'Okafor';
        }),
        "a sees b's update and delete",
      );
      assert.equal(a.sync(), undefined, "a is not told of its own writes, nor again of b's");
    } finally {
      await a.close();
      await b.close();
    }
  });
  test('postgres: drop the test schema', dropSchema);
}
