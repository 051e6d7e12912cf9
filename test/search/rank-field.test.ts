/**
 * Rule "field" (CONTRACT §4). Properties checked:
 * 1. With equal typos and exactness, a match in the name ranks above organisation, email, phone, other.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { contact, fixture, type Fixture } from '../support/fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture([
    contact('f1', 'Ann', 'Lee', { Emails: ['x@y.org'], City: 'Kestrel' }),
    contact('f2', 'Bob', 'Ray', { Emails: ['kestrel@y.org'] }),
    contact('f3', 'Cy', 'Odom', { Emails: ['c@y.org'], Organization: 'Kestrel Ltd' }),
    contact('f4', 'Di', 'Kestrel', { Emails: ['d@y.org'] }),
  ]);
});
after(async () => {
  await f.close();
});

test('1. name > organisation > email > other', async () => {
  assert.deepEqual(await f.ids({ Query: 'kestrel' }), ['f4', 'f3', 'f2', 'f1']);
});
