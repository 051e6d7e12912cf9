/**
 * What the index knows of one contact: every searchable token with its field, field class
 * (name > organisation > email > phone > other), display position and original offsets.
 */
import type { Contact } from '../store/contact.ts';
import { normalize } from './normalize.ts';
import { emailTerms, fieldTokens, phoneDigits } from './tokenize.ts';

/** `part`: a piece of a word after an in-word apostrophe ("brien" of "O'Brien"), matched by prefix, never whole. */
export type EntryKind = 'word' | 'email' | 'phone' | 'part';

export interface Entry {
  readonly term: string;
  readonly kind: EntryKind;
  readonly field: string;
  /** Index in a list field (Emails, Phones, Tags). */
  readonly item?: number;
  /** 0 name, 1 organisation, 2 email, 3 phone, 4 other. */
  readonly cls: number;
  /** Display order of the token in the contact. */
  readonly pos: number;
  readonly start: number;
  readonly length: number;
}

const OTHER_FIELDS = ['JobTitle', 'Street', 'City', 'Region', 'PostalCode'] as const;

/** Calling codes of the countries we know, so a phone matches with or without country code or trunk 0. */
const CALLING_CODES: Record<string, string> = {
  US: '1', CA: '1', GB: '44', IE: '353', DE: '49', AT: '43', CH: '41', FR: '33', BE: '32', NL: '31', LU: '352', ES: '34', PT: '351',
  IT: '39', PL: '48', CZ: '420', SE: '46', NO: '47', DK: '45', FI: '358', GR: '30', RU: '7', UA: '380', JP: '81', CN: '86', KR: '82',
  IN: '91', BR: '55', MX: '52', AR: '54', AU: '61', NZ: '64', ZA: '27', TR: '90', HU: '36', RO: '40',
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
 * A contact's entries in index order. `upTo` stops once entry `upTo` exists: highlighting a hit needs
 * only its matched entries, which are nearly always the first few (the name).
 */
export function contactEntries(c: Contact, upTo = Infinity): Entry[] {
  const out: Entry[] = [];
  const done = () => out.length > upTo;
  let pos = 0;
  const words = (field: string, text: string | undefined, cls: number, item?: number) => {
    if (!text) return;
    for (const t of fieldTokens(text)) {
      out.push({ term: t.term, kind: 'word', field, item, cls, pos, start: t.start, length: t.length });
      // Its own entry (a typed token may take the word, another its part: "o brien"), at the word's position.
      if (t.parts) for (const p of t.parts) out.push({ term: p.term, kind: 'part', field, item, cls, pos, start: p.start, length: p.length });
      pos++;
    }
  };
  const hasName = Boolean(c.FirstName || c.MiddleName || c.LastName);
  words('DisplayName', c.DisplayName, hasName ? 0 : 1);
  if (hasName) words('Organization', c.Organization, 1);
  if (done()) return out;
  c.Emails.forEach((e, i) => {
    const terms = emailTerms(e);
    const lower = normalize(e);
    for (const term of terms) {
      const at = Math.max(0, lower.indexOf(term));
      out.push({ term, kind: term.includes('@') ? 'email' : 'word', field: 'Emails', item: i, cls: 2, pos: pos++, start: at, length: term.length });
    }
  });
  if (done()) return out;
  c.Phones.forEach((p, i) => {
    const firstDigit = Math.max(0, p.search(/\d/));
    for (const v of phoneVariants(p, c.Country)) {
      out.push({ term: v, kind: 'phone', field: 'Phones', item: i, cls: 3, pos: pos++, start: firstDigit, length: p.length - firstDigit });
    }
  });
  if (done()) return out;
  for (const f of OTHER_FIELDS) words(f, c[f], 4);
  c.Tags.forEach((t, i) => words('Tags', t, 4, i));
  return out;
}
