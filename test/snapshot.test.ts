/**
 * The index snapshot beside a SQLite store (src/database/snapshot.ts), builds on the worker from any
 * size (BUILD_WORKER.minContacts = 0). Checked:
 * 1. A build writes the snapshot; a reopen loads it (no build) and answers every query of a set
 *    exactly as a fresh build does.
 * 2. A stale snapshot (others wrote after it: upserts, deletes) is caught up from the feed.
 * 3. A damaged snapshot — a flipped byte, cut short, another code version, another database's, one
 *    the feed no longer covers — is refused with one warning, the index built from the store, and a
 *    good snapshot written again.
 * 4. A snapshot behind a big change elsewhere (listed in the feed in rows of ids) is used: the change
 *    goes in as a segment before the open returns, and the index answers as a fresh build.
 * 5. Mapped (io/file-map.ts: every array here, BUILD_WORKER.mapFrom = 1) or read into memory (as
 *    without the addon), a snapshot answers the same; a mapped index takes writes as a copy would,
 *    the file unchanged (it is read-only too) and loaded again after.
 */
import assert from 'node:assert/strict';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { IndexedContactDatabase } from '../src/database/contact-database.ts';
import { BUILD_WORKER } from '../src/database/worker-build.ts';
import { FILE_MAP } from '../src/io/file-map.ts';
import { generateContacts } from '../src/demo/generate.ts';
import type { Contact } from '../src/fields/contact.ts';
import { imageBuffer, readImage } from '../src/search/index/image-file.ts';
import { search } from '../src/search/match.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { applyChange, FEED_LIST_MAX, type ContactStore } from '../src/store/store.ts';
import { SearchIndex } from '../src/search/search-index.ts';
import { contact } from './cases/store.case.ts';
import Database from 'better-sqlite3';

const dir = mkdtempSync(join(tmpdir(), 'contacts-snapshot-'));
const { minContacts: MIN, mapFrom: MAP_FROM } = BUILD_WORKER;
BUILD_WORKER.minContacts = 0;
BUILD_WORKER.mapFrom = 1;
after(() => {
  BUILD_WORKER.minContacts = MIN;
  BUILD_WORKER.mapFrom = MAP_FROM;
  rmSync(dir, { recursive: true, force: true });
});

const CONTACTS: Contact[] = [...generateContacts({ count: 400, seed: 9 })].flat();
const QUERIES = [
  'a',
  'ma',
  'jo',
  'st',
  'e',
  '+1',
  '+44 20',
  '555',
  'gmail',
  'mar jo',
  'smiht',
  'ber',
];

async function open(file: string) {
  const warnings: string[] = [];
  const db = await IndexedContactDatabase.open('Snap', openSqliteStore(file), (m) =>
    warnings.push(m),
  );
  return { db, warnings };
}

async function sameAsStore(db: IndexedContactDatabase, store: ContactStore): Promise<void> {
  const want = new Map<string, Contact>();
  for await (const batch of store.loadAll()) for (const c of batch) want.set(c.ContactId, c);
  const got = new Map([...db.all()].map((c) => [c.ContactId, c]));
  assert.equal(got.size, want.size);
  for (const [id, c] of want) assert.deepEqual(got.get(id), c, id);
}

const ranked = (db: IndexedContactDatabase) =>
  QUERIES.map((q) =>
    search(db.index, q, undefined, 40).hits.map((h) => [db.index.view(h.ord).ContactId, h.score]),
  );

async function seeded(name: string): Promise<string> {
  const file = join(dir, `${name}.db`);
  await applyChange(openSqliteStore(file), { upsert: CONTACTS });
  const { db } = await open(file); // the build writes the snapshot
  await db.close();
  assert.ok(existsSync(`${file}.index`));
  return file;
}

