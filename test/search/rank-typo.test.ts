/**
 * Rule "typo" (CONTRACT §4). Properties checked:
 * 1. A token of 5+ letters matches with one edit after its first character (insert, delete, substitute, swap).
 * 2. Typo matches rank below every exact match.
 * 3. Tokens shorter than 5, digits, and a wrong first character never match by typo.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fixture, PEOPLE, type Fixture } from '../support/fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture(PEOPLE);
});
after(async () => {
  await f.close();
});

test('1. one edit after the first character', async () => {
  assert.ok((await f.ids({ Query: 'smiht' })).includes('p01')); // swap
  assert.ok((await f.ids({ Query: 'schmitd' })).includes('p07')); // swap
  assert.ok((await f.ids({ Query: 'johnsen' })).includes('p04')); // substitute
  assert.ok((await f.ids({ Query: 'stockhom' })).includes('p03')); // delete
});

test('2. typo matches come after exact ones', async () => {
  // "smyth": exact for Anne Smyth; typo for the Smiths.
  const ids = await f.ids({ Query: 'smyth' });
  assert.equal(ids[0], 'p10');
  assert.ok(ids.indexOf('p01') > 0);
});

test('3. no typos on short tokens, digits or the first letter', async () => {
  assert.deepEqual(await f.ids({ Query: 'jhn' }), []);
  assert.deepEqual(await f.ids({ Query: 'xmith' }), []);
  assert.deepEqual(await f.ids({ Query: '55502' }), []);
});
