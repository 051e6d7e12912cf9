/**
 * Tokens of contact fields and of typed queries (CONTRACT.md §4). A token keeps its offsets in the
 * original text so matches can be highlighted. A run of Han and kana characters (written without
 * spaces) is one token, and a contact's run is also indexed from each of its later characters on
 * (its `parts`), so a typed run matches as written anywhere inside it: "山田" and "太郎" find "山田太郎",
 * never scattered characters ("山田" does not find 横山 at 飯田農林).
 */
import { normalize } from './normalize.ts';
import { latinSpellings } from './transliterate.ts';
import { letterVariants } from './variants.ts';

export interface Token {
  /** Normalised text (apostrophes inside the word dropped: "O'Brien" is "obrien"). */
  readonly term: string;
  /** Offsets in the original text (UTF-16 code units). */
  readonly start: number;
  readonly length: number;
  /** A word with apostrophes inside: its pieces after the first ("brien" of "O'Brien"; the first is a prefix of `term`). */
  readonly parts?: readonly Token[];
  /** Other spellings of the word, normalised (variants.ts; contact fields only, not typed text). */
  readonly variants?: readonly string[];
}

// UAX #29 (WB6/WB7): an apostrophe (U+0027, U+2019) between letters does not break a word, so
// "O'Brien", "can't" are one word each; a trailing one ("O'" while typing) is not part of it.
const WORD =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+|[\p{L}\p{N}\p{M}]+(?:(?<=\p{L}\p{M}*)['\u2019](?=\p{L})[\p{L}\p{N}\p{M}]+)*/gu;
const APOSTROPHES = /['\u2019]/g;

/** `spellings`: also each word's variant spellings (a contact's text at index time; never the typed text). */
export function wordTokens(text: string, spellings = false): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    const w = m[0],
      start = m.index!;
    if (!w.includes("'") && !w.includes('\u2019')) {
      const term = normalize(w);
      if (!term) continue;
      const parts = spellings && CJK_RUN.test(w) ? runSuffixes(w, start) : undefined;
      out.push(spellings ? withVariants(w, term, start, parts) : { term, start, length: w.length });
      continue;
    }
    const term = normalize(w.replace(APOSTROPHES, ''));
    const parts: Token[] = [];
    for (let at = w.search(APOSTROPHES); at >= 0;) {
      const next = w.slice(at + 1).search(APOSTROPHES);
      const end = next < 0 ? w.length : at + 1 + next;
      const part = normalize(w.slice(at + 1, end));
      if (part) parts.push({ term: part, start: start + at + 1, length: end - at - 1 });
      at = next < 0 ? -1 : end;
    }
    if (term)
      out.push(
        spellings ? withVariants(w, term, start, parts) : { term, start, length: w.length, parts },
      );
  }
  return out;
}

const CJK_RUN = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]{2,}$/u;
/** Suffixes of a run longer than this are not indexed (a run is a name or a word, rarely longer). */
const MAX_RUN_PARTS = 15;

/** A Han or kana run's suffixes after its first character (its `parts`): "田太郎", "太郎", "郎" of "山田太郎". */
function runSuffixes(w: string, start: number): Token[] {
  const chars = [...w];
  const out: Token[] = [];
  let at = chars[0].length;
  for (let i = 1; i < chars.length && i <= MAX_RUN_PARTS; i++) {
    const rest = chars.slice(i).join('');
    const term = normalize(rest);
    if (term) out.push({ term, start: start + at, length: rest.length });
    at += chars[i].length;
  }
  return out;
}

/** A contact's word token with its variant spellings, if any. */
function withVariants(w: string, term: string, start: number, parts: Token[] | undefined): Token {
  const variants = letterVariants(w, term);
  for (const v of latinSpellings(w, term)) if (!variants.includes(v)) variants.push(v);
  const t: Token = { term, start, length: w.length };
  if (parts) (t as { parts?: Token[] }).parts = parts;
  if (variants.length) (t as { variants?: string[] }).variants = variants;
  return t;
}

/** A contact's words with their variant spellings (for names, which are not memoised: fieldTokens). */
export const indexTokens = (text: string): Token[] => wordTokens(text, true);

/** The terms of a word token: the word, then its parts after the first apostrophe ones. */
export const tokenTerms = (t: Token): string[] =>
  t.parts ? [t.term, ...t.parts.map((p) => p.term)] : [t.term];

/** Normalised text as a word term counts it (apostrophes dropped): what highlighting maps typed characters through. */
export const termText = (s: string) => normalize(s).replace(APOSTROPHES, '');