test('1. a reopen loads the snapshot and answers as a fresh build', async () => {
  const file = await seeded('one');
  const { db, warnings } = await open(file);
  assert.equal(db.openedFrom, 'snapshot');
  assert.deepEqual(warnings, []);
  rmSync(`${file}.index`);
  const fresh = await open(file);
  assert.equal(fresh.db.openedFrom, 'store');
  assert.deepEqual(ranked(db), ranked(fresh.db));
  await sameAsStore(db, openSqliteStore(file));
  await Promise.all([db.close(), fresh.db.close()]);
});

test('2. a stale snapshot is caught up from the change feed', async () => {
  const file = await seeded('two');
  const other = openSqliteStore(file); // another writer
  await applyChange(other, {
    upsert: [contact('late1', 'Quentin', 'Zyxwvut'), { ...CONTACTS[3], City: 'Reykjavik' }],
    delete: [CONTACTS[5].ContactId, CONTACTS[6].ContactId],
  });
  const { db, warnings } = await open(file);
  assert.equal(db.openedFrom, 'snapshot');
  assert.deepEqual(warnings, []);
  await sameAsStore(db, other);
  assert.deepEqual(
    search(db.index, 'zyxw', undefined, 5).hits.map((h) => db.index.view(h.ord).ContactId),
    ['late1'],
  );
  await db.close();
});

/** Damages the snapshot of `file` in one way; the reopen must refuse it, build, and write a good one. */
async function refused(
  file: string,
  damage: (snap: string) => void | Promise<void>,
): Promise<void> {
  chmodSync(`${file}.index`, 0o644); // read-only as written (a non-root run may not write it)
  await damage(`${file}.index`);
  const { db, warnings } = await open(file);
  assert.equal(db.openedFrom, 'store');
  assert.equal(warnings.length, 1, warnings.join('; '));
  await sameAsStore(db, openSqliteStore(file));
  await db.close();
  const again = await open(file);
  assert.equal(again.db.openedFrom, 'snapshot');
  await again.db.close();
}

test('3. a damaged, foreign or uncovered snapshot is refused and rebuilt', async () => {
  const file = await seeded('three');
  const otherFile = await seeded('three-other');
  await refused(file, (snap) => {
    const b = readFileSync(snap);
    b[Math.floor(b.length * 0.6)] ^= 0x10;
    writeFileSync(snap, b);
  });
  await refused(file, (snap) => truncateSync(snap, Math.floor(readFileSync(snap).length / 2)));
  await refused(file, (snap) => {
    const { image, meta } = readImage<Record<string, unknown>>(readFileSync(snap));
    writeFileSync(snap, imageBuffer(image, { ...meta, code: 'other code' }));
  });
  await refused(file, (snap) => copyFileSync(`${otherFile}.index`, snap));
  await refused(file, () => {
    // A row the feed does not list (written past the store, say), the kept count moved with it:
    // the store holds one contact more than the snapshot and its feed.
    const raw = new Database(file);
    raw
      .prepare('INSERT INTO contacts (contact_id, doc) VALUES (?, ?)')
      .run('past', JSON.stringify(contact('past', 'Pat', 'Past')));
    raw.exec('UPDATE contact_count SET n = n + 1');
    raw.close();
  });
  await refused(file, async () => {
    // A Replace elsewhere: the feed says "everything changed", not what.
    const many = Array.from({ length: 50 }, (_, i) => contact(`bulk${i}`, 'Bulk', `N${i}`));
    await applyChange(openSqliteStore(file), { upsert: many, replaceAll: true });
  });
});

test('3b. a kept count gone wrong is counted anew and set right, and the snapshot used', async () => {
  const file = await seeded('three-b');
  const raw = new Database(file);
  raw.exec('UPDATE contact_count SET n = n + 7');
  raw.close();
  const { db, warnings } = await open(file);
  assert.equal(db.openedFrom, 'snapshot');
  assert.equal(warnings.length, 1, warnings.join('; '));
  assert.match(warnings[0], /kept contact count read 407, its contacts 400: set right/);
  assert.equal(await openSqliteStore(file).count(), 400);
  await db.close();
  const again = await open(file);
  assert.deepEqual([again.db.openedFrom, again.warnings], ['snapshot', []]);
  await again.db.close();
});

