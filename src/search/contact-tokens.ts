/**
 * What the index knows of one contact: every searchable token with its field, field class
 * (name > organisation > email > phone > other), display position and original offsets.
 */
import type { Contact } from '../fields/contact.ts';
import {
  FIELDS,
  RANK_CLASSES,
  type FieldDef,
  type FieldName,
  type TokenRule,
} from '../fields/schema.ts';
import { nicknamesOfWord } from './nicknames.ts';
import { normalize } from './normalize.ts';
import { nameReadings } from './readings.ts';
import { emailTerms, fieldTokens, indexTokens, phoneDigits, type Token } from './tokenize.ts';

/**
 * `part`: a piece of a word after an in-word apostrophe ("brien" of "O'Brien"), matched by prefix, never whole.
 * `variant`: another spelling of the word just sent (variants.ts: "mueller" of "Müller"), matched by
 * prefix in the `variant` rank tier, never whole. It is the same contact token as its word (the same
 * entry number, so "a a" cannot take "Åsa" and its spelling "aasa" as two tokens): a sink receives
 * it right after its word, and an Entry holds it in `variants`.
 */
export type EntryKind = 'word' | 'email' | 'phone' | 'part' | 'variant';

export interface Entry {
  readonly term: string;
  readonly kind: EntryKind;
  readonly field: string;
  /** Index in a list field (Emails, Phones, Tags). */
  readonly item?: number;
  /** Field class, the field's index in RANK_CLASSES (from the schema's rankClass): 0 name … 4 other. */
  readonly cls: number;
  /** Display order of the token in the contact. */
  readonly pos: number;
  readonly start: number;
  readonly length: number;
  /** A word's other spellings (kind `variant` at the sink). */
  readonly variants?: readonly string[];
}

const SEARCHED = FIELDS.filter((d) => d.searchable);
const classOf = (d: FieldDef): number => RANK_CLASSES.indexOf(d.rankClass!);
const ORG_CLASS = RANK_CLASSES.indexOf('organisation');

/** A searchable field as tokenised: the schema's rule and class, in the schema's token order. */
interface Tokenised {
  readonly name: FieldName & keyof Contact;
  readonly rule: TokenRule;
  readonly cls: number;
}

/**
 * The order in which a contact's fields are tokenised (the schema's `tokens.order`), which is its
 * tokens' display order (rule `order`) and entry numbering.
 */
const TOKENISED: readonly Tokenised[] = SEARCHED.filter((d) => d.tokens)
  .sort((a, b) => a.tokens!.order - b.tokens!.order)
  .map((d) => ({
    name: d.name as FieldName & keyof Contact,
    rule: d.tokens!.rule,
    cls: classOf(d),
  }));

{
  // The schema's searchable fields are each tokenised once or through a tokenised field of their class.
  for (const d of SEARCHED) {
    const via = d.through ? SEARCHED.find((t) => t.name === d.through) : undefined;
    if (d.rankClass === undefined || (d.through && (!via?.tokens || via.rankClass !== d.rankClass)))
      throw new Error(`contact-tokens: searchable field ${d.name} has no class or token rule`);
  }
}

/** Calling codes of the countries we know, so a phone matches with or without country code or trunk 0. */
const CALLING_CODES: Record<string, string> = {
  US: '1',
  CA: '1',
  GB: '44',
  IE: '353',
  DE: '49',
  AT: '43',
  CH: '41',
  FR: '33',
  BE: '32',
  NL: '31',
  LU: '352',
  ES: '34',
  PT: '351',
  IT: '39',
  PL: '48',
  CZ: '420',
  SE: '46',
  NO: '47',
  DK: '45',
  FI: '358',
  GR: '30',
  RU: '7',
  UA: '380',
  JP: '81',
  CN: '86',
  KR: '82',
  IN: '91',
  BR: '55',
  MX: '52',
  AR: '54',
  AU: '61',
  NZ: '64',
  ZA: '27',
  TR: '90',
  HU: '36',
  RO: '40',
};

const CODES = [...new Set(Object.values(CALLING_CODES))];