export const isDigits = (s: string) => /^\d+$/.test(s);

/**
 * Email terms: the whole address, the local part's pieces split at `. _ - +` and the domain's labels.
 * The local part and the domain as wholes are not separate terms: a typed word never holds `.` `-` `+`
 * (queryTokens splits there), so "john.smith" arrives as "john" "smith" and meets the pieces; a typed
 * address (with `@`) meets the whole address. A local part or domain without separators IS a piece.
 */
export function emailTerms(email: string): string[] {
  const e = normalize(email.trim());
  const at = e.lastIndexOf('@');
  if (at < 0) return wordTokens(email).map((t) => t.term);
  // The address, then the local part's pieces and the domain's labels, each once (a few: no Set).
  const out = [e];
  for (const piece of e.slice(0, at).split(LOCAL_SEPARATORS))
    if (piece && !out.includes(piece)) out.push(piece);
  for (const label of e.slice(at + 1).split(DOMAIN_SEPARATORS))
    if (label && !out.includes(label)) out.push(label);
  return out;
}

const LOCAL_SEPARATORS = /[._+-]+/;
const DOMAIN_SEPARATORS = /[.-]+/;

const FIELD_TOKENS = new Map<string, Token[]>();

/** wordTokens memoised for field values, which repeat (first names, cities, organisations, tags). */
export function fieldTokens(text: string): Token[] {
  let t = FIELD_TOKENS.get(text);
  if (t === undefined) {
    if (FIELD_TOKENS.size >= 50_000) FIELD_TOKENS.clear(); // bounded: unique values (names) would fill it for nothing
    t = wordTokens(text, true);
    FIELD_TOKENS.set(text, t);
  }
  return t;
}

/** The digit strings a typed phone token is matched with by prefix: as typed, without a trunk 0, without an international 00. */
export function digitVariants(digits: string): string[] {
  if (digits.startsWith('00') && digits.length > 2) return [digits, digits.slice(2)];
  if (digits.startsWith('0') && digits.length > 1) return [digits, digits.slice(1)];
  return [digits];
}

export const phoneDigits = (phone: string) => phone.replace(/\D+/g, '');

/** A typed query token: `email` when it holds `@` (kept whole), `digits` for phone-like digit groups. */
export interface QueryToken {
  readonly term: string;
  readonly kind: 'word' | 'email' | 'digits';
  /** Digits typed after a `+`: a number with its country code, matched against phones only (not street numbers or postal codes). */
  readonly international?: boolean;
}

/** Digit groups typed with spaces, dashes, dots or parentheses between them form one digit token. */
// A `+` and one digit ("+4", the first keystrokes of "+44 …") is a phone token too, like "+44".
const DIGIT_GROUPS = /\+?\(?\d[\d\s().\-/]*\d\)?|\+?\d/g;

/** A part that is one ASCII word: its one token is itself in lower case (what wordTokens and normalize make of it). */
const ASCII_WORD = /^[A-Za-z0-9]+$/;

export function queryTokens(text: string): QueryToken[] {
  const out: QueryToken[] = [];
  // Without an `@` there is one chunk, and without a digit no phone token: the usual typed name
  // skips both regexes (the split's lookbehind alone was ~0.5 µs a keystroke).
  const chunks = text.includes('@') ? text.split(/\s+(?=\S*@)|(?<=@\S*)\s+/) : [text];
  for (const chunk of chunks) {
    // A chunk with `@` is an email address or its start: one token.
    if (chunk.includes('@')) {
      const t = normalize(chunk.trim());
      if (t) out.push({ term: t, kind: 'email' });
      continue;
    }
    const joined = /\d/.test(chunk)
      ? chunk.replace(DIGIT_GROUPS, (m) => {
          const d = m.replace(/\D+/g, '');
          // 3+ digits, or a leading + (someone typing a phone number), make a phone digit token.
          if (m.startsWith('+')) return ` \u0002${d} `;
          return d.length >= 3 ? ` \u0001${d} ` : m;
        })
      : chunk;
    for (const part of joined.split(/\s+/)) {
      if (part.startsWith('\u0002'))
        out.push({ term: part.slice(1), kind: 'digits', international: true });
      else if (part.startsWith('\u0001')) out.push({ term: part.slice(1), kind: 'digits' });
      else if (ASCII_WORD.test(part)) out.push({ term: part.toLowerCase(), kind: 'word' });
      else for (const t of wordTokens(part)) out.push({ term: t.term, kind: 'word' });
    }
  }
  return out;
}
