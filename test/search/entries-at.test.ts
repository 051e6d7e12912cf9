/**
 * The entries highlighting reads (SearchIndex.entriesAt). Properties checked:
 * 1. For base and delta ordinals, every entry index gives the entry contactEntries gives (phone
 *    entries, made from the phones alone, included), alone or several at once in any order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contactEntries } from '../../src/search/contact-tokens.ts';
import { SearchIndex } from '../../src/search/search-index.ts';
import { generateContacts } from '../../src/demo/generate.ts';
import { contact } from '../cases/store.case.ts';

test('1. entriesAt equals contactEntries, base and delta', () => {
  const generated = [...generateContacts({ count: 600, seed: 3 })].flat();
  const odd = [
    contact('x1', 'Sean', "O'Brien", {
      Phones: ['+49 30 1234567', '030 7654321', '(617) 555-0101'],
      Country: 'DE',
      Emails: ['a.b@c.de', 'x@y.org'],
    }),
    contact('x2', 'No', 'Phone', { Phones: [] }),
    contact('x3', 'Empty', 'Digits', { Phones: ['n/a', '+1 212 555 0199'], Country: 'US' }),
  ];
  const index = new SearchIndex();
  index.build([...generated, ...odd]);
  index.put(contact('d1', 'Delta', 'Person', { Phones: ['+44 20 7946 0958'], Country: 'GB' }));
  let phones = 0;
  for (const ord of index.ordinals()) {
    const c = index.doc(ord)!;
    const all = contactEntries(c);
    for (let k = 0; k < all.length; k++) {
      assert.deepEqual(index.entriesAt(ord, [k], c), [all[k]], `${c.ContactId} entry ${k}`);
      if (all[k].kind === 'phone') phones++;
    }
    const some = [all.length - 1, 0, Math.floor(all.length / 2)];
    assert.deepEqual(
      index.entriesAt(ord, some, c),
      some.map((k) => all[k]),
      c.ContactId,
    );
  }
  assert.ok(phones > 600, `phone entries checked: ${phones}`);
});
