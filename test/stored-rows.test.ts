/**
 * Rows written around the service (src/fields/stored.ts): a SQLite file whose contacts table holds,
 * beside the service's own rows, rows written by hand or by another tool that lack a list, hold a
 * single value where a list belongs, a number where text belongs, no DisplayName or no timestamps.
 * Checked, on the real build (the worker reads the file) and on a snapshot's catch-up from the
 * change feed (another writer's rows): the database loads, every row is searchable by its names,
 * the odd values read as the nearest contact's, and the stored rows are left as they were.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { IndexedContactDatabase } from '../src/database/contact-database.ts';
import { BUILD_WORKER } from '../src/database/worker-build.ts';
import { generateContacts } from '../src/demo/generate.ts';
import { storedContact } from '../src/fields/stored.ts';
import { search } from '../src/search/match.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { applyChange } from '../src/store/store.ts';
import type { Contact } from '../src/fields/contact.ts';

const dir = mkdtempSync(join(tmpdir(), 'contacts-stored-rows-'));
const MIN = BUILD_WORKER.minContacts;
BUILD_WORKER.minContacts = 0; // the build on its worker, as at 1M
after(() => {
  BUILD_WORKER.minContacts = MIN;
  rmSync(dir, { recursive: true, force: true });
});

const GOOD: Contact[] = [...generateContacts({ count: 50, seed: 4 })].flat();

/** Rows as another tool might write them: [contact_id, doc]. */
const ODD: [string, Record<string, unknown>][] = [
  ['odd-noemails', { ContactId: 'odd-noemails', FirstName: 'Quirin', LastName: 'Ohnemail' }],
  [
    'odd-strings',
    {
      ContactId: 'odd-strings',
      FirstName: 'Xaver',
      LastName: 'Einzelwert',
      Emails: 'xaver@einzel.example',
      Phones: '+49 30 1234567',
      Tags: null,
      CreatedAt: '2024-05-06T07:08:09.000Z',
    },
  ],
  [
    'odd-types',
    {
      ContactId: 'odd-types',
      FirstName: 'Yolanda',
      LastName: 'Zahlenwert',
      PostalCode: 10115,
      City: { name: 'Berlin' },
      Emails: ['yolanda@zahl.example', 42, null],
      Phones: [],
      Tags: ['vip'],
    },
  ],
  ['odd-noid', { FirstName: 'Wendelin', LastName: 'Ohneschluessel', Emails: [], Phones: [] }],
];

const NAMES: [string, string][] = [
  ['quirin ohnem', 'odd-noemails'],
  ['xaver einzel', 'odd-strings'],
  ['yolanda zahlen', 'odd-types'],
  ['wendelin ohnesch', 'odd-noid'],
];

function insertByHand(file: string): void {
  const raw = new Database(file);
  const put = raw.prepare('INSERT INTO contacts (contact_id, doc) VALUES (?, ?)');
  for (const [id, doc] of ODD) put.run(id, JSON.stringify(doc));
  raw.close();
}

function storedDocs(file: string): Map<string, string> {
  const raw = new Database(file, { readonly: true });
  const rows = raw
    .prepare("SELECT contact_id, doc FROM contacts WHERE contact_id LIKE 'odd-%'")
    .all() as {
    contact_id: string;
    doc: string;
  }[];
  raw.close();
  return new Map(rows.map((r) => [r.contact_id, r.doc]));
}

const idsFor = (db: IndexedContactDatabase, q: string) =>
  search(db.index, q, undefined, 5).hits.map((h) => db.index.view(h.ord).ContactId);

function checkOddRows(db: IndexedContactDatabase): void {
  for (const [q, id] of NAMES) assert.deepEqual(idsFor(db, q), [id], q);
  const byId = new Map([...db.all()].map((c) => [c.ContactId, c]));
  const noEmails = byId.get('odd-noemails')!;
  assert.deepEqual([noEmails.Emails, noEmails.Phones, noEmails.Tags], [[], [], []]);
  assert.equal(noEmails.DisplayName, 'Quirin Ohnemail', 'DisplayName derived');
  const strings = byId.get('odd-strings')!;
  assert.deepEqual(strings.Emails, ['xaver@einzel.example']);
  assert.deepEqual(strings.Phones, ['+49 30 1234567']);
  assert.deepEqual(strings.Tags, []);
  assert.equal(strings.UpdatedAt, '2024-05-06T07:08:09.000Z', 'UpdatedAt as CreatedAt');
  const types = byId.get('odd-types')!;
  assert.equal(types.PostalCode, '10115');
  assert.equal(types.City, undefined, 'an object where text belongs is dropped');
  assert.deepEqual(types.Emails, ['yolanda@zahl.example', '42']);
  assert.equal(byId.get('odd-noid')?.LastName, 'Ohneschluessel', 'keyed by its row');
  // Found by what the lists hold too.
  assert.deepEqual(idsFor(db, 'xaver@einzel'), ['odd-strings']);
}

test('rows written by hand without lists, with single values, numbers or no key: the full build loads them as the nearest contacts and the file keeps them as they were', async () => {
  const file = join(dir, 'by-hand.db');
  await applyChange(openSqliteStore(file), { upsert: GOOD });
  insertByHand(file);
  const before = storedDocs(file);
  const warnings: string[] = [];
  const db = await IndexedContactDatabase.open('Odd', openSqliteStore(file), (m) =>
    warnings.push(m),
  );
  assert.equal(db.size, GOOD.length + ODD.length);
  checkOddRows(db);
  assert.deepEqual(idsFor(db, `${GOOD[0].FirstName} ${GOOD[0].LastName}`)[0], GOOD[0].ContactId);
  await db.close();
  assert.deepEqual(storedDocs(file), before, 'the stored rows unchanged');
});

test("another writer's incomplete rows after a snapshot: the open catches up from the feed and answers", async () => {
  const file = join(dir, 'feed.db');
  await applyChange(openSqliteStore(file), { upsert: GOOD });
  const first = await IndexedContactDatabase.open('Odd', openSqliteStore(file), () => {});
  await first.close(); // the snapshot written
  // Another tool writing through the store's format, its documents incomplete (the feed names them).
  const other = openSqliteStore(file);
  await applyChange(other, {
    upsert: ODD.filter(([id]) => id !== 'odd-noid').map(([, doc]) => doc as unknown as Contact),
  });
  await other.close();
  const db = await IndexedContactDatabase.open('Odd', openSqliteStore(file), () => {});
  assert.equal(db.openedFrom, 'snapshot');
  for (const [q, id] of NAMES.slice(0, 3)) assert.deepEqual(idsFor(db, q), [id], q);
  await db.close();
});

test('storedContact: a complete row is returned as it is, untouched', () => {
  const c = GOOD[0];
  const copy = JSON.parse(JSON.stringify(c));
  assert.equal(
    storedContact(copy),
    copy,
    'the same object: no copy for the rows the service wrote',
  );
  assert.deepEqual(copy, JSON.parse(JSON.stringify(c)));
  const partial = { ContactId: 'p', FirstName: 'Pia' };
  const read = storedContact(partial);
  assert.notEqual(read, partial);
  assert.deepEqual(
    partial,
    { ContactId: 'p', FirstName: 'Pia' },
    'the parsed document not changed',
  );
});
