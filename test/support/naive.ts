/** The naive reference matcher of the property tests (exact semantics: no typo tolerance). */
import type { Contact } from '../../src/fields/contact.ts';
import { normalize } from '../../src/search/normalize.ts';
import { tokenTerms, wordTokens } from '../../src/search/tokenize.ts';

/**
 * Naive reference: words of the searchable text; every typed token a prefix of a different word (a
 * word's part after an apostrophe counts as a word of its own: "brien" of "O'Brien").
 * A company contact's DisplayName IS its Organization, so that text counts once (docs/SEARCH.md).
 */
export function naive(c: Contact, typed: string[]): boolean {
  const person = Boolean(c.FirstName || c.MiddleName || c.LastName);
  const words = [
    c.DisplayName,
    person ? c.Organization : undefined,
    c.JobTitle,
    c.Street,
    c.City,
    c.Region,
    c.PostalCode,
    ...c.Tags,
    ...c.Emails.flatMap((e) => normalize(e).split(/[@._+-]+/)),
  ]
    .filter(Boolean)
    .flatMap((s) => wordTokens(s!).flatMap(tokenTerms));
  // A matching of typed tokens to distinct words by augmenting paths (polynomial: the adversarial
  // texts of bounded-cost.test type one token a hundred times).
  const owner = new Map<number, number>();
  const augment = (i: number, seen: Set<number>): boolean => {
    for (let j = 0; j < words.length; j++) {
      if (seen.has(j) || !words[j].startsWith(typed[i])) continue;
      seen.add(j);
      const o = owner.get(j);
      if (o === undefined || augment(o, seen)) {
        owner.set(j, i);
        return true;
      }
    }
    return false;
  };
  return typed.every((_, i) => augment(i, new Set()));
}
