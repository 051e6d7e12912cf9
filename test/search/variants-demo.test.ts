/**
 * The demo data exercises "names however they are written" (CONTRACT §4, src/demo/spellings.ts):
 * Japanese names carry readings found in romaji and kana, German names come in both spellings and
 * one spelling finds both, Greek and Cyrillic names are found by their Latin spellings. Expected sets
 * are read off the generated contacts themselves, not written down.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Contact } from '../../src/fields/contact.ts';
import anyAscii from 'any-ascii';
import { generateContacts } from '../../src/demo/generate.ts';
import { fixture, type Fixture } from '../support/fixture.ts';

let f: Fixture;
let demo: Contact[];
before(async () => {
  demo = [...generateContacts({ count: 4000 })].flat();
  f = await fixture(demo);
});
after(() => f.close());

const ids = (cs: Contact[]) => cs.map((c) => c.ContactId).sort();
const found = async (Query: string) => (await f.ids({ Query })).sort();

test('the generator gives Japanese names readings, in hiragana and in katakana', () => {
  const read = demo.filter((c) => c.PhoneticLastName);
  assert.ok(read.length > 50, `${read.length} contacts with a reading`);
  assert.ok(read.some((c) => /^[\u3041-\u3096]+$/.test(c.PhoneticLastName!)));
  assert.ok(read.some((c) => /^[\u30a1-\u30f6]+$/.test(c.PhoneticLastName!)));
});

test('a Japanese family name is found by its reading in romaji, hiragana and katakana', async () => {
  const yamada = demo.filter((c) => c.LastName === '山田');
  assert.ok(yamada.length > 0, 'the demo holds people called 山田');
  for (const q of ['yamada', 'やまだ', 'ヤマダ', '山田'])
    assert.deepEqual(await found(q), ids(yamada), q);
});

test('German names come in both spellings, and either spelling finds both', async () => {
  const fold = (s: string) => s.replace(/ü/g, 'ue').replace(/ö/g, 'oe').replace(/ä/g, 'ae');
  // A transcribed last name whose umlaut spelling is also in the data.
  const names = new Set(demo.map((c) => c.LastName ?? ''));
  const pair = [...names].find((n) => /[äöü]/.test(n) && names.has(fold(n)));
  assert.ok(pair, 'some German name is in the demo in both spellings');
  const both = demo.filter((c) => c.LastName === pair || c.LastName === fold(pair!));
  for (const q of [pair!, fold(pair!)]) {
    const got = await found(q);
    for (const id of ids(both)) assert.ok(got.includes(id), `${q} finds ${id}`);
  }
});

test('Greek and Cyrillic names are found by their standard Latin spelling (any-ascii)', async () => {
  for (const script of [/^[\u0370-\u03ff]+$/, /^[\u0400-\u04ff]+$/]) {
    const people = demo.filter((x) => script.test(x.LastName ?? '')).slice(0, 5);
    assert.ok(people.length > 0, `the demo holds names in ${script}`);
    for (const c of people) {
      const latin = anyAscii(c.LastName!).toLowerCase();
      assert.ok((await found(latin)).includes(c.ContactId), `${latin} finds ${c.LastName}`);
    }
  }
});
