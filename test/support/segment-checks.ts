/**
 * Checks shared by the segment tests (big-changes, writer-segments): what a store holds, an index's
 * ranked answers, "the index answers as a fresh build of the store would", waiting for a state,
 * and the big change both make.
 */
import assert from 'node:assert/strict';
import type { IndexedContactDatabase } from '../../src/database/contact-database.ts';
import { generateContacts } from '../../src/demo/generate.ts';
import type { Contact } from '../../src/fields/contact.ts';
import { search } from '../../src/search/match.ts';
import { SearchIndex } from '../../src/search/search-index.ts';
import type { ContactStore } from '../../src/store/store.ts';

export async function stored(store: ContactStore): Promise<Contact[]> {
  const out: Contact[] = [];
  for await (const batch of store.loadAll()) out.push(...batch);
  return out;
}

/** An index's hits for `q`, as "ContactId score". */
export const ranked = (index: SearchIndex, q: string, limit?: number) =>
  search(index, q, undefined, limit).hits.map((h) => `${index.view(h.ord).ContactId} ${h.score}`);

/** The database holds exactly what the store holds. */
export async function sameAsStore(db: IndexedContactDatabase, store: ContactStore): Promise<void> {
  const want = await stored(store);
  const got = new Map([...db.all()].map((c) => [c.ContactId, c]));
  assert.equal(got.size, want.length);
  for (const c of want) assert.deepEqual(got.get(c.ContactId), c, c.ContactId);
}

/** The database answers `queries` (all hits, and the first 10) as a fresh build of the store. */
export async function answersAsFresh(
  db: IndexedContactDatabase,
  store: ContactStore,
  queries: readonly string[],
): Promise<void> {
  const fresh = new SearchIndex();
  fresh.build(await stored(store));
  for (const q of queries)
    for (const limit of [undefined, 10])
      assert.deepEqual(ranked(db.index, q, limit), ranked(fresh, q, limit), `"${q}" ${limit}`);
}

/** Waits, a turn at a time, until `check` holds (so a state that lasts a few turns is seen). */
export async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within 60 s: ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * 4,000 generated contacts (`seed`): the first 2,500 a database's, and a big change to it (over
 * 1,000 at 2,500 contacts): 1,400 new ones and 150 of the base renamed `<name>0`–`<name>2`.
 */
export function bigChange(seed: number, name: string) {
  const generated = [...generateContacts({ count: 4000, seed })].flat();
  const base = generated.slice(0, 2500);
  const renamed = base.slice(0, 150).map((c, i) => ({
    ...c,
    LastName: `${name}${i % 3}`,
    DisplayName: `${c.FirstName} ${name}${i % 3}`,
  }));
  return { generated, base, renamed, upsert: [...generated.slice(2500, 3900), ...renamed] };
}
