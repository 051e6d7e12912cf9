/**
 * Rule "order" (CONTRACT §4). Properties checked:
 * 1. With everything else equal, tokens matched in display order rank above tokens matched out of order.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { contact, fixture, type Fixture } from '../support/fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture([
    contact('o1', 'Grant', 'Morgan', { Emails: ['a@x.org'] }),
    contact('o2', 'Morgan', 'Grant', { Emails: ['b@x.org'] }),
  ]);
});
after(async () => {
  await f.close();
});

test('1. in-order matches first', async () => {
  assert.deepEqual(await f.ids({ Query: 'morgan grant' }), ['o2', 'o1']);
  assert.deepEqual(await f.ids({ Query: 'grant morgan' }), ['o1', 'o2']);
});
