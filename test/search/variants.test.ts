/**
 * Names however they are written (CONTRACT §4): variant spellings, each rule's exact result list on a
 * small fixture, in the base segment (a build) and in the delta (writes since the build), full
 * search and type-ahead alike. Properties checked:
 * 1. ä/ae, ö/oe, ü/ue, å/aa, ø/oe are equivalent both ways; the typed spelling ranks first.
 * 2. Ranking: exact spelling, then variants, then typos; a variant never crowds out an exact match.
 * 4. A run of Han or kana characters matches as written anywhere inside a word, never scattered
 *    characters; hiragana and katakana are one spelling.
 * 3. A variant match highlights the characters it matched ("mue" marks "Mü" of "Müller"), the whole
 *    word where its spelling does not map character for character (a nickname, a reading).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Contact } from '../../src/fields/contact.ts';
import { highlight, search, variantHighlight } from '../../src/search/match.ts';
import { SearchIndex } from '../../src/search/search-index.ts';
import { contact } from '../cases/store.case.ts';

export const NAMES: Contact[] = [
  contact('de1', 'Hans', 'Müller'),
  contact('de2', 'Eva', 'Mueller'),
  contact('de3', 'Karl', 'Muller'),
  contact('de4', 'Jürgen', 'Klein'),
  contact('de5', 'Juergen', 'Gross'),
  contact('de6', 'Zoë', 'Ångström'),
  contact('de7', 'Per', 'Aangstrom'),
  contact('de8', 'Søren', 'Kierkegaard'),
  contact('de9', 'Soeren', 'Lund'),
  contact('dea', 'Otto', 'Mullerson'),
  contact('deb', 'Ida', 'Murphy'),
  contact('dec', 'Ute', 'Mueler'),
  // One word written without spaces; and 山 and 田 only in separate words.
  {
    ...contact('ja1', '', ''),
    DisplayName: '山田太郎',
    FirstName: '山田太郎',
    LastName: undefined,
  },
  contact('ja2', '花子', '横山', { Organization: '飯田農林' }),
  contact('ja3', 'ヤマダ', 'ハナコ'),
  contact('ja4', 'やまだ', 'たろう'),
  contact('en1', 'Robert', 'Smith'),
  contact('en2', 'Bob', 'Jones'),
  contact('en3', 'William', 'Brown'),
  contact('en4', 'Elizabeth', 'Taylor'),
  contact('en5', 'Margaret', 'Hill'),
  contact('en6', 'Bobby', 'Robertson'),
  contact('en7', 'Anna', 'Bill'),
  contact('ru1', 'Александр', 'Петров'),
  contact('ru2', 'Юрий', 'Хрущёв'),
  contact('gr1', 'Γιώργος', 'Παπαδόπουλος'),
  contact('ru3', 'Yuri', 'Gagarin'),
  {
    ...contact('ja5', '太郎', '山田', { PhoneticFirstName: 'たろう', PhoneticLastName: 'ヤマダ' }),
    DisplayName: '山田 太郎',
  },
  contact('ar1', 'محمد', 'حداد'),
  contact('ar2', 'Mohamed', 'Salah'),
  contact('he1', 'יוסף', 'כהן'),
];

/** The same contacts as a build (base segment) and as writes after an empty build (delta). */
function indexes(contacts: Contact[]): [string, SearchIndex][] {
  const base = new SearchIndex();
  base.build(contacts);
  const delta = new SearchIndex();
  delta.build([]);
  delta.applyToDelta([], contacts);
  return [
    ['base', base],
    ['delta', delta],
  ];
}

export function idsOf(index: SearchIndex, q: string, limit?: number): string[] {
  return search(index, q, undefined, limit).hits.map((h) => index.doc(h.ord)!.ContactId);
}

/** Every index and plan gives `want` for `q` (full search, and type-ahead cut at 3). */
export function expect(all: [string, SearchIndex][], q: string, want: string[]): void {
  for (const [name, index] of all) {
    assert.deepEqual(idsOf(index, q), want, `${name} "${q}"`);
    assert.deepEqual(idsOf(index, q, 3), want.slice(0, 3), `${name} "${q}" limit 3`);
  }
}