test('4. a snapshot behind a big change elsewhere takes it in as a segment', async () => {
  const file = await seeded('four');
  const other = openSqliteStore(file);
  const many = Array.from({ length: FEED_LIST_MAX + 1 }, (_, i) =>
    contact(`bulk${i}`, 'Bulk', `Numbered${i % 10}`),
  );
  await applyChange(other, {
    upsert: [...many, { ...CONTACTS[3], City: 'Reykjavik' }],
    delete: [CONTACTS[5].ContactId],
  });
  const { db, warnings } = await open(file);
  assert.equal(db.openedFrom, 'snapshot');
  assert.deepEqual(warnings, []);
  assert.equal(db.index.segments.length, 1);
  await sameAsStore(db, other);
  const fresh = new SearchIndex();
  fresh.build(db.all());
  const freshRanked = QUERIES.concat(['bulk', 'numbered3', 'reykj']).map((q) =>
    search(fresh, q, undefined, 40).hits.map((h) => [fresh.view(h.ord).ContactId, h.score]),
  );
  const got = QUERIES.concat(['bulk', 'numbered3', 'reykj']).map((q) =>
    search(db.index, q, undefined, 40).hits.map((h) => [db.index.view(h.ord).ContactId, h.score]),
  );
  assert.deepEqual(got, freshRanked);
  await db.close();
  await other.close();
});

/** Whether this process maps `file` (Linux; elsewhere: undefined). */
const mapped = (file: string) =>
  process.platform === 'linux'
    ? readFileSync('/proc/self/maps', 'utf8')
        .split('\n')
        .some((l) => l.endsWith(file))
    : undefined;

test('5. mapped or read, a snapshot answers the same; a mapped index takes writes, the file unchanged', async () => {
  const file = await seeded('five');
  const snap = `${file}.index`;
  const before = readFileSync(snap);
  const { ino } = statSync(snap);
  assert.equal(statSync(snap).mode & 0o222, 0, 'written read-only');
  const { db } = await open(file);
  assert.equal(db.openedFrom, 'snapshot');
  if (process.platform === 'linux') assert.equal(mapped(snap), FILE_MAP.built);
  FILE_MAP.enabled = false;
  try {
    const read = await open(file);
    assert.equal(read.db.openedFrom, 'snapshot');
    assert.deepEqual(ranked(read.db), ranked(db));
    await read.db.close();
  } finally {
    FILE_MAP.enabled = FILE_MAP.built;
  }
  const table = db.index.table;
  const held = table.columns.map((c) => [c.ids.a.buffer, c.offs?.a.buffer]);
  const tableBytes = table.approximateBytes();
  await db.write({
    upsert: [contact('new1', 'Quirinus', 'Wexford'), { ...CONTACTS[7], City: 'Tromsø' }],
    delete: [CONTACTS[8].ContactId],
  });
  await sameAsStore(db, openSqliteStore(file));
  // The rows went into the room the snapshot left after each column: none was copied.
  table.columns.forEach((c, k) => {
    assert.equal(c.ids.a.buffer, held[k][0], `${c.field.name}'s ids copied`);
    assert.equal(c.offs?.a.buffer, held[k][1], `${c.field.name}'s offsets copied`);
  });
  assert.ok(
    table.approximateBytes() < tableBytes * 1.2,
    `the table grew from ${tableBytes} to ${table.approximateBytes()} bytes for two rows`,
  );
  assert.deepEqual(
    search(db.index, 'quiri wex', undefined, 5).hits.map((h) => db.index.view(h.ord).ContactId),
    ['new1'],
  );
  await db.close();
  assert.equal(statSync(snap).ino, ino, 'no new snapshot after a small write');
  assert.ok(readFileSync(snap).equals(before), 'the mapped file unchanged');
  const again = await open(file);
  assert.equal(again.db.openedFrom, 'snapshot');
  await sameAsStore(again.db, openSqliteStore(file));
  await again.db.close();
});
