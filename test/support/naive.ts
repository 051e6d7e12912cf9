/** The naive reference matcher of the property tests (exact semantics: no typo tolerance). */
import type { Contact } from '../../src/fields/contact.ts';
import { normalize } from '../../src/search/normalize.ts';
import { nicknamesOf } from '../../src/search/nicknames.ts';
import { wordTokens } from '../../src/search/tokenize.ts';
import { latinSpellings } from '../../src/search/transliterate.ts';
import { toHiragana, toRomaji } from 'wanakana';

/** German and Nordic letters written as two (CONTRACT §4 "Names however they are written"). */
const TWO_LETTERS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', å: 'aa', ø: 'oe' };
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]/u;
const ONE_LETTER: Record<string, string> = { ae: 'a', oe: 'o', ue: 'u', aa: 'a' };

/** `s` with each two-letter spelling written as one letter, left to right (only those starting before `end`). */
function oneLetter(s: string, end = s.length): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const pair = s.slice(i, i + 2);
    if (i < end && ONE_LETTER[pair] !== undefined) {
      out += ONE_LETTER[pair];
      i++;
    } else out += s[i];
  }
  return out;
}

/** A reading as written, in hiragana and in romaji. */
function readingOf(reading: string): string[] {
  const r = reading.replace(/[\s'’・]+/g, '');
  const kana = /^[\p{Script=Hiragana}\p{Script=Katakana}ー]+$/u.test(r) ? r : toHiragana(r);
  return [r, kana, toRomaji(kana).replace(/'/g, '')].map(normalize);
}

/** The ways one word of a contact is spelled: as written, umlauts as two letters, two letters as one. */
function spellings(original: string): string[] {
  const plain = normalize(original.replace(/['\u2019]/g, ''));
  const two = [...original.normalize('NFC').toLowerCase()].map((c) => TWO_LETTERS[c] ?? c).join('');
  // Latin spellings of other scripts: the engine's own list (any-ascii and the Cyrillic options).
  return [
    plain,
    normalize(two.replace(/['\u2019]/g, '')),
    oneLetter(plain),
    ...latinSpellings(original, plain),
  ];
}

/**
 * Naive reference: words of the searchable text; every typed token a prefix of a different word (a
 * word's part after an apostrophe counts as a word of its own: "brien" of "O'Brien"), in any of the
 * word's spellings, or with the typed token's two-letter spellings written as one (not a pair ending
 * the typed text: "mue" may become "muel…"). A Han or kana run is matched anywhere inside it ("太郎"
 * finds "山田太郎").
 * A company contact's DisplayName IS its Organization, so that text counts once (docs/SEARCH.md).
 */
export function naive(c: Contact, typed: string[]): boolean {
  const person = Boolean(c.FirstName || c.MiddleName || c.LastName);
  const texts = [
    c.DisplayName,
    person ? c.Organization : undefined,
    c.JobTitle,
    c.Street,
    c.City,
    c.Region,
    c.PostalCode,
    ...c.Tags,
  ].filter(Boolean) as string[];
  // Each word: its spellings (the first as written); a part is only as written, and a typed token's
  // one-letter spelling meets words and email pieces as written, never parts.
  // A given name (first, middle) in DisplayName is also spelled as its nicknames (the data's lists).
  const given = person
    ? [c.FirstName, c.MiddleName].flatMap((n) => (n ? wordTokens(n).map((t) => t.term) : []))
    : [];
  const words: { spelled: string[]; part?: true }[] = [
    ...texts.flatMap((s, i) =>
      wordTokens(s).flatMap((t) => {
        const original = s.slice(t.start, t.start + t.length);
        const spelled = spellings(original);
        // Those of the word as written and of the first of its other spellings that has any (a
        // spelling equal to the word, as an unchanged "two letters" one, is not another spelling:
        // Ольга's nicknames are оля and, through "olga", olya).
        const nicks =
          i === 0 && given.includes(t.term)
            ? [
                ...(nicknamesOf(t.term) ?? []),
                ...(spelled
                  .slice(1)
                  .filter((s) => s !== t.term)
                  .map(nicknamesOf)
                  .find((n) => n) ?? []),
              ]
            : [];
        // A Han or kana run: each of its later characters starts a part (matched as written inside it).
        const chars = [...t.term];
        const run = chars.length > 1 && chars.every((ch) => CJK.test(ch));
        const pieces = run ? chars.slice(1).map((_, i) => chars.slice(i + 1).join('')) : [];
        const parts = [...(t.parts ?? []).map((p) => p.term), ...pieces].map((p) => ({
          spelled: [p],
          part: true as const,
        }));
        // A name's reading (phonetic fields) in kana and romaji, on the DisplayName word holding the name.
        const reads =
          i === 0 && person
            ? [
                [c.LastName, c.PhoneticLastName],
                [c.FirstName, c.PhoneticFirstName],
              ].flatMap(([name, reading]) =>
                name && reading && t.term.includes(normalize(name.replace(/\s+/g, '')))
                  ? readingOf(reading)
                  : [],
              )
            : [];
        return [{ spelled: [...spelled, ...nicks, ...reads] }, ...parts];
      }),
    ),
    ...c.Emails.flatMap((e) => normalize(e).split(/[@._+-]+/)).map((w) => ({ spelled: [w] })),
  ];
  const meets = (i: number, j: number) => {
    const q = typed[i];
    const { spelled, part } = words[j];
    return (
      spelled.some((w) => w.startsWith(q)) ||
      (!part && spelled[0].startsWith(oneLetter(q, q.length - 2)))
    );
  };
  // A matching of typed tokens to distinct words by augmenting paths (polynomial: the adversarial
  // texts of bounded-cost.test type one token a hundred times).
  const owner = new Map<number, number>();
  const augment = (i: number, seen: Set<number>): boolean => {
    for (let j = 0; j < words.length; j++) {
      if (seen.has(j) || !meets(i, j)) continue;
      seen.add(j);
      const o = owner.get(j);
      if (o === undefined || augment(o, seen)) {
        owner.set(j, i);
        return true;
      }
    }
    return false;
  };
  return typed.every((_, i) => augment(i, new Set()));
}