/**
 * Digit strings a phone number is matched against by prefix: international (country code + national
 * number) and national (without trunk 0). A typed trunk 0 or international 00 is dropped on the query
 * side (digitVariants), so "030 12", "+49 30 12", "0049 30 12" and "30 12" all meet "+49 30 1234567".
 */
export function phoneVariants(phone: string, country?: string): string[] {
  const digits = phoneDigits(phone);
  if (!digits) return [];
  const international = /^\s*(\+|00)/.test(phone);
  const cc = country ? CALLING_CODES[country.toUpperCase()] : undefined;
  if (international) {
    const intl = digits.startsWith('00') ? digits.slice(2) : digits;
    const code = cc && intl.startsWith(cc) ? cc : CODES.find((c) => intl.startsWith(c));
    if (!code) return [intl];
    const national = intl.slice(code.length).replace(/^0/, '');
    return national ? [intl, national] : [intl];
  }
  const national = digits.startsWith('0') ? digits.slice(1) : digits;
  if (!national) return [digits];
  return cc ? [cc + national, national] : [national];
}

/** Where a phone entry's highlight starts: the number's first digit (a phone entry spans the rest). */
const digitsStart = (phone: string): number => Math.max(0, phone.search(/\d/));

/**
 * Receives a contact's entries in index order, one call each (no object per entry): the build's
 * loader writes them straight into typed arrays; EntryList makes the Entry objects highlighting needs.
 */
export interface EntrySink {
  /** Entries received for the current contact: the next entry's index (its "token" for CONTRACT §4's "a different token"; a `variant` is its word's token and does not count). */
  readonly count: number;
  entry(
    kind: EntryKind,
    term: string,
    field: string,
    item: number | undefined,
    cls: number,
    pos: number,
    start: number,
    length: number,
  ): void;
  /**
   * Optional: a memo of field values' word entries (the build's loader, where values repeat: a
   * first name, a city, a tag). Asked before a memoised field value's words are sent (words with
   * FIELD_WORDS): `replay` sends them itself and returns the next display position, or -1 when it
   * has not seen the value; the entries are then sent one by one between `record` and `recorded`.
   */
  readonly memo?: EntryMemo;
}

export interface EntryMemo {
  replay(text: string, field: string, item: number | undefined, cls: number, pos: number): number;
  record(): void;
  recorded(text: string, from: number, to: number): void;
}

class EntryList implements EntrySink {
  readonly out: Entry[] = [];
  get count(): number {
    return this.out.length;
  }
  entry(
    kind: EntryKind,
    term: string,
    field: string,
    item: number | undefined,
    cls: number,
    pos: number,
    start: number,
    length: number,
  ): void {
    if (kind === 'variant') {
      const word = this.out[this.out.length - 1] as { variants?: string[] };
      (word.variants ??= []).push(term);
      return;
    }
    this.out.push({ term, kind, field, item, cls, pos, start, length });
  }
}

/**
 * A contact's entries in index order. `upTo` stops once entry `upTo` exists: highlighting a hit needs
 * only its matched entries, which are nearly always the first few (the name).
 */
export function contactEntries(c: Contact, upTo = Infinity): Entry[] {
  const list = new EntryList();
  eachEntry(c, list, upTo);
  return list.out;
}

/** Feeds `sink` a contact's entries in index order (see contactEntries). */
export function eachEntry(c: Contact, sink: EntrySink, upTo = Infinity): void {
  const hasName = Boolean(c.FirstName || c.MiddleName || c.LastName);
  let pos = 0;
  for (const f of TOKENISED) {
    if (pos > 0 && sink.count > upTo) return;
    pos = fieldEntries(c, f, hasName, sink, pos);
  }
}

