/**
 * Latin spellings of a name written in Cyrillic, Greek, Arabic or Hebrew (CONTRACT.md §4: Юрий is
 * found by "yurii", "iurii", "yuri"), indexed as its variant spellings. The standard transliteration
 * comes from any-ascii (docs/DEPENDENCIES.md); Cyrillic also gets the common alternative
 * romanisations of the letters that have several (ю yu/iu/u, й y/i/j …), a bounded number per word;
 * Arabic and Hebrew, whose vowels are not written, the usual spellings of common names from
 * latin-names-data/ (محمد: muhammad, mohammed, mohamed …; any-ascii's "mhmd" is kept too).
 */
import { readFileSync } from 'node:fs';
import anyAscii from 'any-ascii';
import { normalize } from './normalize.ts';

const OTHER_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Arabic}\p{Script=Hebrew}]/u;
const CYRILLIC = /^[\p{Script=Cyrillic}\p{M}'’-]+$/u;
const GREEK = /\p{Script=Greek}/u;
const ARABIC_OR_HEBREW = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;

/** The names of latin-names-data/names.csv (normalised) and their spellings, read once. */
const NAMED: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  const text = readFileSync(new URL('./latin-names-data/names.csv', import.meta.url), 'utf8');
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [name, ...spellings] = line.split(',').map((s) => normalize(s.trim()));
    out.set(name, spellings.filter(Boolean));
  }
  return out;
})();

/** Cyrillic letters romanised in more than one common way (passport, ALA-LC, ISO 9 without marks, informal). */
const CYRILLIC_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  ю: ['yu', 'iu', 'u'],
  я: ['ya', 'ia', 'a'],
  й: ['y', 'i', 'j', ''],
  х: ['kh', 'h', 'x'],
  ц: ['ts', 'c'],
  ж: ['zh', 'j'],
  щ: ['shch', 'sch'],
  ё: ['e', 'yo'],
  е: ['e', 'ye'],
  ы: ['y', 'i'],
  ь: [''],
  ъ: [''],
  і: ['i'],
  ї: ['yi', 'i'],
  є: ['ye', 'ie'],
  г: ['g', 'h'],
};
/** Latin spellings per word at most (each is an index entry per contact holding the name). */
export const MAX_SPELLINGS = 8;
/** Spellings tried before the best are kept (a long name with many such letters stays bounded). */
const MAX_TRIED = 64;

/** A word's Latin spellings (normalised), other than `term`; none for a word in another script. */
export function latinSpellings(word: string, term: string): string[] {
  if (!OTHER_SCRIPT.test(word)) return [];
  const nfc = word.normalize('NFC');
  const standard = normalize(anyAscii(nfc)).replace(/[^\p{L}\p{N}]/gu, '');
  const out: string[] = [];
  // The usual spellings first: they are what people type (and the bound keeps the first).
  if (ARABIC_OR_HEBREW.test(nfc)) for (const s of NAMED.get(normalize(nfc)) ?? []) out.push(s);
  if (standard) out.push(standard);
  if (GREEK.test(nfc) && standard.includes('oy')) out.push(standard.replace(/oy/g, 'ou'));
  if (CYRILLIC.test(nfc)) for (const s of cyrillicSpellings(nfc.toLowerCase())) out.push(s);
  const unique = [...new Set(out)].filter((s) => s && s !== term);
  // Matching is by prefix: a spelling that starts another ("yuri" of "yurii") needs no entry.
  const needed = unique.filter((s) => !unique.some((o) => o !== s && o.startsWith(s)));
  return needed.slice(0, MAX_SPELLINGS);
}

/** The spellings of a Cyrillic word from the per-letter options, first options first, at most MAX_TRIED. */
function cyrillicSpellings(word: string): string[] {
  let acc = [''];
  let first = true;
  for (const ch of word) {
    // "ye" for е only where a word starts (Yelena); inside a word it is "e" (Aleksandr).
    const opts = ch === 'е' && !first ? ['e'] : (CYRILLIC_OPTIONS[ch] ?? [normalize(anyAscii(ch))]);
    first = false;
    const next: string[] = [];
    for (const o of opts) for (const a of acc) if (next.length < MAX_TRIED) next.push(a + o);
    acc = next;
  }
  return acc.map((s) => s.replace(/[^a-z0-9]/g, ''));
}
