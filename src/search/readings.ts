/**
 * Readings of names (CONTRACT.md §4: a romaji or kana spelling finds a name through its stored
 * reading): the phonetic name fields imports fill (Google's Phonetic First/Last Name, vCard
 * X-PHONETIC-FIRST-NAME / X-PHONETIC-LAST-NAME) become variant spellings of the name they read, in
 * kana (folded to hiragana) and in romaji (wanakana; docs/DEPENDENCIES.md), so "yamada", "やまだ"
 * and "ヤマダ" find 山田 whose reading is やまだ.
 */
import { isKana, toHiragana, toRomaji } from 'wanakana';
import type { Contact } from '../fields/contact.ts';
import { normalize } from './normalize.ts';

/** The spellings of one reading: as stored, in kana and in romaji (normalised, spaces dropped). */
export function readingSpellings(reading: string): string[] {
  const r = reading.replace(/[\s'’・]+/g, '');
  if (!r) return [];
  const kana = isKana(r) ? r : toHiragana(r);
  const out = [normalize(r), normalize(kana), normalize(toRomaji(kana).replace(/'/g, ''))];
  return [...new Set(out)].filter(Boolean);
}

/** Per name term (last, first), the spellings of its reading; undefined when the contact has none. */
export function nameReadings(c: Contact): [string, string[]][] | undefined {
  if (!c.PhoneticLastName && !c.PhoneticFirstName) return undefined;
  const out: [string, string[]][] = [];
  if (c.LastName && c.PhoneticLastName)
    out.push([normalize(c.LastName.replace(/\s+/g, '')), readingSpellings(c.PhoneticLastName)]);
  if (c.FirstName && c.PhoneticFirstName)
    out.push([normalize(c.FirstName.replace(/\s+/g, '')), readingSpellings(c.PhoneticFirstName)]);
  return out.length ? out : undefined;
}
