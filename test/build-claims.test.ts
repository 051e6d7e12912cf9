/**
 * The node's ledger of full builds' memory (src/database/build-claims.ts), so that two builds do not
 * each take the room one of them measured. Checked:
 * 1. ClaimBook: a claim fits when it and every other running one fit the room; forced ones always
 *    go in; a release and an owner's exit give theirs back.
 * 2. Over a real cluster (test/fixtures/build-claims-cluster.ts): a second worker's claim is refused
 *    while the first holds its own, granted once it is released, and a worker that exits holding a
 *    claim leaves none behind.
 * 3. Two databases of one process compacting after big writes at once, with room for one build:
 *    never two builds at a time, and both compacted in the end (the second at a recheck), with no
 *    warning (the room itself was not short).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ClaimBook } from '../src/database/build-claims.ts';
import { IndexedContactDatabase } from '../src/database/contact-database.ts';
import { BUILD_WORKER } from '../src/database/worker-build.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { applyChange } from '../src/store/store.ts';
import { roomTests } from './support/build-room.ts';
import { bigChange, sameAsStore, until } from './support/segment-checks.ts';

const dir = roomTests('contacts-claims-');

test('1. ClaimBook: claims fit the room together; forced ones go in; released and dropped ones leave', () => {
  const book = new ClaimBook();
  assert.equal(book.claim('a', 1, { need: 60, room: 100, force: false }), true);
  assert.equal(book.claim('b', 1, { need: 50, room: 100, force: false }), false, '60 + 50 > 100');
  assert.equal(book.claim('b', 2, { need: 40, room: 100, force: false }), true, '60 + 40 fit');
  assert.equal(book.claimed, 100);
  assert.equal(book.claim('c', 1, { need: 10, room: 100, force: true }), true, 'forced');
  assert.equal(book.claimed, 110);
  book.release('a', 1);
  assert.equal(book.claimed, 50);
  book.drop('b');
  assert.equal(book.claimed, 10);
  assert.equal(book.claim('b', 3, { need: 90, room: 100, force: false }), true);
});

test('2. over a real cluster: one worker at a time within the room; an exited worker holds nothing', () => {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'build-claims-cluster.ts')],
    { encoding: 'utf8', timeout: 60_000 },
  );
  assert.deepEqual(JSON.parse(out.trim().split('\n').at(-1)!), {
    'w1 first': true,
    'w2 while w1 holds': false,
    'w1 released': true,
    'w2 after release': true,
    claimedAfterExit: 0,
    'w1 after w2 died': true,
    claimedAtEnd: 60,
  });
});

const { base: BASE, upsert } = bigChange(51, 'Claimy');
const BIG = { upsert, delete: BASE.slice(150, 250).map((c) => c.ContactId) };
const running = (db: IndexedContactDatabase) =>
  (db as unknown as { rebuilds: { running: boolean } }).rebuilds.running;
/** A full build's worker runs (Rebuilds.once sets its stop signal; a segment sets none). */
const building = (db: IndexedContactDatabase) =>
  (db as unknown as { rebuilds: { stopFull?: AbortController } }).rebuilds.stopFull !== undefined;

test('3. two databases compacting at once with room for one: one build at a time, both done', async () => {
  const dbs: { db: IndexedContactDatabase; file: string; warnings: string[]; infos: string[] }[] =
    [];
  for (const name of ['three-a', 'three-b']) {
    const file = join(dir, `${name}.db`);
    await applyChange(openSqliteStore(file), { upsert: BASE });
    const warnings: string[] = [],
      infos: string[] = [];
    const db = await IndexedContactDatabase.open(
      name,
      openSqliteStore(file),
      (m) => warnings.push(m),
      (m) => infos.push(m),
    );
    dbs.push({ db, file, warnings, infos });
  }
  // Room for one compaction of a database with its segment in (~2.2 × its bytes), not two.
  const one = 2.2 * 1.8 * dbs[0].db.index.approximateBytes();
  BUILD_WORKER.room = () => ({ bytes: 1.5 * one, bound: 'machine', limit: 8 * one });
  const builds = dbs.map(({ db }) => db.index.buildId);
  let most = 0;
  let watching = true;
  const watch = (async () => {
    while (watching) {
      most = Math.max(most, dbs.filter(({ db }) => building(db)).length);
      await new Promise((r) => setImmediate(r));
    }
  })();
  await Promise.all(dbs.map(({ db }) => db.write(BIG)));
  await until(
    () => dbs.every(({ db }, i) => db.index.buildId === builds[i] + 1 && !running(db)),
    'both compacted',
  );
  watching = false;
  await watch;
  assert.equal(most, 1, 'never two builds at once');
  assert.ok(
    dbs.some(({ infos }) => infos.some((m) => /waits for another build/.test(m))),
    'one waited for the other',
  );
  for (const { db, file, warnings } of dbs) {
    assert.deepEqual(warnings, [], 'the room itself was not short');
    assert.equal(db.index.segments.length, 0);
    const store = openSqliteStore(file);
    await sameAsStore(db, store);
    await store.close();
    await db.close();
  }
});
