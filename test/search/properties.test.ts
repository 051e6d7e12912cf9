/**
 * Property tests (fast-check) over generated demo contacts. Properties checked:
 * 1. Permuting the typed tokens gives the same set of contacts.
 * 2. Walking all pages with After returns every match exactly once, in the order of one big page.
 * 3. Facet counts equal the totals of the corresponding filtered searches, and never rise when a filter is added.
 * 4. The matcher agrees with a naive reference implementation (every token a prefix of a different word, exact only).
 * 4b. It agrees too when the typed words are the names' other spellings (CONTRACT §4): umlauts as two
 *    letters, Latin spellings of Cyrillic and Greek, nicknames, readings in kana and romaji.
 * 5. withinOneEdit agrees with the naive optimal-string-alignment distance.
 * 6. A first page (early-stopping search, Total from the unranked match set) equals the start of the
 *    fully ranked walk, and Total its length, for one to three tokens with and without filters,
 *    other spellings among them.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { osaDistance, withinOneEdit } from '../../src/search/edit-distance.ts';
import { generateContacts } from '../../src/demo/generate.ts';
import type { Contact } from '../../src/fields/contact.ts';
import { nicknamesOf } from '../../src/search/nicknames.ts';
import { readingSpellings } from '../../src/search/readings.ts';
import { wordTokens } from '../../src/search/tokenize.ts';
import { latinSpellings } from '../../src/search/transliterate.ts';
import { letterVariants } from '../../src/search/variants.ts';
import { fixture, type Fixture } from '../support/fixture.ts';
import { naive } from '../support/naive.ts';

const CONTACTS: Contact[] = [...generateContacts({ count: 400, seed: 7 })].flat();
let f: Fixture;
before(async () => {
  f = await fixture(CONTACTS);
});
after(async () => {
  await f.close();
});

/** Query words drawn from the data: prefixes of real name and city words. */
const word = fc
  .constantFrom(
    ...CONTACTS.flatMap(
      (c) =>
        [c.FirstName, c.LastName, c.City]
          .filter(Boolean)
          .map((s) => wordTokens(s!)[0]?.term)
          .filter(Boolean) as string[],
    ),
  )
  .chain((w) => fc.integer({ min: 1, max: w.length }).map((n) => w.slice(0, n)));

test('1. token order does not change the set', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(word, { minLength: 2, maxLength: 3 }), async (words) => {
      const a = (await f.ids({ Query: words.join(' ') })).sort();
      const b = (await f.ids({ Query: [...words].reverse().join(' ') })).sort();
      assert.deepEqual(a, b);
    }),
    { numRuns: 40 },
  );
});

test('2. After walks every match exactly once', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.option(word, { nil: undefined }),
      fc.integer({ min: 1, max: 40 }),
      fc.boolean(),
      async (q, pageSize, sortByCity) => {
        const base = {
          Query: q,
          ...(sortByCity ? { Sort: [{ Field: 'City', Dir: 'Desc' }] } : {}),
        };
        const all = await f.ids(base);
        const walked: string[] = [];
        let after: string | undefined;
        for (let i = 0; i < 1000; i++) {
          const page = await f.call('GetSearchResults', {
            ...base,
            PageSize: pageSize,
            ...(after ? { After: after } : {}),
          });
          walked.push(...page.Rows.map((r: { ContactId: string }) => r.ContactId));
          if (!page.Next) break;
          after = page.Next;
        }
        assert.deepEqual(walked, all);
      },
    ),
    { numRuns: 25 },
  );
});

test('3. facet counts equal filtered totals and never rise with a filter', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.option(word, { nil: undefined }),
      fc.constantFrom('Country', 'Tags'),
      fc.constantFrom('customer', 'vip', 'lead'),
      async (q, facet, tag) => {
        const base = await f.call('GetSearchResults', { Query: q, PageSize: 1, Facets: [facet] });
        for (const v of base.Facets[0].Values.slice(0, 5)) {
          const total = (
            await f.call('GetSearchResults', {
              Query: q,
              PageSize: 1,
              Filters: [{ Field: facet, Op: 'Eq', Values: [v.Value] }],
            })
          ).Total;
          assert.equal(v.Count, total, `${facet}=${v.Value}`);
        }
        const narrowed = await f.call('GetSearchResults', {
          Query: q,
          PageSize: 1,
          Facets: [facet],
          Filters: [
            { Field: 'Tags', Op: 'Eq', Values: [tag] },
            { Field: 'Country', Op: 'Ne', Values: ['US'] },
          ],
        });
        const before = new Map(
          base.Facets[0].Values.map((v: { Value: string; Count: number }) => [v.Value, v.Count]),
        );
        for (const v of narrowed.Facets[0].Values)
          assert.ok(v.Count <= (before.get(v.Value) ?? 0), `${v.Value} rose`);
      },
    ),
    { numRuns: 20 },
  );
});

