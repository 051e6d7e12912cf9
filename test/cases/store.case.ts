/**
 * The shared ContactStore suite, run once per store (SQLite file, real PostgreSQL):
 * each implementation must persist, apply ChangeSets atomically and keep saved searches.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Contact } from '../../src/store/contact.ts';
import { applyChange, type ContactStore } from '../../src/store/store.ts';

export function contact(id: string, first: string, last: string, extra: Partial<Contact> = {}): Contact {
  return {
    ContactId: id, FirstName: first, LastName: last, DisplayName: `${first} ${last}`,
    Emails: [`${first.toLowerCase()}@example.org`], Phones: ['+1 555 0100'], Tags: ['vip'],
    CreatedAt: '2024-01-01T00:00:00.000Z', UpdatedAt: '2024-01-01T00:00:00.000Z', ...extra,
  };
}

async function all(store: ContactStore): Promise<Contact[]> {
  const out: Contact[] = [];
  for await (const batch of store.loadAll(2)) out.push(...batch);
  return out.sort((a, b) => a.ContactId.localeCompare(b.ContactId));
}

/** `open` gives a fresh, empty store; `reopen` the same data through a new connection. */
export function storeCases(label: string, open: () => Promise<ContactStore>, reopen: () => Promise<ContactStore>) {
  test(`${label}: upsert, read back in batches, reopen`, async () => {
    const s = await open();
    await applyChange(s, { upsert: [contact('a', 'Zoë', 'Ångström'), contact('b', '太郎', '山田'), contact('c', 'Ann', 'Lee')] });
    assert.equal(await s.count(), 3);
    await s.close();
    const r = await reopen();
    const got = await all(r);
    assert.deepEqual(got.map((c) => c.ContactId), ['a', 'b', 'c']);
    assert.equal(got[0].FirstName, 'Zoë');
    assert.equal(got[1].LastName, '山田');
    await r.close();
  });

  test(`${label}: upsert replaces, delete removes, replaceAll clears first`, async () => {
    const s = await open();
    await applyChange(s, { upsert: [contact('a', 'Ann', 'Lee'), contact('b', 'Bob', 'Ray')] });
    await applyChange(s, { upsert: [contact('a', 'Anna', 'Lee')], delete: ['b', 'missing'] });
    assert.deepEqual((await all(s)).map((c) => [c.ContactId, c.FirstName]), [['a', 'Anna']]);
    await applyChange(s, { replaceAll: true, upsert: [contact('z', 'Zed', 'Zo')] });
    assert.deepEqual((await all(s)).map((c) => c.ContactId), ['z']);
    await s.close();
  });

  test(`${label}: a ChangeSet that fails part-way changes nothing`, async () => {
    const s = await open();
    await applyChange(s, { upsert: [contact('a', 'Ann', 'Lee')] });
    const bad = { ...contact('b', 'Bob', 'Ray'), ContactId: null } as unknown as Contact; // violates NOT NULL
    await assert.rejects(applyChange(s, { replaceAll: true, upsert: [contact('c', 'Cy', 'Ode'), bad] }));
    assert.deepEqual((await all(s)).map((c) => c.ContactId), ['a']);
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
    assert.deepEqual((await all(s)).map((c) => [c.ContactId, c.FirstName]), [['a', 'Ann'], ['b', 'Bob']]);
    const tx = await s.begin();
    await tx.put([contact('c', 'Cy', 'Ode')]);
    await tx.put([contact('a', 'Anna', 'Lee')]);
    assert.equal(await tx.deleteAllExcept(['a', 'c']), 1);
    await tx.commit();
    assert.deepEqual((await all(s)).map((c) => [c.ContactId, c.FirstName]), [['a', 'Anna'], ['c', 'Cy']]);
    assert.deepEqual((await s.get(['c', 'missing', 'a'])).map((c) => c.ContactId).sort(), ['a', 'c']);
    assert.deepEqual(await s.get([]), []);
    await s.close();
  });

  test(`${label}: saved searches are kept by case-insensitive name`, async () => {
    const s = await open();
    const now = '2024-02-02T00:00:00.000Z';
    await s.putSavedSearch({ Name: 'My VIPs', Query: 'smith', Filters: [{ Field: 'Tags', Op: 'In', Values: ['vip'] }], CreatedAt: now, UpdatedAt: now });
    await s.putSavedSearch({ Name: 'my vips', Query: 'jones', CreatedAt: now, UpdatedAt: now });
    const list = await s.listSavedSearches();
    assert.equal(list.length, 1);
    assert.equal(list[0].Query, 'jones');
    assert.equal(await s.deleteSavedSearch('MY VIPS'), true);
    assert.equal(await s.deleteSavedSearch('MY VIPS'), false);
    await s.close();
  });
}
