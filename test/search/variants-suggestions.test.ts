/**
 * Names however they are written (CONTRACT §4) in the filter panel's value suggestions
 * (GetPredictiveOptions): the same variant rules as search, each rule's exact option list on a small
 * fixture. Properties checked:
 * 1. ä/ae, ö/oe, ü/ue both ways; the values spelled as typed come first, whatever the counts.
 * 2. A Han or kana run is matched as written inside a value, never as scattered characters;
 *    hiragana and katakana are one spelling.
 * 3. Cyrillic, Greek, Arabic and Hebrew values by their Latin spellings.
 * 4. Given names by their nicknames and back (FirstName only: a city has no nickname).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { contact, fixture, type Fixture } from '../support/fixture.ts';

const CONTACTS = [
  contact('c1', 'Robert', 'Smith', { City: 'München' }),
  contact('c2', 'Robert', 'Jones', { City: 'München' }),
  contact('c3', 'Bob', 'Brown', { City: 'Muenster' }),
  contact('c4', 'William', 'Hill', { City: 'Muenchen' }),
  contact('c5', 'Anna', 'Bill', { City: 'Mumbai' }),
  contact('c6', 'Юрий', 'Петров', { City: 'Москва' }),
  contact('c7', 'Yuri', 'Gagarin', { City: 'Moscow' }),
  contact('c8', 'Γιώργος', 'Παπαδόπουλος', { City: 'Αθήνα' }),
  contact('c9', 'Hana', 'Ito', { City: '東京都港区' }),
  contact('ca', 'Kenji', 'Sato', { City: '港南' }),
  contact('cb', 'Aiko', 'Mori', { City: 'やまだ村' }),
  contact('cc', 'محمد', 'حداد', { City: 'القاهرة' }),
  contact('cd', 'Mohamed', 'Salah', { City: 'Cairo' }),
  contact('ce', 'Ida', 'Lund', { City: 'Göteborg' }),
];

let f: Fixture;
before(async () => {
  f = await fixture(CONTACTS);
});
after(() => f.close());

const values = async (Field: string, Text: string) =>
  (await f.call('GetPredictiveOptions', { Field, Text, Limit: 10 })).Options.map(
    (o: { Value: string; Count: number }) => `${o.Value} ${o.Count}`,
  );

test('1. German and Nordic spellings both ways, spelled as typed first', async () => {
  // München (2) and Muenchen (1) are both "munchen" and "muenchen"; as typed first, then by Count.
  assert.deepEqual(await values('City', 'münchen'), ['München 2', 'Muenchen 1']);
  assert.deepEqual(await values('City', 'muenchen'), ['Muenchen 1', 'München 2']);
  assert.deepEqual(await values('City', 'munchen'), ['München 2', 'Muenchen 1']);
  // "mue" is Muenchen and Muenster as typed, München through "muenchen"; not every "mu…" (Mumbai).
  assert.deepEqual(await values('City', 'mue'), ['Muenchen 1', 'Muenster 1', 'München 2']);
  assert.deepEqual(await values('City', 'mu'), [
    'München 2',
    'Muenchen 1',
    'Muenster 1',
    'Mumbai 1',
  ]);
  assert.deepEqual(await values('City', 'goeteborg'), ['Göteborg 1']);
});

test('2. Han and kana runs as written inside a value; hiragana is katakana', async () => {
  assert.deepEqual(await values('City', '港'), ['東京都港区 1', '港南 1']); // by Label
  assert.deepEqual(await values('City', '港区'), ['東京都港区 1']);
  assert.deepEqual(await values('City', '京港'), []);
  assert.deepEqual(await values('City', 'ヤマダ'), ['やまだ村 1']);
});

test('3. other scripts by their Latin spellings, after values spelled so', async () => {
  assert.deepEqual(await values('City', 'moskva'), ['Москва 1']);
  assert.deepEqual(await values('City', 'mos'), ['Moscow 1', 'Москва 1']);
  assert.deepEqual(await values('City', 'athin'), ['Αθήνα 1']);
  assert.deepEqual(await values('FirstName', 'iurii'), ['Юрий 1']);
  assert.deepEqual(await values('FirstName', 'yuri'), ['Yuri 1', 'Юрий 1']);
  assert.deepEqual(await values('FirstName', 'muhammad'), ['محمد 1']);
  assert.deepEqual(await values('FirstName', 'moh'), ['Mohamed 1', 'محمد 1']);
});

test('4. given names by their nicknames and back, first names only', async () => {
  // Bob as typed; Robert (2) through its nickname "bobby" after it, whatever its count.
  assert.deepEqual(await values('FirstName', 'bob'), ['Bob 1', 'Robert 2']);
  assert.deepEqual(await values('FirstName', 'robert'), ['Robert 2', 'Bob 1']);
  assert.deepEqual(await values('FirstName', 'bill'), ['Robert 2', 'William 1']);
  // A last name gets no nicknames: Anna Bill's "Bill" is no William.
  assert.deepEqual(await values('LastName', 'bill'), ['Bill 1']);
  assert.deepEqual(await values('LastName', 'william'), []);
});
