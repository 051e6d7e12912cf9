/** Where a typed token's match lies in the original field text (GetPredictiveOptionsSearchContacts' Matches). */
import anyAscii from 'any-ascii';
import type { Entry } from './contact-tokens.ts';
import { normalize } from './normalize.ts';
import { termText } from './tokenize.ts';
import { spelledWithTwoLetters, spelledWithOneLetter } from './variants.ts';

/**
 * Offsets of a match in the original field text: the typed prefix mapped back through normalisation
 * (a word's apostrophes are not typed: "ok" highlights "O'K" of "O'Keefe"; a typed address keeps them).
 */
export function highlight(
  original: string,
  start: number,
  length: number,
  typed: number,
  kind: Entry['kind'] = 'word',
): { start: number; length: number } {
  const fold = kind === 'email' ? normalize : termText;
  // ASCII folds one character to one (case only), but for a word's apostrophes, which it drops: the
  // typed length is the highlight's, with no string made (this ran per match of every answer).
  let plain = true;
  for (let i = start, end = Math.min(original.length, start + length); i < end && plain; i++) {
    const ch = original.charCodeAt(i);
    plain = ch < 0x80 && (ch !== 0x27 || kind === 'email');
  }
  if (plain && start + length <= original.length) return { start, length: Math.min(typed, length) };
  const folded = kind === 'email' ? FOLDED.email : FOLDED.word;
  for (let k = 1; k <= length; k++) {
    if (foldedLength(folded, fold, original.slice(start, start + k)) >= typed)
      return { start, length: k };
  }
  return { start, length };
}

/**
 * Folded lengths of the prefixes highlighted lately, per fold: the same names come back answer after
 * answer as a user types ("Zoë", "Zoë A", "Zoë Å"), and each NFKD round trip cost about a microsecond
 * a prefix of every non-ASCII match. Emptied when full (a bound, not an LRU: a typing stream refills it).
 */
const FOLDED = { word: new Map<string, number>(), email: new Map<string, number>() };
const FOLDED_MOST = 8192;

function foldedLength(memo: Map<string, number>, fold: (s: string) => string, s: string): number {
  let n = memo.get(s);
  if (n === undefined) {
    if (memo.size >= FOLDED_MOST) memo.clear();
    memo.set(s, (n = fold(s).length));
  }
  return n;
}

const CYRILLIC_OR_GREEK = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;
const UMLAUT = /[äöüåøÄÖÜÅØ]/;

/**
 * Offsets of a variant match (CONTRACT §4: variants highlight the characters they matched): the typed
 * prefix mapped through the spelling it met — "mue" marks "Mü" of "Müller", "muller" the whole of
 * "Mueller", "yur" "Юр" of "Юрий" — and the whole word where characters do not map one to one (a
 * nickname, a reading, an Arabic or Hebrew name).
 */
export function variantHighlight(
  original: string,
  start: number,
  length: number,
  typed: number,
): { start: number; length: number } {
  const word = original.slice(start, start + length);
  const spell = UMLAUT.test(word)
    ? (s: string) => termText(spelledWithTwoLetters(s))
    : /ae|oe|ue|aa/i.test(word)
      ? (s: string) => spelledWithOneLetter(termText(s))
      : CYRILLIC_OR_GREEK.test(word)
        ? (s: string) => normalize(anyAscii(s)).replace(/[^\p{L}\p{N}]/gu, '')
        : undefined;
  if (spell)
    for (let k = 1; k < length; k++)
      if (spell(word.slice(0, k)).length >= typed) return { start, length: k };
  return { start, length };
}
