/**
 * Date ranges read each row's rank from a per-row copy (filters.ts rowRanks). Properties checked:
 * 1. A range gives the same contacts as comparing the values, for rows ranked before, rows written
 *    after the ranks were made (values newer than the ranks), replaced rows, and after a rebuild.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { contact, fixture, PEOPLE, type Fixture } from '../support/fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture(PEOPLE);
});
after(async () => {
  await f.close();
});

const since = (from: string, Query?: string) =>
  f.ids({
    ...(Query ? { Query } : {}),
    Filters: [{ Field: 'CreatedAt', Op: 'Gte', Values: [from] }],
    Sort: [{ Field: 'ContactId', Dir: 'Asc' }],
  });

test('1. ranges over ranked, newer and replaced rows', async () => {
  assert.deepEqual(await since('2025-01-01'), ['p08']); // ranks and row ranks made here
  await f.db.write({
    upsert: [
      contact('p12', 'Nina', 'New', { CreatedAt: '2026-03-01T00:00:00.000Z' }),
      contact('p13', 'Olaf', 'Old', { CreatedAt: '2019-03-01T00:00:00.000Z' }),
      { ...PEOPLE[6], CreatedAt: '2025-06-01T00:00:00.000Z' }, // p07 replaced: its old row is a tombstone
    ],
  });
  assert.deepEqual(await since('2025-01-01'), ['p07', 'p08', 'p12']);
  assert.deepEqual(await since('2025-01-01', 'new'), ['p08', 'p12']); // New York, Nina New
  f.db.index.build([...f.db.index.all()]);
  assert.deepEqual(await since('2025-01-01'), ['p07', 'p08', 'p12']);
  assert.deepEqual(
    await since('2019-01-01'),
    [...PEOPLE.map((c) => c.ContactId), 'p12', 'p13'].sort(),
  );
});
