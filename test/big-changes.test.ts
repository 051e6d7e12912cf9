/**
 * Big changes indexed as segments (src/database/rebuilds.ts, search/index/segment.ts), workers used
 * from any size (BUILD_WORKER.minContacts = 0). Checked:
 * 1. Another writer's big change (new contacts, updates, deletes): searches answer from the current
 *    index while its segment is built; once it is in, the index answers as a fresh build of the
 *    store (ranks included) with no full build yet; then a full build takes it in, answers the
 *    same, and a reopen loads the snapshot it wrote. Writes made while the segment was built are
 *    not lost.
 * 1b. A change elsewhere the feed lists (over FEED_LIST_MAX ids) lets answers go on before its ids
 *    are parsed, and still ends up indexed as the store holds it.
 * 2. Our own big write resolves with its segment in; 2b. split over two workers (BUILD_WORKER.splitAt),
 *    its two segments are put in together and answer as a fresh build; 2c. a segment's thread runs
 *    at BUILD_WORKER.segmentNice (Linux: per thread), not a full build's; 2d. it is built on the
 *    spare worker started when the database opened (BUILD_WORKER.spare); 2f. a spare no segment takes
 *    within BUILD_WORKER.spareIdleMs is let go (its thread exits), and the next big write builds its
 *    segment on a worker of its own, then starts a spare again.
 * 3. A big change while a full build runs: the full build is stopped, the segment goes in first, the
 *    full build runs again after it.
 * 4. A worker that fails the segment: warned, and a full build (on the main thread, the worker
 *    failing too) leaves nothing out.
 * 5. A store whose contacts this thread reads and posts (PostgreSQL's way): the same segment; and over
 *    the real PostgreSQL, two databases on one schema: one's big write is the other's segment.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, test } from 'node:test';
import { IndexedContactDatabase } from '../src/database/contact-database.ts';
import { niceOfThreads } from './support/thread-nice.ts';
import {
  BUILD_WORKER,
  dropSpareSegmentWorker,
  spareStarted,
  spareThread,
} from '../src/database/worker-build.ts';
import { generateContacts } from '../src/demo/generate.ts';
import { search } from '../src/search/match.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { applyChange, FEED_LIST_MAX, type ContactStore } from '../src/store/store.ts';
import { contact } from './cases/store.case.ts';
import { answersAsFresh, bigChange, sameAsStore, stored, until } from './support/segment-checks.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { dropSchema, PG_URL, withPostgres } from './support/pg.ts';

const dir = mkdtempSync(join(tmpdir(), 'contacts-big-'));
const MIN = BUILD_WORKER.minContacts;
BUILD_WORKER.minContacts = 0;
afterEach(() => {
  BUILD_WORKER.fail = undefined;
});
after(() => {
  BUILD_WORKER.minContacts = MIN;
  rmSync(dir, { recursive: true, force: true });
});

/** A change of 1,650 ids (a big one at 2,500 contacts: over 1,000): 1,400 new, 150 renamed, 100 deleted. */
const { generated, base: BASE, renamed, upsert } = bigChange(31, 'Bigrenamed');
const BIG = {
  upsert,
  delete: BASE.slice(150, 250).map((c) => c.ContactId),
};
const QUERIES = [
  'a',
  'ma',
  'jo',
  'st',
  'e',
  '+1',
  '555',
  'gmail',
  'mar jo',
  'smiht',
  'bigrenamed',
  'bigrenamed2 a',
];

const found = (db: IndexedContactDatabase, q: string) =>
  search(db.index, q, undefined, 1000)
    .hits.map((h) => db.index.view(h.ord).ContactId)
    .sort();

const running = (db: IndexedContactDatabase) =>
  (db as unknown as { rebuilds: { running: boolean } }).rebuilds.running;

async function seeded(
  name: string,
): Promise<{ file: string; db: IndexedContactDatabase; warnings: string[] }> {
  const file = join(dir, `${name}.db`);
  await applyChange(openSqliteStore(file), { upsert: BASE });
  const warnings: string[] = [];
  const db = await IndexedContactDatabase.open(name, openSqliteStore(file), (m) =>
    warnings.push(m),
  );
  return { file, db, warnings };
}

