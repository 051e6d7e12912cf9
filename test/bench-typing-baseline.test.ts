/**
 * bench/support/sorted-token-baseline.ts, bench:typing's unranked yardstick (issue 22): its answers
 * are exactly the contacts a naive filter finds (every typed token a prefix of a different token of
 * the contact, in the engine's namespaces), and with a limit, that many of them and no others.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SortedTokenBaseline } from '../bench/support/sorted-token-baseline.ts';
import { distinctTypingQueries } from '../bench/support/typing.ts';
import { contactEntries, type Entry } from '../src/search/contact-tokens.ts';
import { digitVariants, queryTokens, type QueryToken } from '../src/search/tokenize.ts';
import type { Contact } from '../src/fields/contact.ts';
import { generateContacts } from '../src/demo/generate.ts';

const at = '2026-01-01T00:00:00Z';
const person = (id: number, p: Partial<Contact>): Contact => ({
  ContactId: `T${id}`,
  DisplayName: [p.FirstName, p.LastName].filter(Boolean).join(' ') || (p.Organization ?? ''),
  Emails: [],
  Phones: [],
  Tags: [],
  CreatedAt: at,
  UpdatedAt: at,
  ...p,
});
const crafted: Contact[] = [
  person(1, { FirstName: 'Anna', LastName: 'Anna', Emails: ['anna.anna@example.com'] }), // a token twice: "an an" needs two
  person(2, { FirstName: 'Seán', LastName: "O'Brien", Phones: ['+353 1 234 5678'], Country: 'IE' }), // accents, an apostrophe word
  person(3, { FirstName: 'Zoë', LastName: 'Ångström', City: 'Malmö', Tags: ['vip', 'anna'] }),
  person(4, {
    Organization: 'Acme Anvil Co',
    Emails: ['sales@acme.example'],
    Phones: ['030 1234567'],
    Country: 'DE',
  }),
  person(5, { FirstName: '陽菜', LastName: '佐々木' }),
];
const contacts = [...crafted, ...[...generateContacts({ count: 300 })].flat()];
const baseline = SortedTokenBaseline.build(contacts);

/** The semantics written out plainly: one typed token against one contact token. */
function meets(q: QueryToken, e: Entry): boolean {
  if (q.kind === 'email') return e.kind === 'email' && e.term.startsWith(q.term);
  if (e.kind === 'email') return false;
  if (e.kind === 'phone')
    return q.kind === 'digits' && digitVariants(q.term).some((v) => e.term.startsWith(v));
  return !q.international && e.term.startsWith(q.term);
}

const entriesOf = contacts.map((c) => contactEntries(c));

/** Ordinals of the contacts where every typed token takes a different token: every assignment tried. */
function naive(text: string): Set<number> {
  const query = queryTokens(text);
  const out = new Set<number>();
  if (query.length === 0) return out;
  entriesOf.forEach((entries, i) => {
    const used = new Set<number>();
    const place = (t: number): boolean =>
      t === query.length ||
      entries.some((e, k) => {
        if (used.has(k) || !meets(query[t], e)) return false;
        used.add(k);
        if (place(t + 1)) return true;
        used.delete(k);
        return false;
      });
    if (place(0)) out.add(i);
  });
  return out;
}

function agrees(text: string): Set<number> {
  const want = naive(text);
  const all = baseline.search(text, Infinity);
  assert.equal(new Set(all).size, all.length, `${JSON.stringify(text)}: a contact twice`);
  assert.deepEqual(new Set(all), want, JSON.stringify(text));
  const ten = baseline.search(text, 10);
  assert.equal(ten.length, Math.min(10, want.size), JSON.stringify(text));
  for (const i of ten)
    assert.ok(want.has(i), `${JSON.stringify(text)}: ${contacts[i].ContactId} does not match`);
  return want;
}

test('crafted cases: a token twice, apostrophes, accents, emails, phones, CJK, a company', () => {
  const expect = (text: string, ids: string[]) => {
    assert.deepEqual(
      baseline
        .search(text, Infinity)
        .map((i) => contacts[i].ContactId)
        .filter((id) => id.startsWith('T'))
        .sort(),
      ids,
      text,
    );
    agrees(text);
  };
  expect('anna anna', ['T1']); // T3 has "anna" once (a tag): not twice
  expect('an an', ['T1', 'T3']); // T3: "anna" (tag) and "angstrom"
  expect('o brien', ['T2']);
  expect('obr', ['T2']);
  expect('sean br', ['T2']);
  expect('zoe angst malm', ['T3']);
  expect('anna.anna@ex', ['T1']);
  expect('sales@', ['T4']);
  expect('+353 1 23', ['T2']);
  expect('0353 1', ['T2']); // the trunk 0 dropped: "3531…" starts T2's international form
  expect('+49 30', ['T4']); // a German number given with its country code
  expect('+353 30', []);
  expect('030 123', ['T4']);
  expect('陽 佐', ['T5']);
  expect('acme anv', ['T4']);
  expect('zzzz', []);
  expect('', []);
});

test('the distinct typing traffic of 300 generated contacts: the same sets as the naive filter', () => {
  const names = contacts.map((c) => ({ first: c.FirstName, last: c.LastName }));
  const queries = distinctTypingQueries(names);
  assert.ok(queries.length > 1000);
  let hits = 0;
  for (const q of queries.slice(0, 1500)) if (agrees(q).size > 0) hits++;
  assert.ok(hits > 1400, `hits ${hits}`); // made from the contacts: nearly every query finds one
});

test("any query made of pieces of the contacts' tokens (property)", () => {
  const pieces = contacts.flatMap((c) =>
    [c.FirstName, c.LastName, c.City, c.Emails[0], c.Phones[0], c.Tags[0]].filter(
      (s): s is string => Boolean(s),
    ),
  );
  const piece = fc
    .tuple(fc.constantFrom(...pieces), fc.nat(12), fc.nat(6))
    .map(([s, a, n]) => s.slice(Math.min(a, s.length - 1), a + 1 + n));
  fc.assert(
    fc.property(fc.array(piece, { minLength: 1, maxLength: 4 }), (parts) => {
      agrees(parts.join(' '));
    }),
    { numRuns: 300 },
  );
});
