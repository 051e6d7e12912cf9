/** Where a typed token's match lies in the original field text (GetPredictiveOptionsSearchContacts' Matches). */
import type { Entry } from './contact-tokens.ts';
import { normalize } from './normalize.ts';
import { termText } from './tokenize.ts';

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
  for (let k = 1; k <= length; k++) {
    if (fold(original.slice(start, start + k)).length >= typed) return { start, length: k };
  }
  return { start, length };
}
