/**
 * Writer-built segments (src/database/writer-segment.ts): an import outside the server (the CLI's
 * write path: importTarget with the writer's segment, on a store connection of its own) builds its
 * segment while it writes and commits it beside the store; the server loads it instead of building.
 * Workers from any size (BUILD_WORKER.minContacts 0), a segment from 500 contacts. Checked:
 * 1. The server answers from the writer's segment (its log says so) as a fresh build of the store
 *    would, and a write of its own made meanwhile wins over the segment's copy of that contact.
 * 2. A segment file that does not check out (a flipped byte: CRC) is not used: the server builds
 *    one from the store, answers the same, and says why.
 * 3. A read of the feed holding another writer's commit too uses no writer's segment.
 * 4. A rolled-back write and a Replace leave no segment file; a write under the minimum starts none;
 *    one whose segment is later than WRITER_SEGMENT.waitMs commits without it.
 * 4b. The CLI's segment worker runs at WRITER_SEGMENT.nice (Linux: per thread).
 * 5. foldFeed names the segment only for exactly its transaction's rows.
 * 6. The server's own big import (ImportContacts' write path) builds its segment as it writes and
 *    takes it as its segment, and another process of the store loads it from its file; a small
 *    import builds none.
 * 7. The same over PostgreSQL (no file: the build handed on unawaited).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { IndexedContactDatabase } from '../src/database/contact-database.ts';
import { BUILD_WORKER } from '../src/database/worker-build.ts';
import { WRITER_SEGMENT, writerSegment } from '../src/database/writer-segment.ts';
import type { Contact } from '../src/fields/contact.ts';
import { importTarget } from '../src/store/import-target.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { applyChange, FeedRecorder, foldFeed, type ContactStore } from '../src/store/store.ts';
import { contact } from './cases/store.case.ts';
import { niceOfThreads } from './support/thread-nice.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { dropSchema, PG_URL, withPostgres } from './support/pg.ts';
import { answersAsFresh, bigChange, sameAsStore, stored, until } from './support/segment-checks.ts';

const dir = mkdtempSync(join(tmpdir(), 'contacts-writer-seg-'));
const saved = { min: BUILD_WORKER.minContacts, seg: WRITER_SEGMENT.min };
BUILD_WORKER.minContacts = 0;
WRITER_SEGMENT.min = 500;
after(() => {
  BUILD_WORKER.minContacts = saved.min;
  WRITER_SEGMENT.min = saved.seg;
  rmSync(dir, { recursive: true, force: true });
});

/** 1,400 new contacts and 150 renamed: a big change at 2,500 (over 1,000). */
const { generated, base: BASE, renamed, upsert: IMPORT } = bigChange(41, 'Writerseg');
const QUERIES = ['a', 'ma', 'jo', 'st', '+1', '555', 'gmail', 'mar jo', 'smiht', 'writerseg'];

/** The index holds what the store holds and answers as a fresh build of it. */
async function asFresh(db: IndexedContactDatabase, store: ContactStore): Promise<void> {
  await sameAsStore(db, store);
  await answersAsFresh(db, store, QUERIES);
}

/** A database opened with its warnings ("warn …") and info lines in `log`. */
async function logged(name: string, store: ContactStore) {
  const log: string[] = [];
  const db = await IndexedContactDatabase.open(
    name,
    store,
    (m) => log.push(`warn ${m}`),
    (m) => log.push(m),
  );
  return { db, log };
}

async function seeded(name: string) {
  const file = join(dir, `${name}.db`);
  await applyChange(openSqliteStore(file), { upsert: BASE });
  return { file, ...(await logged(name, openSqliteStore(file))) };
}

/** An import through the database's own write path (ImportContacts'), in slices of 200. */
async function ownImport(db: IndexedContactDatabase, contacts: readonly Contact[]): Promise<void> {
  await db.exclusive(async (tx) => {
    const w = await tx.import.begin(false);
    for (let i = 0; i < contacts.length; i += 200) await w.put(contacts.slice(i, i + 200));
    await w.commit(contacts.map((c) => c.ContactId));
  });
}

/** An import as the CLI writes one: its own connection, slices of 200, its segment on. */
async function cliImport(
  store: ContactStore,
  contacts: readonly Contact[],
  end: 'commit' | 'rollback' = 'commit',
  replaceAll = false,
): Promise<void> {
  const w = await importTarget(store, undefined, () => writerSegment(store)).begin(replaceAll);
  for (let i = 0; i < contacts.length; i += 200) await w.put(contacts.slice(i, i + 200));
  if (end === 'commit') await w.commit(contacts.map((c) => c.ContactId));
  else await w.rollback();
}

