/**
 * Readings of names from imports (CONTRACT §4, issue 23): the phonetic name fields address books carry
 * are stored in the schema's PhoneticFirstName / PhoneticLastName and make the name findable in kana
 * and romaji. Properties checked:
 * 1. vCard X-PHONETIC-FIRST-NAME / X-PHONETIC-LAST-NAME (Apple, Android).
 * 2. vCard 4.0 N;SORT-AS="family,given" and 3.0 SORT-STRING, for a name in Han or kana; a Latin
 *    name's sort string is a sort key, not stored as a reading; X-PHONETIC wins over SORT-AS.
 * 3. Google CSV "Phonetic First Name" / "Phonetic Last Name" (and the older "… Yomi" columns).
 * 4. An imported contact is found by its reading in romaji, hiragana and katakana.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fixture, type Fixture } from './support/fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture([]);
});
after(() => f.close());

async function importText(format: 'VCard' | 'CSV', text: string): Promise<void> {
  await f.db.write({ replaceAll: true, upsert: [] });
  await f.processRequest({
    Request: 'ImportContacts',
    Format: format,
    Content: Buffer.from(text).toString('base64'),
    Encoding: 'Base64',
    AllOrNothing: false,
  });
}

/** Every contact's name and readings, by last name. */
const readings = () =>
  [...f.db.all()]
    .map((c) => [c.LastName, c.FirstName, c.PhoneticLastName, c.PhoneticFirstName])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

const card = (lines: string[], version = '4.0') =>
  ['BEGIN:VCARD', `VERSION:${version}`, ...lines, 'END:VCARD', ''].join('\r\n');

test('1. vCard X-PHONETIC names', async () => {
  await importText(
    'VCard',
    card(
      [
        'FN:山田 太郎',
        'N:山田;太郎;;;',
        'X-PHONETIC-FIRST-NAME:たろう',
        'X-PHONETIC-LAST-NAME:ヤマダ',
      ],
      '3.0',
    ),
  );
  assert.deepEqual(readings(), [['山田', '太郎', 'ヤマダ', 'たろう']]);
});

test('2. vCard SORT-AS and SORT-STRING for names in Han or kana only', async () => {
  await importText(
    'VCard',
    [
      card(['FN:佐藤 花子', 'N;SORT-AS="さとう,はなこ":佐藤;花子;;;']),
      card(['FN:Rene van der Harten', 'N;SORT-AS="Harten,Rene":van der Harten;Rene;;;']),
      card(['FN:鈴木 一郎', 'N:鈴木;一郎;;;', 'SORT-STRING:すずき'], '3.0'),
      card(['FN:高橋 健', 'N;SORT-AS="たかはし,けん":高橋;健;;;', 'X-PHONETIC-LAST-NAME:タカハシ']),
    ].join(''),
  );
  assert.deepEqual(readings(), [
    ['van der Harten', 'Rene', undefined, undefined],
    ['佐藤', '花子', 'さとう', 'はなこ'],
    ['鈴木', '一郎', 'すずき', undefined],
    ['高橋', '健', 'タカハシ', 'けん'],
  ]);
});

test('3. Google CSV phonetic columns, current and older', async () => {
  await importText(
    'CSV',
    'First Name,Last Name,Phonetic First Name,Phonetic Last Name\n花子,佐藤,はなこ,さとう\n',
  );
  assert.deepEqual(readings(), [['佐藤', '花子', 'さとう', 'はなこ']]);
  await importText(
    'CSV',
    'Given Name,Family Name,Given Name Yomi,Family Name Yomi\n一郎,鈴木,イチロウ,スズキ\n',
  );
  assert.deepEqual(readings(), [['鈴木', '一郎', 'スズキ', 'イチロウ']]);
});

test('4. an imported name is found by its reading in romaji and kana', async () => {
  await importText('VCard', card(['FN:佐藤 花子', 'N;SORT-AS="さとう,はなこ":佐藤;花子;;;']));
  const [id] = [...f.db.all()].map((c) => c.ContactId);
  for (const q of ['sato', 'さとう', 'サトウ', 'hanako', 'sato hanako', '佐藤'])
    assert.deepEqual(await f.ids({ Query: q }), [id], q);
});
