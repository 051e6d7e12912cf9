/**
 * The shared ContactStore suite, run once per store (SQLite file, real PostgreSQL):
 * each implementation must persist, apply ChangeSets atomically and keep saved searches.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Contact } from '../../src/fields/contact.ts';
import {
  applyChange,
  FEED_LIST_BIG,
  FEED_LIST_MAX,
  FeedRecorder,
  listedCount,
  listedIds,
  type ContactStore,
} from '../../src/store/store.ts';

export function contact(
  id: string,
  first: string,
  last: string,
  extra: Partial<Contact> = {},
): Contact {
  return {
    ContactId: id,
    FirstName: first,
    LastName: last,
    DisplayName: `${first} ${last}`,
    Emails: [`${first.toLowerCase()}@example.org`],
    Phones: ['+1 555 0100'],
    Tags: ['vip'],
    CreatedAt: '2024-01-01T00:00:00.000Z',
    UpdatedAt: '2024-01-01T00:00:00.000Z',
    ...extra,
  };
}

async function all(store: ContactStore): Promise<Contact[]> {
  const out: Contact[] = [];
  for await (const batch of store.loadAll(2)) out.push(...batch);
  return out.sort((a, b) => a.ContactId.localeCompare(b.ContactId));
}

/** `open` gives a fresh, empty store; `reopen` the same data through a new connection. */
export function storeCases(
  label: string,
  open: () => Promise<ContactStore>,
  reopen: () => Promise<ContactStore>,
) {
  test(`${label}: upsert, read back in batches, reopen`, async () => {
    const s = await open();
    await applyChange(s, {
      upsert: [
        contact('a', 'Zoë', 'Ångström'),
        contact('b', '太郎', '山田'),
        contact('c', 'Ann', 'Lee'),
      ],
    });
    assert.equal(await s.count(), 3);
    await s.close();
    const r = await reopen();
    const got = await all(r);
    assert.deepEqual(
      got.map((c) => c.ContactId),
      ['a', 'b', 'c'],
    );
    assert.equal(got[0].FirstName, 'Zoë');
    assert.equal(got[1].LastName, '山田');
    await r.close();
  });

  test(`${label}: upsert replaces, delete removes, replaceAll clears first`, async () => {
    const s = await open();
    await applyChange(s, { upsert: [contact('a', 'Ann', 'Lee'), contact('b', 'Bob', 'Ray')] });
    await applyChange(s, { upsert: [contact('a', 'Anna', 'Lee')], delete: ['b', 'missing'] });
    assert.deepEqual(
      (await all(s)).map((c) => [c.ContactId, c.FirstName]),
      [['a', 'Anna']],
    );
    await applyChange(s, { replaceAll: true, upsert: [contact('z', 'Zed', 'Zo')] });
    assert.deepEqual(
      (await all(s)).map((c) => c.ContactId),
      ['z'],
    );
    await s.close();
  });

  test(`${label}: a ChangeSet that fails part-way changes nothing`, async () => {
    const s = await open();
    await applyChange(s, { upsert: [contact('a', 'Ann', 'Lee')] });
    const bad = { ...contact('b', 'Bob', 'Ray'), ContactId: null } as unknown as Contact; // violates NOT NULL
    await assert.rejects(
      applyChange(s, { replaceAll: true, upsert: [contact('c', 'Cy', 'Ode'), bad] }),
    );
    assert.deepEqual(
      (await all(s)).map((c) => c.ContactId),
      ['a'],
    );
    await s.close();
  });

  test(`${label}: a transaction written in several calls commits whole or rolls back whole; get by ids`, async () => {
    const s = await open();
    await applyChange(s, { upsert: [contact('a', 'Ann', 'Lee'), contact('b', 'Bob', 'Ray')] });
    const rolled = await s.begin();
    await rolled.put([contact('c', 'Cy', 'Ode')]);
    await rolled.put([contact('a', 'Anna', 'Lee')]);
    assert.equal(await rolled.deleteAllExcept(['a', 'c']), 1);
    await rolled.rollback();
    await rolled.rollback(); // twice is harmless
    assert.deepEqual(
      (await all(s)).map((c) => [c.ContactId, c.FirstName]),
      [
        ['a', 'Ann'],
        ['b', 'Bob'],
      ],
    );
    const tx = await s.begin();
    await tx.put([contact('c', 'Cy', 'Ode')]);
    await tx.put([contact('a', 'Anna', 'Lee')]);
    assert.equal(await tx.deleteAllExcept(['a', 'c']), 1);
    await tx.commit();
    assert.deepEqual(
      (await all(s)).map((c) => [c.ContactId, c.FirstName]),
      [
        ['a', 'Anna'],
        ['c', 'Cy'],
      ],
    );
    assert.deepEqual((await s.get(['c', 'missing', 'a'])).map((c) => c.ContactId).sort(), [
      'a',
      'c',
    ]);
    assert.deepEqual(await s.get([]), []);
    await s.close();
  });

  test(`${label}: count follows every kind of write, and a rolled-back one not at all`, async () => {
    const s = await open();
    assert.equal(await s.count(), 0);
    await applyChange(s, { upsert: [contact('a', 'Ann', 'Lee'), contact('b', 'Bob', 'Ray')] });
    await applyChange(s, { upsert: [contact('a', 'Anna', 'Lee'), contact('c', 'Cy', 'Ode')] }); // one new, one replaced
    assert.equal(await s.count(), 3);
    await applyChange(s, { delete: ['b', 'missing'] });
    assert.equal(await s.count(), 2);
    const rolled = await s.begin();
    await rolled.put([contact('d', 'Dee', 'Dee')]);
    await rolled.delete(['a']);
    await rolled.rollback();
    assert.equal(await s.count(), 2);
    await applyChange(s, {
      replaceAll: true,
      upsert: [contact('x', 'Xi', 'Xu'), contact('c', 'Cy', 'Ode')],
    });
    assert.equal(await s.count(), 2);
    const tx = await s.begin();
    await tx.put([contact('e', 'Eve', 'Eng')]);
    assert.equal(await tx.deleteAllExcept(['e']), 2);
    await tx.commit();
    assert.equal(await s.count(), 1);
    await s.close();
    const r = await reopen();
    assert.equal(await r.count(), 1);
    await r.close();
  });

  test(`${label}: saved searches are kept by case-insensitive name`, async () => {
    const s = await open();
    const now = '2024-02-02T00:00:00.000Z';
    await s.putSavedSearch({
      Name: 'My VIPs',
      Query: 'smith',
      Filters: [{ Field: 'Tags', Op: 'In', Values: ['vip'] }],
      CreatedAt: now,
      UpdatedAt: now,
    });
    await s.putSavedSearch({ Name: 'my vips', Query: 'jones', CreatedAt: now, UpdatedAt: now });
    const list = await s.listSavedSearches();
    assert.equal(list.length, 1);
    assert.equal(list[0].Query, 'jones');
    assert.equal(await s.deleteSavedSearch('MY VIPS'), true);
    assert.equal(await s.deleteSavedSearch('MY VIPS'), false);
    await s.close();
  });

  test(`${label}: the change feed tells one connection what another committed, and only that`, async () => {
    const a = await open();
    const b = await reopen(); // a second connection to the same data: another process or node
    b.feed.moved();
    const start = await b.feed.head();
    const now = '2024-02-02T00:00:00.000Z';
    await applyChange(a, { upsert: [contact('a', 'Ann', 'Lee'), contact('b', 'Bob', 'Ray')] });
    await applyChange(a, { delete: ['b', 'never-there'] });
    await a.putSavedSearch({ Name: 'Mine', Query: 'lee', CreatedAt: now, UpdatedAt: now });
    assert.ok(await eventually(() => b.feed.moved()), 'b is told that something moved'); // PostgreSQL: once the NOTIFY arrives
    const seen = await b.feed.since(start);
    assert.deepEqual(seen.contacts.sort(), ['a', 'b', 'never-there']);
    assert.equal(seen.saved, true);
    assert.equal(seen.all, false);
    assert.ok(seen.last > start);
    const own = await a.feed.since(start);
    assert.deepEqual(
      [own.contacts, own.saved, own.all, own.last],
      [[], false, false, seen.last],
      'a writer is not told of its own writes',
    );
    assert.deepEqual(await b.feed.since(seen.last), {
      last: seen.last,
      contacts: [],
      listed: [],
      saved: false,
      all: false,
    });

    const rolled = await a.begin();
    await rolled.put([contact('q', 'Quinn', 'Oz')]);
    await rolled.rollback();
    assert.deepEqual(
      (await b.feed.since(seen.last)).contacts,
      [],
      'a rolled-back write leaves no trace',
    );

    await applyChange(a, { replaceAll: true, upsert: [contact('z', 'Zed', 'Zo')] });
    const replaced = await b.feed.since(seen.last);
    assert.equal(replaced.all, true, 'Replace: reload everything');
    const many = Array.from({ length: FEED_LIST_MAX + 1 }, (_, i) =>
      contact(`m${i}`, 'Many', `M${i}`),
    );
    await applyChange(a, { upsert: many });
    const big = await b.feed.since(replaced.last);
    assert.equal(big.all, false, 'a big write is listed (rows of ids), not "everything"');
    assert.deepEqual(
      [big.contacts, big.listed.length, listedCount(big)],
      [[], 2, FEED_LIST_MAX + 1],
      'in two rows of ids',
    );
    assert.deepEqual(
      (await listedIds(big)).sort(),
      many.map((c) => c.ContactId).sort(),
      'a big write lists every id it wrote',
    );
    const rows = new FeedRecorder();
    for (const c of many) rows.touch(c.ContactId);
    assert.deepEqual(
      rows.rows().filter(([kind]) => kind === 'all'),
      [['all', 'listed']],
      'with an "all" row that a reader built before listed writes takes for "reload everything"',
    );
    for (let i = 0; i <= FEED_LIST_BIG; i++) rows.touch(`x${i}`);
    assert.deepEqual(rows.rows(), [['all', null]], 'a write over FEED_LIST_BIG: everything');
    await applyChange(a, { upsert: [contact('m1', 'One', 'More')] });
    assert.deepEqual((await b.feed.since(big.last)).contacts, ['m1']);
    assert.equal(
      (await b.feed.since(big.last + 1_000)).all,
      true,
      'a reader ahead of the table (a file replaced under it) reloads',
    );
    await a.close();
    await b.close();
  });
}

/** Polls `check` until it holds (at most ~2 s): for what another connection is told asynchronously. */
export async function eventually(check: () => boolean | Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return true;
    await new Promise((done) => setTimeout(done, 10));
  }
  return false;
}