test("1. another writer's big change: answers meanwhile from the current index, then from a segment, then from a full build", async () => {
  const { file, db, warnings } = await seeded('one');
  const other = openSqliteStore(file);
  await applyChange(other, BIG);
  const buildId = db.index.buildId;
  await db.sync();
  assert.ok(running(db), 'the segment is being built');
  assert.equal(db.index.segments.length, 0);
  assert.deepEqual(found(db, 'bigrenamed'), [], 'meanwhile: the current index');
  assert.equal(found(db, BASE[200].DisplayName).includes(BASE[200].ContactId), true);
  // Writes while it builds (until it is in): updates of contacts the change renamed, deletes of
  // ones it added, new ones. Those after the worker read the store are only in the journal.
  let writes = 0;
  for (let i = 0; db.index.segments.length === 0; i++) {
    assert.ok(i < 2000, 'the segment is in within 2,000 writes');
    await db.write({
      upsert: [
        { ...renamed[i % renamed.length], City: `During${i}` },
        contact(`during-${i}`, 'Dora', `Duringson${i}`),
      ],
      delete: [generated[2500 + (i % 1400)].ContactId],
    });
    writes++;
    await new Promise((r) => setTimeout(r, 5));
  }
  // What the index holds now, read in this turn: the full build behind the segment cannot be in yet.
  assert.equal(db.index.segments.length, 1);
  assert.equal(db.index.buildId, buildId, 'no full build yet');
  const held = new Map([...db.all()].map((c) => [c.ContactId, c]));
  const bigFound = found(db, 'bigrenamed');
  const deletedFound = found(db, BASE[200].DisplayName).includes(BASE[200].ContactId);
  assert.ok(writes >= 10, `writes while the segment was built: ${writes}`);
  const want = await stored(other);
  assert.equal(held.size, want.length);
  for (const c of want) assert.deepEqual(held.get(c.ContactId), c, c.ContactId);
  assert.deepEqual(bigFound, renamed.map((c) => c.ContactId).sort());
  assert.equal(deletedFound, false, 'deleted by the change');
  await until(() => db.index.buildId === buildId + 1 && !running(db), 'the full build in');
  assert.equal(db.index.segments.length, 0);
  await sameAsStore(db, other);
  await answersAsFresh(db, other, QUERIES);
  assert.deepEqual(warnings, []);
  await db.close();
  const again = await IndexedContactDatabase.open('one', openSqliteStore(file));
  assert.equal(again.openedFrom, 'snapshot');
  assert.equal(again.index.segments.length, 0);
  await sameAsStore(again, other);
  await again.close();
  await other.close();
});

test('1b. a change elsewhere the feed lists (over FEED_LIST_MAX ids) does not hold answers while its ids are parsed', async () => {
  const { file, db } = await seeded('oneb');
  const other = openSqliteStore(file);
  const many = [...generateContacts({ count: FEED_LIST_MAX + 1, seed: 32, startAt: 5001 })].flat();
  await applyChange(other, { upsert: many });
  const size = db.size;
  await db.sync();
  // Answered from the current index: its ids still being parsed, a turn a row, no segment asked for yet.
  assert.equal(running(db), false);
  assert.equal(db.size, size);
  await until(() => db.size === size + many.length && !running(db), 'the change in');
  await sameAsStore(db, other);
  await db.close();
  await other.close();
});

test('2. our own big write resolves with its segment in', async () => {
  const { db } = await seeded('two');
  const buildId = db.index.buildId;
  const summary = await db.write(BIG);
  assert.deepEqual(summary, { inserted: 1400, updated: 150, deleted: 100 });
  assert.equal(db.index.segments.length, 1);
  assert.equal(db.index.buildId, buildId);
  assert.deepEqual(found(db, 'bigrenamed'), renamed.map((c) => c.ContactId).sort());
  await answersAsFresh(db, openSqliteStore(join(dir, 'two.db')), QUERIES);
  await until(() => !running(db), 'the full build after it');
  await sameAsStore(db, openSqliteStore(join(dir, 'two.db')));
  await db.close();
});

