/**
 * Variant spellings of a name (CONTRACT.md §4 "Names however they are written"), made at index time:
 * each is indexed as a `variant` entry of its word (VARIANT_NS), so a typed token meeting one ranks
 * in the `variant` tier — after every exact spelling, before every typo — and nothing is scanned per
 * query. This file holds the German and Nordic letter family (ä/ae, ö/oe, ü/ue, å/aa, æ/ae, ø/oe).
 */
import { normalize } from './normalize.ts';

/** Letters written as two in German and Nordic spelling ("Müller" is also "Mueller"). */
const EXPANSIONS: Readonly<Record<string, string>> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  å: 'aa',
  ø: 'oe',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  Å: 'Aa',
  Ø: 'Oe',
};
const EXPANDABLE = /[äöüåøÄÖÜÅØ]/g;
const HAS_EXPANDABLE = /[äöüåøÄÖÜÅØ]/;
/** The two-letter spellings of those letters, once normalised (ä is a, æ is ae, ø is o). */
const DIGRAPHS = /ae|oe|ue|aa/g;
const SINGLE: Readonly<Record<string, string>> = { ae: 'a', oe: 'o', ue: 'u', aa: 'a' };

/**
 * A word's spellings other than its own normalised `term` (`word` is its original text): its
 * umlauts written as two letters ("Müller" → "mueller"), and its two-letter spellings folded to one
 * ("Mueller" → "muller", which is how "Müller" and "Muller" normalise).
 */
export function letterVariants(word: string, term: string): string[] {
  const out: string[] = [];
  const nfc = word.normalize('NFC');
  if (HAS_EXPANDABLE.test(nfc)) {
    const expanded = normalize(spelledWithTwoLetters(nfc)).replace(/['\u2019]/g, '');
    if (expanded !== term) out.push(expanded);
  }
  const folded = spelledWithOneLetter(term);
  if (folded !== term && !out.includes(folded)) out.push(folded);
  return out;
}

/** Text (NFC) with its umlauts written as two letters ("Müller" → "Mueller"). */
export const spelledWithTwoLetters = (nfc: string): string =>
  nfc.replace(EXPANDABLE, (c) => EXPANSIONS[c]);

/** A normalised term with its two-letter spellings folded to one ("mueller" → "muller"). */
export const spelledWithOneLetter = (term: string): string =>
  term.replace(DIGRAPHS, (d) => SINGLE[d]);

/**
 * The typed side of the same family: a typed two-letter spelling also looks for the one-letter one
 * ("mueller" meets "Muller" and "Müller", both "muller"). A digraph at the end of the typed text is
 * kept (its "e" may start the next letter: "mue" is not "mu", which would meet every "Mu…").
 */
export function typedLetterVariant(term: string): string | undefined {
  if (term === lastTyped) return lastFolded; // the string matcher asks once per contact token
  lastTyped = term;
  lastFolded = foldTyped(term);
  return lastFolded;
}
let lastTyped = '';
let lastFolded: string | undefined;

function foldTyped(term: string): string | undefined {
  const last = term.length - 2;
  let changed = false;
  const folded = term.replace(DIGRAPHS, (d, at: number) => {
    if (at >= last) return d;
    changed = true;
    return SINGLE[d];
  });
  return changed ? folded : undefined;
}