test('4. the matcher agrees with a naive reference on exact (short-token) queries', async () => {
  const short = word.map((w) => w.slice(0, 4)); // under 5 letters: no typo tolerance, so exact semantics
  await fc.assert(
    fc.asyncProperty(fc.array(short, { minLength: 1, maxLength: 2 }), async (words) => {
      const got = new Set(await f.ids({ Query: words.join(' ') }));
      const want = new Set(CONTACTS.filter((c) => naive(c, words)).map((c) => c.ContactId));
      assert.deepEqual([...got].sort(), [...want].sort());
    }),
    { numRuns: 60 },
  );
});

/** The other spellings of the data's names, drawn as typed words (each cut to 1-4 characters below). */
const otherSpellings = [
  ...new Set(
    CONTACTS.flatMap((c) => [
      ...[c.FirstName, c.LastName]
        .filter(Boolean)
        .flatMap((s) => wordTokens(s!).map((t) => s!.slice(t.start, t.start + t.length)))
        .flatMap((w) => {
          const term = wordTokens(w)[0].term;
          return [
            ...letterVariants(w, term),
            ...latinSpellings(w, term),
            ...(nicknamesOf(term) ?? []),
          ];
        }),
      ...[c.PhoneticFirstName, c.PhoneticLastName]
        .filter(Boolean)
        .flatMap((r) => readingSpellings(r!)),
    ]),
  ),
];

/** One of those, cut to 1-4 characters. */
const spelled = fc
  .constantFrom(...otherSpellings)
  .chain((w) => fc.integer({ min: 1, max: Math.min(4, w.length) }).map((n) => w.slice(0, n)));

test("4b. the matcher agrees with the naive reference on the names' other spellings", async () => {
  assert.ok(otherSpellings.length > 100, `${otherSpellings.length} other spellings in the data`);
  const typed = fc.oneof(
    fc.array(spelled, { minLength: 1, maxLength: 2 }),
    fc.tuple(
      spelled,
      word.map((w) => w.slice(0, 4)),
    ),
  );
  await fc.assert(
    fc.asyncProperty(typed, async (words) => {
      const got = new Set(await f.ids({ Query: words.join(' ') }));
      const want = new Set(CONTACTS.filter((c) => naive(c, words)).map((c) => c.ContactId));
      assert.deepEqual([...got].sort(), [...want].sort(), words.join(' '));
    }),
    // "oly": Ольга's nickname Оля through its Latin spelling (olga → olya), which the reference missed.
    { numRuns: 80, examples: [[['oly']], [['olya']]] },
  );
});

test('5. withinOneEdit agrees with the naive distance', () => {
  const s = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 6 });
  fc.assert(
    fc.property(s, s, (a, b) => withinOneEdit(a, b) === osaDistance(a, b) <= 1),
    { numRuns: 2000 },
  );
});

test('6. a first page and Total agree with the fully ranked walk', async () => {
  const filters = fc.constantFrom(
    undefined,
    [{ Field: 'Country', Op: 'Ne', Values: ['US'] }],
    [{ Field: 'Tags', Op: 'Eq', Values: ['customer'] }],
  );
  // Also a word with its own prefix ("anna an"): both tokens may only meet one word, which is no match.
  const nested = fc.tuple(word, fc.integer({ min: 1, max: 3 })).map(([w, n]) => [w, w.slice(0, n)]);
  // And other spellings beside real words: the variant pass of the several-token walk.
  const queries = fc.oneof(
    fc.array(word, { minLength: 1, maxLength: 3 }),
    nested,
    fc.tuple(spelled, word),
    fc.tuple(word, spelled, fc.constantFrom('', 'a', 'e')).map((w) => w.filter(Boolean)),
  );
  await fc.assert(
    fc.asyncProperty(
      queries,
      filters,
      fc.integer({ min: 1, max: 9 }),
      async (words, Filters, PageSize) => {
        const base = { Query: words.join(' '), ...(Filters ? { Filters } : {}) };
        const walked: string[] = [];
        let after: string | undefined;
        for (let i = 0; i < 1000; i++) {
          const page = await f.call('GetSearchResults', {
            ...base,
            PageSize: 50,
            ...(after ? { After: after } : {}),
          });
          walked.push(...page.Rows.map((r: { ContactId: string }) => r.ContactId));
          if (!page.Next) break;
          after = page.Next;
        }
        const first = await f.call('GetSearchResults', { ...base, PageSize });
        assert.deepEqual(
          first.Rows.map((r: { ContactId: string }) => r.ContactId),
          walked.slice(0, PageSize),
        );
        assert.equal(first.Total, walked.length);
        const second = await f.call('GetSearchResults', { ...base, PageSize, Page: 2 });
        assert.deepEqual(
          second.Rows.map((r: { ContactId: string }) => r.ContactId),
          walked.slice(PageSize, 2 * PageSize),
        );
      },
    ),
    { numRuns: 60 },
  );
});
