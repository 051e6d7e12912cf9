/**
 * Room for a small change made ahead, in steps (SearchIndex.roomSteps), before it is applied to the
 * delta: a table fresh from a snapshot has no spare room, and the first write after an open copied
 * every column in one go (a 1,000-contact import into 1M held the event loop ~1 s). Properties:
 * 1. The steps change no answer; afterwards applying the change copies no column array, and the
 *    index answers, row by row and query by query, as one that applied the same change without them
 *    (its entries made ahead as they would be made in place).
 * 2. Without entries asked for, the steps still make the room; a change bigger than the room made
 *    is still applied right (the arrays grow as before).
 * (A mapped snapshot taking a write through ContactDatabase, its id table copied off the mapping in
 * steps: test/snapshot.test.ts 5.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateContacts } from '../../src/demo/generate.ts';
import type { Contact } from '../../src/fields/contact.ts';
import type { Entry } from '../../src/search/contact-tokens.ts';
import { search } from '../../src/search/query/search.ts';
import { SearchIndex } from '../../src/search/search-index.ts';

const base = [...generateContacts({ count: 400, seed: 11 })].flat();
const added = [...generateContacts({ count: 60, seed: 12, startAt: 401 })].flat();
const upserts: Contact[] = [
  ...added,
  { ...base[3], City: 'Tromsø', Emails: [...base[3].Emails, 'new.one@example.org'] },
];
const deletes = [base[5].ContactId, base[9].ContactId];
const QUERIES = [
  'a',
  'ma',
  'jo sm',
  'tromsø',
  'new.one',
  base[3].LastName ?? 'x',
  added[7].FirstName ?? 'y',
];

function built(): SearchIndex {
  const index = new SearchIndex();
  index.build(base);
  return index;
}

function answers(index: SearchIndex): string[][] {
  return QUERIES.map((q) =>
    search(index, q, undefined, 20).hits.map((h) => index.view(h.ord).ContactId as string),
  );
}

const arraysOf = (index: SearchIndex) =>
  index.table.columns.flatMap((c) => [c.ids.a, c.offs?.a]).filter((a) => a !== undefined);

function rows(index: SearchIndex): Contact[] {
  return [...index.ordinals()]
    .map((o) => index.doc(o)!)
    .sort((a, b) => (a.ContactId < b.ContactId ? -1 : 1));
}

test('1. the steps change no answer; the change then copies no column and answers as one applied in place', () => {
  const stepped = built(),
    inPlace = built();
  const before = answers(stepped);
  const entries: Entry[][] = [];
  let steps = 0;
  for (const _ of stepped.roomSteps(upserts, entries)) {
    steps++;
    assert.deepEqual(answers(stepped), before, `answers after step ${steps}`);
  }
  assert.ok(steps >= stepped.table.columns.length, `a step a column at least (${steps})`);
  assert.equal(entries.length, upserts.length, 'an entry list a contact');
  const arrays = arraysOf(stepped);
  stepped.applyToDelta(deletes, upserts, entries);
  assert.deepEqual(
    arraysOf(stepped).map((a, i) => a === arrays[i]),
    arrays.map(() => true),
    'no column array copied by the change',
  );
  inPlace.applyToDelta(deletes, upserts);
  assert.deepEqual(answers(stepped), answers(inPlace));
  assert.deepEqual(rows(stepped), rows(inPlace));
  assert.notDeepEqual(answers(stepped), before, 'the change shows');
});

test('2. room without entries; a change bigger than the room is still applied right', () => {
  const stepped = built(),
    inPlace = built();
  for (const _ of stepped.roomSteps(upserts.slice(0, 5))) {
    // steps only
  }
  stepped.applyToDelta(deletes, upserts);
  inPlace.applyToDelta(deletes, upserts);
  assert.deepEqual(answers(stepped), answers(inPlace));
  assert.deepEqual(rows(stepped), rows(inPlace));
});
