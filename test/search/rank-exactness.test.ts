/**
 * Rule "exactness" (CONTRACT §4). Properties checked:
 * 1. A contact where the typed token is a whole word ranks above one where it is only a prefix.
 * 2. Among equals, DisplayName (case- and accent-insensitive) then ContactId decide.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { contact, fixture, type Fixture } from '../support/fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture([
    contact('e1', 'Jo', 'Zimmer', { Emails: [] }),
    contact('e2', 'John', 'Adams', { Emails: [] }),
    contact('e3', 'Joanna', 'Baker', { Emails: [] }),
    contact('e4', 'Jo', 'Abel', { Emails: [] }),
    contact('e5', 'Émile', 'Jo', { Emails: [] }),
  ]);
});
after(async () => {
  await f.close();
});

test('1. whole-word matches first', async () => {
  const ids = await f.ids({ Query: 'jo' });
  assert.deepEqual(ids.slice(0, 3).sort(), ['e1', 'e4', 'e5']);
  assert.deepEqual(ids.slice(3), ['e3', 'e2']); // prefix-only matches, by DisplayName: Joanna before John
});

test('2. ties by DisplayName, accent-insensitive', async () => {
  // "Émile Jo" sorts as "emile jo", between "Jo Abel" and "Jo Zimmer".
  assert.deepEqual((await f.ids({ Query: 'jo' })).slice(0, 3), ['e5', 'e4', 'e1']);
});