const segmentFiles = (name: string) =>
  readdirSync(dir).filter((f) => f.startsWith(`${name}.db.segment-`));

const segmentLine = (log: string[]) => log.find((m) => m.includes('searchable as'));

test("1. the server answers from the writer's segment as from a fresh build; its own write meanwhile wins", async () => {
  const { file, db, log } = await seeded('one');
  const cli = openSqliteStore(file);
  await cliImport(cli, IMPORT);
  assert.equal(segmentFiles('one').length, 1, 'the writer left its segment beside the store');
  const before = db.index.buildId;
  // A full build running: the segment waits for it to stop, and our own write to a contact the
  // import renamed, made while the segment is queued, must win over the segment's copy.
  const rebuilds = (db as unknown as { rebuilds: { run(): Promise<void>; running: boolean } })
    .rebuilds;
  void rebuilds.run();
  await until(() => rebuilds.running, 'the full build running');
  await db.sync();
  const mine = { ...renamed[7], City: 'Mineville' };
  await db.write({ upsert: [mine] });
  await until(() => db.index.segments.length === 1 || db.index.buildId > before, 'the segment in');
  assert.match(segmentLine(log) ?? '', /its writer's, loaded in \d+ ms/, log.join('\n'));
  assert.deepEqual(db.get(mine.ContactId)?.City, 'Mineville');
  await asFresh(db, cli);
  assert.deepEqual(
    log.filter((m) => m.startsWith('warn')),
    [],
  );
  await db.close();
  await cli.close();
});

test('2. a segment file that does not check out is not used: the server builds one and says why', async () => {
  const { file, db, log } = await seeded('two');
  const cli = openSqliteStore(file);
  await cliImport(cli, IMPORT);
  const [name] = segmentFiles('two');
  const bytes = readFileSync(join(dir, name));
  bytes[bytes.length - 9] ^= 0xff; // in the arrays: the CRC no longer matches
  writeFileSync(join(dir, name), bytes);
  await db.sync();
  await until(() => segmentLine(log) !== undefined, 'the segment in');
  assert.ok(
    log.some((m) => /segment its writer built .* not used \(.*checksum mismatch/.test(m)),
    log.join('\n'),
  );
  assert.doesNotMatch(segmentLine(log)!, /its writer's/);
  await asFresh(db, cli);
  await db.close();
  await cli.close();
});

test("3. a feed read holding another writer's commit too: no writer's segment", async () => {
  const { file, db, log } = await seeded('three');
  const cli = openSqliteStore(file);
  await cliImport(cli, IMPORT);
  const third = openSqliteStore(file);
  await applyChange(third, { upsert: [contact('third-1', 'Thea', 'Thirdwriter')] });
  await db.sync();
  await until(() => segmentLine(log) !== undefined, 'the segment in');
  assert.doesNotMatch(segmentLine(log)!, /its writer's/);
  await until(() => db.get('third-1') !== undefined, 'the third write in');
  await asFresh(db, cli);
  await db.close();
  await cli.close();
  await third.close();
});

test('4. a rolled-back write, a Replace, a small write and a late segment leave no segment file', async () => {
  const file = join(dir, 'four.db');
  const store = openSqliteStore(file);
  await applyChange(store, { upsert: BASE });
  await cliImport(store, IMPORT, 'rollback');
  await new Promise((r) => setTimeout(r, 200)); // the stopped worker's file, if any, deleted
  assert.deepEqual(segmentFiles('four'), []);
  await cliImport(store, [...BASE, ...IMPORT.slice(0, 1400)], 'commit', true);
  assert.deepEqual(segmentFiles('four'), []);
  await cliImport(store, IMPORT.slice(0, 499));
  assert.deepEqual(segmentFiles('four'), []);
  assert.equal((await stored(store)).length, 2500 + 1400);
  // A segment later than WRITER_SEGMENT.waitMs: the write commits without it, its worker stopped.
  const wait = WRITER_SEGMENT.waitMs;
  WRITER_SEGMENT.waitMs = 0;
  try {
    await cliImport(store, generated.slice(3900, 4000).concat(BASE.slice(0, 600)));
  } finally {
    WRITER_SEGMENT.waitMs = wait;
  }
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(segmentFiles('four'), []);
  assert.equal((await stored(store)).length, 2500 + 1500);
  await store.close();
});

test("4b. the CLI's segment worker runs at WRITER_SEGMENT.nice", async () => {
  const file = join(dir, 'fourb.db');
  const store = openSqliteStore(file);
  await applyChange(store, { upsert: BASE });
  const { nice } = WRITER_SEGMENT;
  WRITER_SEGMENT.nice = 4; // a value of its own, told from a full build's (+10) and the test's threads
  const want = String(Math.min(19, getPriority() + 4));
  let seen = false;
  try {
    const w = await importTarget(store, undefined, () => writerSegment(store)).begin(false);
    for (let i = 0; i < IMPORT.length; i += 200) {
      await w.put(IMPORT.slice(i, i + 200));
      seen ||= niceOfThreads().includes(want);
    }
    for (let i = 0; !seen && i < 2000; i++) {
      seen = niceOfThreads().includes(want);
      await new Promise((r) => setTimeout(r, 1));
    }
    await w.commit(IMPORT.map((c) => c.ContactId));
  } finally {
    WRITER_SEGMENT.nice = nice;
  }
  assert.ok(seen, `a thread at nice ${want} while the segment was built`);
  assert.equal(segmentFiles('fourb').length, 1);
  await store.close();
});

test('5. foldFeed names the segment only for exactly its transaction', () => {
  const rec = new FeedRecorder();
  for (const id of ['a', 'b', 'c']) rec.touch(id);
  rec.segment = 'n1';
  const rows = rec.rows().map(([kind, key]) => ({ writer: 'w', kind, key }));
  assert.deepEqual(rows.at(-1), { writer: 'w', kind: 'segment', key: 'n1 4' });
  assert.equal(foldFeed(0, 4, rows, 'me').segment, 'n1');
  assert.deepEqual(foldFeed(0, 4, rows, 'me').contacts.sort(), ['a', 'b', 'c']);
  const other = { writer: 'x', kind: 'contact', key: 'd' };
  assert.equal(foldFeed(0, 5, [...rows, other], 'me').segment, undefined, "another writer's row");
  const same = { writer: 'w', kind: 'contact', key: 'd' };
  assert.equal(
    foldFeed(0, 5, [same, ...rows], 'me').segment,
    undefined,
    'a row more of its writer',
  );
  assert.equal(foldFeed(0, 3, rows.slice(1), 'me').segment, undefined, 'a row less');
  assert.equal(foldFeed(0, 4, rows, 'w').segment, undefined, 'our own write');
});

test("6. the server's own big import takes the segment built as it wrote; another process of the store loads it", async () => {
  const { file, db, log } = await seeded('six');
  const { db: other, log: log2 } = await logged('six', openSqliteStore(file));
  await ownImport(db, IMPORT);
  assert.equal(db.index.segments.length, 1, 'in when the import returns');
  assert.match(segmentLine(log) ?? '', /built as it was written, ready in \d+ ms/, log.join('\n'));
  const store = openSqliteStore(file);
  await asFresh(db, store);
  assert.equal(segmentFiles('six').length, 1, 'left beside the store for the other processes');
  await other.sync();
  await until(() => segmentLine(log2) !== undefined, "the other process's segment in");
  assert.match(segmentLine(log2)!, /its writer's, loaded in/, log2.join('\n'));
  await asFresh(other, store);
  await other.close();
  // A small one (the delta's): no segment.
  const lines = log.length;
  await ownImport(db, [contact('small-1', 'Sam', 'Smallimport')]);
  assert.equal(segmentLine(log.slice(lines)), undefined);
  await asFresh(db, store);
  await db.close();
  await store.close();
});

await withPostgres(
  "7. PostgreSQL: the server's own big import takes the segment built as it wrote",
  () => {
    test("7. PostgreSQL: the server's own big import takes the segment built as it wrote", async () => {
      const schema = `contacts_wseg_${process.pid}`;
      const open = () => openPostgresStore({ url: PG_URL, schema });
      await dropSchema(schema);
      try {
        const seed = await open();
        await applyChange(seed, { upsert: BASE });
        await seed.close();
        const store = await open();
        const { db, log } = await logged('PgSeg', store);
        await ownImport(db, IMPORT);
        assert.equal(db.index.segments.length, 1, 'in when the import returns');
        assert.match(segmentLine(log) ?? '', /built as it was written/, log.join('\n'));
        await asFresh(db, store);
        await db.close();
      } finally {
        await dropSchema(schema);
      }
    });
  },
);
