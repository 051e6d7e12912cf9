/**
 * A base ordinal's phone entry made from the contact's phones alone, for highlighting: where its
 * phones start is read off the forward index, so a phone match does not tokenise the name and email
 * fields in front of it (search-index.ts entriesAt).
 */
import type { Contact } from '../../fields/contact.ts';
import { digitsStart, PHONE_CLASS, phoneVariants, type Entry } from '../contact-tokens.ts';
import type { Base } from './base.ts';

/** Entry k of base ordinal `ord` when it is a phone entry, else undefined. */
export function basePhoneEntry(b: Base, ord: number, k: number, c: Contact): Entry | undefined {
  let e = b.entOff[ord];
  const to = b.entOff[ord + 1];
  // The phones' class holds phones only; its first entry is the first phone's first variant.
  while (e < to && b.entCls[e] !== PHONE_CLASS) e++;
  if (e === to || k < b.entSrc[e]) return undefined;
  let at = b.entSrc[e];
  for (let i = 0; i < c.Phones.length; i++) {
    const p = c.Phones[i];
    const variants = phoneVariants(p, c.Country);
    if (k < at + variants.length) {
      while (e < to && b.entSrc[e] !== k) e++;
      const start = digitsStart(p);
      return {
        term: variants[k - at],
        kind: 'phone',
        field: 'Phones',
        item: i,
        cls: PHONE_CLASS,
        pos: b.entPos[e],
        start,
        length: p.length - start,
      };
    }
    at += variants.length;
  }
  return undefined;
}
