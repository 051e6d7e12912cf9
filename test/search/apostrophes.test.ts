/**
 * Apostrophes inside words (CONTRACT §4, UAX #29 WB6/WB7: U+0027 and U+2019 between letters do not
 * break a word). Properties checked, on the delta segment and again on a built base:
 * 1. A typed "O'K" is the one prefix "ok": it finds O'Keefe and O'Kon, not Oscar King.
 * 2. "brien", "obrien" and "o'brien" find O'Brien; a word with "brien" whole ranks before it (a part is never a whole-word match).
 * 3. U+2019 works like U+0027, typed or stored; a trailing apostrophe ("O'") is just "o".
 * 4. The word and its part are different tokens ("o brien" finds O'Brien); the part is not a word of its own twice ("brien brien" does not).
 * 5. Highlights cover the original text: "O'K" → "O'K" of "O'Keefe", "brien" → "Brien", "d'ang" → "D’Ang".
 * 6. GetPredictiveOptions matches values the same way: "brien" and "o'b" suggest O'Brien.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { contact, fixture, type Fixture } from '../support/fixture.ts';

const mail = (local: string) => ({ Emails: [`${local}@example.com`] });
const PEOPLE = [
  contact('a1', 'Mary', "O'Keefe", mail('mary')),
  contact('a2', 'Liam', 'O\u2019Kon', mail('liam')),
  contact('a3', 'Oscar', 'King', mail('oscar')),
  contact('a4', 'Sean', "O'Brien", mail('sean')),
  contact('a5', 'Gianni', 'D\u2019Angelo', mail('gianni')),
  contact('a6', 'Tom', 'Brien', mail('tb')), // sorts after Sean O'Brien: only the exactness tier puts it first for "brien"
];

let f: Fixture;
before(async () => {
  f = await fixture(PEOPLE);
});
after(async () => {
  await f.close();
});

const typeAhead = async (Text: string): Promise<{ id: string; marks: string[] }[]> => {
  const doc = await f.call('GetPredictiveOptionsSearchContacts', { Text });
  return doc.Options.map(
    (o: {
      ContactId: string;
      Label: string;
      Matches: { Field: string; Start: number; Length: number }[];
    }) => ({
      id: o.ContactId,
      marks: o.Matches.filter((m) => m.Field === 'DisplayName').map((m) =>
        o.Label.slice(m.Start, m.Start + m.Length),
      ),
    }),
  );
};

/** Every check, run against the segment the index holds at the time. */
async function checks() {
  assert.deepEqual(await f.ids({ Query: "O'K" }), ['a2', 'a1']);
  assert.deepEqual(await f.ids({ Query: 'O\u2019K' }), ['a2', 'a1']);
  assert.deepEqual(await f.ids({ Query: 'ok' }), ['a2', 'a1']);
  for (const q of ['brien', 'obrien', "o'brien", 'O\u2019Brien', "O'Bri"]) {
    assert.deepEqual(
      (await f.ids({ Query: q })).filter((id) => id !== 'a6'),
      ['a4'],
      q,
    );
  }
  assert.deepEqual(await f.ids({ Query: 'brien' }), ['a6', 'a4']);
  assert.deepEqual(await f.ids({ Query: "d'angelo" }), ['a5']);
  assert.deepEqual(await f.ids({ Query: 'angelo' }), ['a5']);
  assert.deepEqual(await f.ids({ Query: "O'" }), ['a2', 'a1', 'a3', 'a4']);
  assert.deepEqual(await f.ids({ Query: 'o brien' }), ['a4']);
  assert.deepEqual(await f.ids({ Query: 'brien brien' }), []);
  assert.deepEqual(await typeAhead("O'K"), [
    { id: 'a2', marks: ['O\u2019K'] },
    { id: 'a1', marks: ["O'K"] },
  ]);
  assert.deepEqual(await typeAhead('brien'), [
    { id: 'a6', marks: ['Brien'] },
    { id: 'a4', marks: ['Brien'] },
  ]);
  assert.deepEqual(await typeAhead("d'ang"), [{ id: 'a5', marks: ['D\u2019Ang'] }]);
  assert.deepEqual(await typeAhead("sean o'brien"), [{ id: 'a4', marks: ['Sean', "O'Brien"] }]);
  const lastNames = async (Text: string) =>
    (await f.call('GetPredictiveOptions', { Field: 'LastName', Text })).Options.map(
      (o: { Value: string }) => o.Value,
    ).sort();
  assert.deepEqual(await lastNames('brien'), ['Brien', "O'Brien"]);
  assert.deepEqual(await lastNames("o'b"), ["O'Brien"]);
  assert.deepEqual(await lastNames("O'K"), ["O'Keefe", 'O\u2019Kon']);
}

test('1–6. on the delta segment (contacts just written)', async () => {
  assert.ok(f.db.index.baseSize === 0, "the fixture's writes sit in the delta");
  await checks();
});

test('1–6. on a built base', async () => {
  f.db.index.build([...f.db.index.all()]);
  assert.equal(f.db.index.baseSize, PEOPLE.length);
  await checks();
});
