/**
 * What the demo data holds so that every rule of "names however they are written" (CONTRACT §4) has
 * contacts to find: Japanese names with their readings in the phonetic fields (as Google and Apple
 * exports carry them), and German names in both spellings (Müller and Mueller). Greek and Cyrillic
 * names come from Faker's el and ru locales as they are.
 */
import type { Contact } from '../fields/contact.ts';

/** Common Japanese family and given names with their readings in hiragana. */
const JA_LAST: readonly [string, string][] = [
  ['山田', 'やまだ'],
  ['佐藤', 'さとう'],
  ['鈴木', 'すずき'],
  ['高橋', 'たかはし'],
  ['田中', 'たなか'],
  ['伊藤', 'いとう'],
  ['渡辺', 'わたなべ'],
  ['山本', 'やまもと'],
  ['中村', 'なかむら'],
  ['小林', 'こばやし'],
  ['加藤', 'かとう'],
  ['吉田', 'よしだ'],
  ['山口', 'やまぐち'],
  ['松本', 'まつもと'],
  ['井上', 'いのうえ'],
  ['木村', 'きむら'],
  ['林', 'はやし'],
  ['清水', 'しみず'],
  ['森', 'もり'],
  ['池田', 'いけだ'],
];
const JA_FIRST: readonly [string, string][] = [
  ['太郎', 'たろう'],
  ['花子', 'はなこ'],
  ['翔太', 'しょうた'],
  ['健太', 'けんた'],
  ['美咲', 'みさき'],
  ['結衣', 'ゆい'],
  ['大輔', 'だいすけ'],
  ['直樹', 'なおき'],
  ['陽子', 'ようこ'],
  ['由美', 'ゆみ'],
  ['誠', 'まこと'],
  ['愛', 'あい'],
  ['さくら', 'さくら'],
  ['一郎', 'いちろう'],
  ['恵子', 'けいこ'],
];

/** Hiragana as katakana (some exports store readings in katakana). */
const katakana = (s: string) =>
  s.replace(/[\u3041-\u3096]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60));

const GERMAN = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' } as const;
const transcribed = (s: string | undefined) =>
  s?.replace(/[äöüÄÖÜ]/g, (c) => GERMAN[c as keyof typeof GERMAN]);

/**
 * Respells a generated contact in place. Draws the same three numbers from `r` for every contact, so
 * the rest of the data does not depend on which contacts were respelled.
 */
export function respell(c: Contact, r: () => number): void {
  const [a, b, k] = [r(), r(), r()];
  if (c.Country === 'JP' && c.LastName && a < 0.6) {
    const [last, lastReading] = JA_LAST[Math.floor(b * JA_LAST.length)];
    const [first, firstReading] = JA_FIRST[Math.floor(k * JA_FIRST.length)];
    const inKatakana = a < 0.2;
    c.LastName = last;
    c.PhoneticLastName = inKatakana ? katakana(lastReading) : lastReading;
    if (c.FirstName) {
      c.FirstName = first;
      c.PhoneticFirstName = inKatakana ? katakana(firstReading) : firstReading;
    }
  } else if (c.Country === 'DE' && a < 0.3) {
    // Mueller beside Müller: people whose name is written without umlauts (passports, old systems).
    c.FirstName = transcribed(c.FirstName);
    c.LastName = transcribed(c.LastName);
  }
}
