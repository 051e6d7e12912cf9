/**
 * Text normalisation for matching (CONTRACT.md §4): NFKD, combining marks removed, case folded, and
 * the letters NFKD does not decompose folded by hand, so "zoe angstrom" finds "Zoë Ångström".
 */

/**
 * Also served to the search page as search-folds.js (http/static-files.ts), so its highlights fold alike.
 * Katakana fold to hiragana (added below), so "やまだ" and "ヤマダ" are one spelling.
 */
export const FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  ø: 'o',
  Ø: 'o',
  ł: 'l',
  Ł: 'l',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  þ: 'th',
  Þ: 'th',
  œ: 'oe',
  Œ: 'oe',
  ı: 'i',
  ħ: 'h',
  Ħ: 'h',
  ŧ: 't',
  Ŧ: 't',
  ŋ: 'ng',
  Ŋ: 'ng',
  ſ: 's',
  ...katakanaToHiragana(),
};

/** ァ (U+30A1) … ヶ (U+30F6) and the iteration marks ヽ ヾ are their hiragana 0x60 below. */
function katakanaToHiragana(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let c = 0x30a1; c <= 0x30f6; c++)
    out[String.fromCharCode(c)] = String.fromCharCode(c - 0x60);
  out['\u30fd'] = '\u309d';
  out['\u30fe'] = '\u309e';
  return out;
}
const FOLD_RE = new RegExp(`[${Object.keys(FOLDS).join('')}]`, 'g');
const MARKS = /\p{M}+/gu;

export function normalize(s: string): string {
  // ASCII fast path: only case folding needed.
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase();
  return s
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(FOLD_RE, (c) => FOLDS[c])
    .toLowerCase()
    .normalize('NFC');
}