const all = indexes(NAMES);

test('1. German and Nordic spellings both ways, the typed spelling first', () => {
  // Müller and Muller are "muller" exactly; Mueller is a variant of it; Mullerson a prefix.
  // (Ties in DisplayName order: Hans Müller before Karl Muller.)
  expect(all, 'müller', ['de1', 'de3', 'dea', 'de2', 'dec']);
  expect(all, 'muller', ['de1', 'de3', 'dea', 'de2', 'dec']);
  // Mueller exactly; Müller (written "mueller") and Muller, Mullerson ("muller") as variants; Mueler a typo.
  expect(all, 'mueller', ['de2', 'de1', 'de3', 'dea', 'dec']);
  expect(all, 'jürgen', ['de4', 'de5']);
  expect(all, 'juergen', ['de5', 'de4']);
  expect(all, 'angstrom', ['de6', 'de7']);
  expect(all, 'aangstrom', ['de7', 'de6']);
  expect(all, 'ångström', ['de6', 'de7']);
  expect(all, 'soeren', ['de9', 'de8']);
  expect(all, 'søren', ['de8', 'de9']);
  // Typing: "mue" is Mueller, and Müller through "mueller"; not every "mu…" (Murphy, Muller).
  expect(all, 'mue', ['de2', 'dec', 'de1']);
  expect(all, 'hans mueller', ['de1']);
});

test('2. exact before variant before typo', () => {
  // "mueler": Ute Mueler exactly, Eva Mueller by a typo: the typo's one-letter spelling is no variant.
  expect(all, 'mueler', ['dec', 'de2', 'de1', 'de3', 'dea']);
  expect(all, 'soren', ['de8', 'de9']);
  for (const [name, index] of all) {
    const hits = search(index, 'muller').hits;
    assert.deepEqual(
      hits.map((h) => [h.rank[0], h.rank[1]]),
      [
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 1],
        [1, 0],
      ],
      name,
    );
    // A typo ranks after every variant.
    const typo = search(index, 'muellr').hits;
    assert.ok(typo.length > 0 && typo.every((h) => h.rank[0] === 1), name);
  }
});

test('3. a variant highlights the characters it matched', () => {
  /** The characters of contact `id`'s DisplayName that its match of `q` highlights (as the service does). */
  const marked = (index: SearchIndex, q: string, id: string) => {
    const h = search(index, q).hits.find((x) => index.doc(x.ord)!.ContactId === id)!;
    const m = h.matches[0];
    const e = index.entriesOf(h.ord)[m.entry];
    const c = index.doc(h.ord)!;
    const at = m.variant
      ? variantHighlight(c.DisplayName, e.start, e.length, m.typed)
      : highlight(c.DisplayName, e.start, e.length, m.typed, e.kind);
    return c.DisplayName.slice(at.start, at.start + at.length);
  };
  for (const [name, index] of all) {
    assert.equal(marked(index, 'mueller', 'de1'), 'Müller', name);
    assert.equal(marked(index, 'mue', 'de1'), 'Mü', name);
    assert.equal(marked(index, 'muller', 'de2'), 'Mueller', name);
    assert.equal(marked(index, 'soeren', 'de8'), 'Søren', name);
    assert.equal(marked(index, 'yur', 'ru2'), 'Юр', name);
    assert.equal(marked(index, 'giorg', 'gr1'), 'Γιώργ', name);
    // No character-for-character mapping: the whole word.
    assert.equal(marked(index, 'bo', 'en1'), 'Robert', name);
    assert.equal(marked(index, 'yam', 'ja5'), '山田', name);
    assert.equal(marked(index, 'moh', 'ar1'), 'محمد', name);
  }
});