test("2c. a segment's thread runs at BUILD_WORKER.segmentNice, not a full build's nice", async () => {
  const { db } = await seeded('twoc');
  const { segmentNice } = BUILD_WORKER;
  // A value of its own, so its thread is told from this one and from a full build's (+10).
  BUILD_WORKER.segmentNice = 3;
  try {
    const want = String(Math.min(19, getPriority() + 3));
    let done = false,
      seen = false;
    const writing = db.write(BIG).then(() => (done = true));
    while (!done) {
      seen ||= niceOfThreads().includes(want);
      await new Promise((r) => setTimeout(r, 1));
    }
    await writing;
    assert.equal(db.index.segments.length, 1);
    assert.ok(seen, `a thread at nice ${want} while the segment was built`);
    await until(() => !running(db), 'the full build after it');
  } finally {
    BUILD_WORKER.segmentNice = segmentNice;
  }
  await db.close();
});

/** Waits, the event loop idle between looks (not spinning it as `until` does), until `check()`. */
async function quietUntil(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within 60 s: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('2d. a segment is built on the spare worker started once the open is done', async () => {
  dropSpareSegmentWorker();
  const { db, warnings } = await seeded('twod'); // the open starts a spare at the loop's first quiet moment
  await quietUntil(spareStarted, 'the spare started, the event loop being idle');
  const { url } = BUILD_WORKER;
  // A worker started from here on cannot load: only the spare, started before, can build the segment.
  BUILD_WORKER.url = new URL('./no-such-worker.ts', url);
  try {
    await db.write(BIG);
  } finally {
    BUILD_WORKER.url = url;
    dropSpareSegmentWorker(); // the one started after the segment, from the broken url
  }
  assert.deepEqual(warnings, []);
  assert.equal(db.index.segments.length, 1);
  await answersAsFresh(db, openSqliteStore(join(dir, 'twod.db')), QUERIES);
  await until(() => !running(db), 'the full build after it');
  await db.close();
});

test('2e. the spare waits while the event loop is busy (the first requests after an open)', async () => {
  dropSpareSegmentWorker();
  const { idleWaitMs } = BUILD_WORKER;
  BUILD_WORKER.idleWaitMs = 600_000; // no start for having waited long enough, in this test
  try {
    const { db } = await seeded('twoe');
    // Turns of work back to back, as requests answered one after another: never quiet.
    for (let turn = 0; turn < 40; turn++) {
      const end = performance.now() + 25;
      while (performance.now() < end);
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(spareStarted(), false, 'no spare while the loop was busy');
    await quietUntil(spareStarted, 'the spare started once the loop was quiet');
    await db.close();
  } finally {
    BUILD_WORKER.idleWaitMs = idleWaitMs;
  }
});

test('2f. a spare no segment takes is let go after BUILD_WORKER.spareIdleMs; the next segment starts its own', async () => {
  dropSpareSegmentWorker();
  const { spareIdleMs } = BUILD_WORKER;
  BUILD_WORKER.spareIdleMs = 300;
  try {
    const { db, warnings } = await seeded('twof');
    await quietUntil(spareStarted, 'the spare started, the event loop being idle');
    const thread = spareThread()!;
    const exited = new Promise<number>((done) => thread.once('exit', done));
    await quietUntil(() => !spareStarted(), 'the unused spare let go');
    await exited; // its thread is gone, not only forgotten
    await db.write(BIG);
    assert.deepEqual(warnings, []);
    assert.equal(db.index.segments.length, 1);
    await answersAsFresh(db, openSqliteStore(join(dir, 'twof.db')), QUERIES);
    await quietUntil(spareStarted, 'a spare started again after the segment');
    await until(() => !running(db), 'the full build after it');
    await db.close();
  } finally {
    BUILD_WORKER.spareIdleMs = spareIdleMs;
    dropSpareSegmentWorker();
  }
});

test('2b. a big change on two workers: two segments put in together, answering as a fresh build', async () => {
  const { db } = await seeded('twob');
  const { splitAt, splitCores } = BUILD_WORKER;
  BUILD_WORKER.splitAt = 1000; // the change is 1,650 ids
  BUILD_WORKER.splitCores = 2;
  try {
    const buildId = db.index.buildId;
    await db.write(BIG);
    assert.equal(db.index.segments.length, availableParallelism() < 2 ? 1 : 2);
    assert.equal(db.index.buildId, buildId);
    assert.deepEqual(found(db, 'bigrenamed'), renamed.map((c) => c.ContactId).sort());
    await sameAsStore(db, openSqliteStore(join(dir, 'twob.db')));
    await answersAsFresh(db, openSqliteStore(join(dir, 'twob.db')), QUERIES);
  } finally {
    BUILD_WORKER.splitAt = splitAt;
    BUILD_WORKER.splitCores = splitCores;
  }
  await until(() => !running(db), 'the full build after it');
  assert.equal(db.index.segments.length, 0);
  await db.close();
});

test('3. a big change while a full build runs goes in first; the full build runs again after it', async () => {
  const { file, db } = await seeded('three');
  const other = openSqliteStore(file);
  const buildId = db.index.buildId;
  // A Replace elsewhere: everything changed, a full build from the store.
  await applyChange(other, { upsert: BASE.slice(0, 2400), replaceAll: true });
  await db.sync();
  assert.ok(running(db), 'the full build runs');
  await applyChange(other, BIG);
  await db.sync();
  await until(() => db.index.segments.length === 1, 'the segment in');
  assert.equal(db.index.buildId, buildId, 'before any full build was swapped in');
  assert.deepEqual(found(db, 'bigrenamed'), renamed.map((c) => c.ContactId).sort());
  await until(() => db.index.segments.length === 0 && !running(db), 'the full build in');
  assert.equal(db.index.buildId, buildId + 1, 'one full build (the stopped one, run again)');
  await sameAsStore(db, other);
  await answersAsFresh(db, other, QUERIES);
  await db.close();
  await other.close();
});

test('4. a segment worker that fails: warned, and a full build leaves nothing out', async () => {
  const { file, db, warnings } = await seeded('four');
  const other = openSqliteStore(file);
  await applyChange(other, BIG);
  BUILD_WORKER.fail = 'a test fault';
  const buildId = db.index.buildId;
  await db.sync();
  await until(() => db.index.buildId === buildId + 1 && !running(db), 'the full build in');
  assert.equal(warnings.length, 2, warnings.join('\n'));
  assert.match(warnings[0], /segment build on a worker thread failed/);
  assert.match(warnings[1], /index build on a worker thread failed/);
  await sameAsStore(db, other);
  await db.close();
  await other.close();
});

test("5. a store read on this thread and posted to the worker (PostgreSQL's way) makes the same segment", async () => {
  const file = join(dir, 'five.db');
  await applyChange(openSqliteStore(file), { upsert: BASE });
  const fed = { ...openSqliteStore(file), backend: 'postgres' } as ContactStore;
  const db = await IndexedContactDatabase.open('five', fed);
  const other = openSqliteStore(file);
  await applyChange(other, BIG);
  await db.sync();
  await until(() => db.index.segments.length === 1, 'the segment in');
  await sameAsStore(db, other);
  await answersAsFresh(db, other, QUERIES);
  await until(() => !running(db), 'the full build after it');
  await db.close();
  await other.close();
});

await withPostgres("5. PostgreSQL: one database's big write is the other's segment", () => {
  test("5. PostgreSQL: one database's big write is the other's segment", async () => {
    const schema = `contacts_big_${process.pid}`;
    const open = () => openPostgresStore({ url: PG_URL, schema });
    await dropSchema(schema);
    try {
      const seed = await open();
      await applyChange(seed, { upsert: BASE });
      await seed.close();
      const a = await IndexedContactDatabase.open('PgA', await open());
      const bStore = await open();
      const b = await IndexedContactDatabase.open('PgB', bStore);
      await a.write(BIG);
      assert.equal(a.index.segments.length, 1, 'the writer: its own segment');
      await until(() => {
        void b.sync();
        return b.index.segments.length === 1;
      }, 'the other: a segment from the feed');
      await sameAsStore(b, bStore);
      await answersAsFresh(b, bStore, QUERIES);
      await until(() => !running(a) && !running(b), 'the full builds after them');
      await a.close();
      await b.close();
    } finally {
      await dropSchema(schema);
    }
  });
});
