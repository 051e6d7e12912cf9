/**
 * The build's loader replays a field value's entries when it has seen the value before
 * (index/loader.ts, LoadedEntries.replay: the memo of repeated values). Properties checked:
 * 1. Loaded with the memo or without, the same contacts give the same entries, byte for byte: term
 *    ids, classes, positions, token numbers, row offsets and spans — repeated values at other
 *    positions, in other fields and list items, with apostrophe parts, Han runs and spellings.
 * 2. The memo is used: contacts sharing values replay them (their terms are looked up once).
 * 3. Past the memo's bound (it is cleared and refilled) the entries are still the same.
 * Answers of indexes built through it: test/search/properties.test.ts (the naive reference),
 * segments.test.ts (a segment against a fresh build).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateContacts } from '../../src/demo/generate.ts';
import type { Contact } from '../../src/fields/contact.ts';
import { contactEntries } from '../../src/search/contact-tokens.ts';
import { IndexLoader } from '../../src/search/index/loader.ts';
import { contact } from '../cases/store.case.ts';

const odd: Contact[] = [
  contact('m1', 'Sean', "O'Brien", {
    Organization: "O'Reilly & Söhne",
    JobTitle: 'Head of Sales',
    City: 'München',
    Tags: ['vip', "o'brien", '山田商事'],
  }),
  contact('m2', 'Åsa', 'Müller', {
    Organization: '山田商事 株式会社',
    JobTitle: "O'Reilly & Söhne", // a value seen before, in another field
    City: 'Head of Sales',
    Tags: ['山田商事', 'vip', 'München'],
  }),
  contact('m3', 'Jürgen', 'Øster', {
    Organization: "O'Reilly & Söhne",
    Street: 'München',
    Tags: ["o'brien", "o'brien", 'vip'],
  }),
  contact('m4', 'Юлия', 'Петрова', { Organization: 'Газпром', City: 'Москва', Tags: [] }),
  contact('m5', 'Ирина', 'Смирнова', { Organization: 'Газпром', City: 'Москва', Tags: ['Москва'] }),
];

function load(contacts: readonly Contact[], memo: boolean): IndexLoader {
  const loader = new IndexLoader({ memo });
  for (const c of contacts) loader.add(c);
  return loader;
}

const used = (a: { subarray(from: number, to: number): unknown }, n: number) => a.subarray(0, n);

test('1. with the memo or without, the same entries byte for byte', () => {
  const contacts = [...odd, ...[...generateContacts({ count: 3000, seed: 11 })].flat(), ...odd];
  const on = load(contacts, true).fwd,
    off = load(contacts, false).fwd;
  assert.equal(on.rows, contacts.length);
  assert.equal(on.n, off.n);
  assert.deepEqual(used(on.off, on.rows + 1), used(off.off, off.rows + 1));
  assert.deepEqual(used(on.term, on.n), used(off.term, off.n));
  assert.deepEqual(used(on.steps, (on.n + 3) >>> 2), used(off.steps, (off.n + 3) >>> 2));
  assert.deepEqual(used(on.spans.off, on.rows + 1), used(off.spans.off, off.rows + 1));
  assert.deepEqual(used(on.spans.bytes, on.spans.n), used(off.spans.bytes, off.spans.n));
  // The entries are the contacts' own: as many per row as contactEntries gives (variants included).
  for (let r = 0; r < contacts.length; r += 97) {
    const want = contactEntries(contacts[r]).reduce((k, e) => k + 1 + (e.variants?.length ?? 0), 0);
    const phones = contacts[r].Phones.length; // a phone's reversed digits are one entry more
    assert.equal(on.off[r + 1] - on.off[r], want + phones, contacts[r].ContactId);
  }
});

test('2. repeated values are replayed from the memo', () => {
  const loader = new IndexLoader();
  let replayed = 0;
  const memo = loader.fwd.memo!;
  const replay = memo.replay.bind(memo);
  memo.replay = (...args) => {
    const next = replay(...args);
    if (next >= 0) replayed++;
    return next;
  };
  for (const c of odd) loader.add(c);
  // m2's JobTitle (m1's Organization), its Tags' 'vip' and '山田商事', m3's Organization and more.
  assert.ok(replayed >= 10, `replayed ${replayed}`);
});

test("3. past the memo's bound, the same entries", () => {
  // More distinct values than the memo holds (it is cleared and refilled).
  const many = Array.from({ length: 52_000 }, (_, i) =>
    contact(`u${i}`, 'Anna', 'Berg', { Organization: `Firma ${i}`, Tags: ['vip'] }),
  );
  const on = load(many, true).fwd,
    off = load(many, false).fwd;
  assert.deepEqual(used(on.term, on.n), used(off.term, off.n));
  assert.deepEqual(used(on.steps, (on.n + 3) >>> 2), used(off.steps, (off.n + 3) >>> 2));
  assert.deepEqual(used(on.spans.bytes, on.spans.n), used(off.spans.bytes, off.spans.n));
});