test('4. Han and kana runs as written, anywhere in a word; hiragana is katakana', () => {
  expect(all, '山田', ['ja5', 'ja1']); // 山田 太郎 whole, 山田太郎 by prefix
  expect(all, '太郎', ['ja5', 'ja1']);
  expect(all, '田太', ['ja1']);
  expect(all, '山', ['ja5', 'ja1', 'ja2']); // prefixes of 山田, a part of 横山: one tier, DisplayName order
  expect(all, '山田 太郎', ['ja5', 'ja1']); // ja1: the word and its part are two tokens
  expect(all, '飯田', ['ja2']);
  expect(all, '横山 飯田', ['ja2']);
  expect(all, 'やまだ', ['ja4', 'ja3', 'ja5']); // DisplayName order, folded; 山田 by its reading
  expect(all, 'ヤマダ', ['ja4', 'ja3', 'ja5']);
  expect(all, 'はなこ', ['ja3']);
  expect(all, 'なこ', ['ja3']);
});

test('5. nicknames both ways, given names only, after exact spellings', () => {
  // Bob exactly, Bobby by prefix; Robert (nickname "bobby") as a variant. Robertson is a last name.
  expect(all, 'bob', ['en2', 'en6', 'en1']);
  // Robert exactly, Robertson by prefix; Bob (full name "robert") as a variant.
  expect(all, 'robert', ['en1', 'en6', 'en2']);
  // Anna Bill exactly (a last name gets no nicknames); William as a variant, and Robert (the dataset
  // lists bill and billy for robert too).
  expect(all, 'bill', ['en7', 'en1', 'en3']);
  expect(all, 'william', ['en3']);
  expect(all, 'liz', ['en4']);
  expect(all, 'peggy', ['en5']);
  expect(all, 'bob smith', ['en1']);
  expect(all, 'саша', ['ru1']);
});

test('6. other scripts by their Latin spellings, after Latin names spelled so', () => {
  expect(all, 'yurii', ['ru2', 'ru3']); // Юрий as a variant, then Yuri by a typo
  expect(all, 'iurii', ['ru2']);
  // Yuri Gagarin exactly, Юрий as a variant.
  expect(all, 'yuri', ['ru3', 'ru2']);
  expect(all, 'khrushchev', ['ru2']);
  expect(all, 'hrushchev', ['ru2']);
  expect(all, 'giorgos', ['gr1']);
  expect(all, 'papadopoulos', ['gr1']);
  expect(all, 'aleksandr petrov', ['ru1']);
  // A nickname of the Latin spelling: sasha → Aleksandr → Александр.
  expect(all, 'sasha', ['ru1']);
});

test('7. readings: the phonetic name fields, in kana and romaji, find the name they read', () => {
  expect(all, 'yamada', ['ja5']);
  expect(all, 'yamada taro', ['ja5']);
  // やまだ and ヤマダ are written so by ja4 and ja3 (exact); 山田 太郎 through its reading, after.
  expect(all, 'やまだ', ['ja4', 'ja3', 'ja5']);
  expect(all, 'タロウ', ['ja4', 'ja5']); // やまだ たろう exactly, 太郎 by its reading
});

test('8. Arabic and Hebrew names by their usual Latin spellings, after Latin names spelled so', () => {
  // any-ascii's consonant skeleton ("mhmd") and the usual spellings (latin-names-data/names.csv).
  expect(all, 'muhammad', ['ar1']);
  expect(all, 'mohammed', ['ar1', 'ar2']); // محمد as a variant, then Mohamed by a typo
  expect(all, 'mhmd', ['ar1']);
  // Mohamed Salah as spelled, محمد as a variant.
  expect(all, 'mohamed', ['ar2', 'ar1']);
  expect(all, 'moha', ['ar2', 'ar1']);
  expect(all, 'haddad', ['ar1']);
  expect(all, 'muhammad haddad', ['ar1']);
  expect(all, 'yosef', ['he1']);
  expect(all, 'joseph cohen', ['he1']);
  expect(all, 'kohen', ['he1']);
  // A nickname of the Latin spelling: joey → joseph → יוסף.
  expect(all, 'joey', ['he1']);
});