/** One field's entries by its schema rule; returns the next display position. */
function fieldEntries(
  c: Contact,
  f: Tokenised,
  hasName: boolean,
  sink: EntrySink,
  pos: number,
): number {
  switch (f.rule) {
    case 'name':
      // A person's DisplayName is nearly unique: tokenised without the memo, whose entries would outlive
      // the young generation and leave old-space garbage (a company's DisplayName, its Organization, repeats).
      return words(
        sink,
        f.name,
        c[f.name] as string | undefined,
        hasName ? f.cls : ORG_CLASS,
        undefined,
        pos,
        hasName
          ? { tokens: indexTokens, given: givenNames(c), readings: nameReadings(c) }
          : FIELD_WORDS,
      );
    case 'organisation':
      // Without name parts DisplayName is the organisation, already tokenised.
      if (!hasName) return pos;
      return words(
        sink,
        f.name,
        c[f.name] as string | undefined,
        f.cls,
        undefined,
        pos,
        FIELD_WORDS,
      );
    case 'emails': {
      const emails = c[f.name] as string[];
      for (let i = 0; i < emails.length; i++) {
        const lower = normalize(emails[i]);
        for (const term of emailTerms(emails[i])) {
          sink.entry(
            term.includes('@') ? 'email' : 'word',
            term,
            f.name,
            i,
            f.cls,
            pos++,
            Math.max(0, lower.indexOf(term)),
            term.length,
          );
        }
      }
      return pos;
    }
    case 'phones': {
      const phones = c[f.name] as string[];
      for (let i = 0; i < phones.length; i++) {
        const p = phones[i];
        const start = digitsStart(p);
        for (const v of phoneVariants(p, c.Country))
          sink.entry('phone', v, f.name, i, f.cls, pos++, start, p.length - start);
      }
      return pos;
    }
    case 'words': {
      const value = c[f.name] as string | readonly string[] | undefined;
      if (typeof value === 'string' || value === undefined)
        return words(sink, f.name, value, f.cls, undefined, pos, FIELD_WORDS);
      for (let i = 0; i < value.length; i++)
        pos = words(sink, f.name, value[i], f.cls, i, pos, FIELD_WORDS);
      return pos;
    }
  }
}

/** The terms of a person's given names (first and middle), whose words in DisplayName get their nicknames. */
function givenNames(c: Contact): readonly string[] | undefined {
  if (!c.FirstName && !c.MiddleName) return undefined;
  const out: string[] = [];
  for (const f of [c.FirstName, c.MiddleName])
    if (f) for (const t of fieldTokens(f)) out.push(t.term);
  return out;
}

/** How a field value's words are made, and the variants only a person's name gets. */
interface WordRules {
  readonly tokens: (text: string) => readonly Token[];
  /** The terms of the given names, whose words get their nicknames (givenNames). */
  readonly given?: readonly string[];
  /** The name's readings (nameReadings). */
  readonly readings?: readonly [string, readonly string[]][];
}

/** Every field's words but a person's DisplayName: the memoised tokens, no nicknames or readings. */
const FIELD_WORDS: WordRules = { tokens: fieldTokens };

/** The word entries of one field value; returns the next display position. */
function words(
  sink: EntrySink,
  field: string,
  text: string | undefined,
  cls: number,
  item: number | undefined,
  pos: number,
  { tokens, given, readings }: WordRules,
): number {
  if (!text) return pos;
  const memo = tokens === fieldTokens ? sink.memo : undefined;
  if (memo) {
    const next = memo.replay(text, field, item, cls, pos);
    if (next >= 0) return next;
    memo.record();
  }
  const from = pos;
  for (const t of tokens(text)) {
    sink.entry('word', t.term, field, item, cls, pos, t.start, t.length);
    if (t.variants)
      for (const v of t.variants)
        sink.entry('variant', v, field, item, cls, pos, t.start, t.length);
    // A given name's nicknames (and a nickname's full names): variants of the word.
    const nicks = given?.includes(t.term) ? nicknamesOfWord(t) : undefined;
    if (nicks)
      for (const v of nicks)
        if (!t.variants?.includes(v))
          sink.entry('variant', v, field, item, cls, pos, t.start, t.length);
    // The reading of the name this word holds (山田: やまだ, yamada): variants of the word.
    if (readings)
      for (const [name, spellings] of readings)
        if (name && t.term.includes(name))
          for (const v of spellings)
            if (v !== t.term && !t.variants?.includes(v) && !nicks?.includes(v))
              sink.entry('variant', v, field, item, cls, pos, t.start, t.length);
    // Its own entry (a typed token may take the word, another its part: "o brien"), at the word's position.
    if (t.parts)
      for (const p of t.parts) sink.entry('part', p.term, field, item, cls, pos, p.start, p.length);
    pos++;
  }
  memo?.recorded(text, from, pos);
  return pos;
}
