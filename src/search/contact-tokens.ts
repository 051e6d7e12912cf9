/**
 * What the index knows of one contact: every searchable token with its field, field class
 * (name > organisation > email > phone > other), display position and original offsets.
 */
import type { Contact } from '../fields/contact.ts';
import { FIELDS, type FieldDef, type FieldName } from '../fields/schema.ts';
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
  /** Field class, the field's index in CLASS_ORDER (from the schema's rankClass): 0 name … 4 other. */
  readonly cls: number;
  /** Display order of the token in the contact. */
  readonly pos: number;
  readonly start: number;
  readonly length: number;
  /** A word's other spellings (kind `variant` at the sink). */
  readonly variants?: readonly string[];
}

type RankClass = NonNullable<FieldDef['rankClass']>;

/** The field classes in rank order (CONTRACT §4): an entry's `cls` is its field's index here. */
export const CLASS_ORDER: readonly RankClass[] = [
  'name',
  'organisation',
  'email',
  'phone',
  'other',
];

const SEARCHED = FIELDS.filter((d) => d.searchable);
const classOf = (name: FieldName): number =>
  CLASS_ORDER.indexOf(SEARCHED.find((d) => d.name === name)!.rankClass!);

/** Plain text fields of the last class, in schema order: tokenised as words after the phones. */
const OTHER_FIELDS = SEARCHED.filter((d) => d.rankClass === 'other' && d.type === 'String').map(
  (d) => d.name as FieldName & keyof Contact,
);
const OTHER_CLASS = CLASS_ORDER.indexOf('other');

/**
 * The order in which a contact's fields are tokenised, which is its tokens' display order (rule
 * `order`) and entry numbering: not the schema's order (the name parts come through DisplayName, and
 * Emails and Phones precede the other fields), so it is written here and checked against the schema.
 */
const TOKENISED: readonly FieldName[] = [
  'DisplayName',
  'Organization',
  'Emails',
  'Phones',
  ...OTHER_FIELDS,
  'Tags',
];
/** Searchable in the schema, and matched through DisplayName ("First Middle Last"). */
const THROUGH_DISPLAY_NAME: readonly FieldName[] = ['FirstName', 'MiddleName', 'LastName'];
const EMAIL_CLASS = classOf('Emails'),
  PHONE_CLASS = classOf('Phones'),
  TAG_CLASS = classOf('Tags');
const NAME_CLASS = classOf('DisplayName'),
  ORG_CLASS = classOf('Organization');

{
  // The schema's searchable fields and their classes must be what this file tokenises (checked at load).
  const declared = SEARCHED.map((d) => d.name)
    .filter((n) => !THROUGH_DISPLAY_NAME.includes(n))
    .sort()
    .join();
  const tokenised = [...TOKENISED].sort().join();
  if (declared !== tokenised)
    throw new Error(
      `contact-tokens: schema searchable fields [${declared}] ≠ tokenised [${tokenised}]`,
    );
  if (THROUGH_DISPLAY_NAME.some((n) => classOf(n) !== NAME_CLASS))
    throw new Error('contact-tokens: a name part is not of the name class');
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
  // A person's DisplayName is nearly unique: tokenised without the memo, whose entries would outlive
  // the young generation and leave old-space garbage (a company's DisplayName, its Organization, repeats).
  let pos = words(
    sink,
    'DisplayName',
    c.DisplayName,
    hasName ? NAME_CLASS : ORG_CLASS,
    undefined,
    0,
    hasName ? indexTokens : fieldTokens,
    hasName ? givenNames(c) : undefined,
    hasName ? nameReadings(c) : undefined,
  );
  if (hasName)
    pos = words(sink, 'Organization', c.Organization, ORG_CLASS, undefined, pos, fieldTokens);
  if (sink.count > upTo) return;
  const emails = c.Emails;
  for (let i = 0; i < emails.length; i++) {
    const lower = normalize(emails[i]);
    for (const term of emailTerms(emails[i])) {
      sink.entry(
        term.includes('@') ? 'email' : 'word',
        term,
        'Emails',
        i,
        EMAIL_CLASS,
        pos++,
        Math.max(0, lower.indexOf(term)),
        term.length,
      );
    }
  }
  if (sink.count > upTo) return;
  const phones = c.Phones;
  for (let i = 0; i < phones.length; i++) {
    const p = phones[i];
    const firstDigit = Math.max(0, p.search(/\d/));
    for (const v of phoneVariants(p, c.Country))
      sink.entry('phone', v, 'Phones', i, PHONE_CLASS, pos++, firstDigit, p.length - firstDigit);
  }
  if (sink.count > upTo) return;
  for (const f of OTHER_FIELDS)
    pos = words(sink, f, c[f] as string | undefined, OTHER_CLASS, undefined, pos, fieldTokens);
  const tags = c.Tags;
  for (let i = 0; i < tags.length; i++)
    pos = words(sink, 'Tags', tags[i], TAG_CLASS, i, pos, fieldTokens);
}

/** The terms of a person's given names (first and middle), whose words in DisplayName get their nicknames. */
function givenNames(c: Contact): readonly string[] | undefined {
  if (!c.FirstName && !c.MiddleName) return undefined;
  const out: string[] = [];
  for (const f of [c.FirstName, c.MiddleName])
    if (f) for (const t of fieldTokens(f)) out.push(t.term);
  return out;
}

/** The word entries of one field value; returns the next display position. */
function words(
  sink: EntrySink,
  field: string,
  text: string | undefined,
  cls: number,
  item: number | undefined,
  pos: number,
  tokens: (text: string) => readonly Token[],
  given?: readonly string[],
  readings?: readonly [string, readonly string[]][],
): number {
  if (!text) return pos;
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
  return pos;
}
