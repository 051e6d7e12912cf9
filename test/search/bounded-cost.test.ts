/**
 * The cost of a search is bounded whatever the text (issue: one 26-character type-ahead exhausted the
 * heap). Properties, over adversarial texts — a token typed many times, prefix-nested tokens, many
 * one-letter tokens, up to the Text limit, with and without a token that matches nothing:
 * 1. The work done (MatchResult.steps, counted by the matcher, not timed) stays under a bound linear
 *    in the index — the postings plus a forward-index pass per contact — and independent of the text.
 * 2. The matches equal the naive reference (every typed token a prefix of a different word), the
 *    full search, the unranked match set and the type-ahead's first page all agree.
 * 3. Past the work cap a search is refused with PayloadTooLarge, never run to exhaustion.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ServiceError } from '../../src/errors.ts';
import { listedOrdinals } from '../../src/search/bits.ts';
import { matchBits, search } from '../../src/search/match.ts';
import { SearchIndex } from '../../src/search/search-index.ts';
import { queryTokens, wordTokens } from '../../src/search/tokenize.ts';
import { Work } from '../../src/search/work.ts';
import { generateContacts } from '../../src/demo/generate.ts';
import type { Contact } from '../../src/fields/contact.ts';
import { contact } from '../cases/store.case.ts';
import { naive } from '../support/naive.ts';

// Generated people, and a few whose words repeat and nest (the worst case for typed copies).
const CONTACTS: Contact[] = [
  ...[...generateContacts({ count: 400, seed: 7 })].flat(),
  contact('rep1', 'Anna', 'Anna', {
    Organization: 'Ann Anna Annabel',
    City: 'Annecy',
    Emails: ['anna.ann@an.example'],
    Tags: ['a', 'an', 'ann'],
  }),
  contact('rep2', 'Ann', 'Annette', {
    MiddleName: 'Anna',
    JobTitle: 'A A A Analyst',
    Street: 'a a a a a a a a a a',
  }),
  contact('rep3', 'Mia', 'Ma', {
    Organization: 'Ma Ma Mam',
    Street: 'm m m m m m m',
    City: 'Mamm',
  }),
];
const index = new SearchIndex();
index.build(CONTACTS);
const idOf = (ord: number) => index.view(ord).ContactId;

/** Work linear in the index: every posting a few times over, and every contact's forward index a few times over. */
let postings = 0;
for (let c = 0; c < 5; c++) {
  const [a, b] = index.postingSlice(c, 0, index.termCount);
  postings += b - a;
}
const BOUND = 8 * postings + 8 * index.ordinalCount * index.mostEntries();

const dataWords = [
  ...new Set(
    CONTACTS.flatMap(
      (c) =>
        [c.FirstName, c.LastName, c.City]
          .filter(Boolean)
          .map((s) => wordTokens(s!)[0]?.term)
          .filter(Boolean) as string[],
    ),
  ),
];
const short = (w: string) => w.slice(0, 4); // under 5 letters: no typo tolerance, so the naive reference's exact semantics
const repeated = fc
  .tuple(
    fc.constantFrom('a', 'an', 'ann', 'm', 'ma', 's', 'e', short(dataWords[0])),
    fc.integer({ min: 1, max: 128 }),
  )
  .map(([w, n]) => Array<string>(n).fill(w));
const nested = fc
  .constantFrom(...dataWords)
  .map((w) => Array.from({ length: Math.min(w.length, 4) }, (_, i) => w.slice(0, i + 1)));
const oneLetters = fc.array(fc.constantFrom(...'abcdeilmnorst'), { minLength: 1, maxLength: 60 });
const mixed = fc.array(
  fc.oneof(fc.constantFrom(...dataWords).map(short), fc.constantFrom('a', 'an', 'm')),
  { minLength: 2, maxLength: 24 },
);
const texts = fc
  .tuple(fc.oneof(repeated, nested, oneLetters, mixed), fc.boolean())
  .map(([words, miss]) => (miss ? [...words, 'xx'] : words).join(' ').slice(0, 256).trim());

test('1–2. bounded work, and the matches of the naive reference, for adversarial texts', () => {
  fc.assert(
    fc.property(texts, (text) => {
      const typed = queryTokens(text).map((q) => q.term);
      const want = CONTACTS.filter((c) => naive(c, typed))
        .map((c) => c.ContactId)
        .sort();
      const full = search(index, text);
      const page = search(index, text, undefined, 10);
      const set = matchBits(index, text);
      for (const [what, steps] of [
        ['search', full.steps],
        ['type-ahead', page.steps],
        ['match set', set.steps],
      ] as const) {
        assert.ok(
          steps <= BOUND,
          `${what} of ${JSON.stringify(text)}: ${steps} steps, bound ${BOUND}`,
        );
      }
      assert.deepEqual(full.hits.map((h) => idOf(h.ord)).sort(), want, 'search');
      assert.deepEqual(listedOrdinals(set.set).map(idOf).sort(), want, 'match set');
      assert.deepEqual(
        page.hits.map((h) => h.ord),
        full.hits.slice(0, 10).map((h) => h.ord),
        'type-ahead = the first page of the full ranking',
      );
    }),
    { numRuns: 150 },
  );
});

test('1. the request that exhausted the heap: twelve copies of "a" and a token that matches nothing', () => {
  for (const text of [
    'a a a a a a a a a a a a xx',
    Array(128).fill('a').join(' '),
    Array(40).fill('a').join(' '),
  ]) {
    const full = search(index, text),
      page = search(index, text, undefined, 10),
      set = matchBits(index, text);
    assert.equal(full.hits.length, 0, text);
    assert.equal(page.hits.length, 0, text);
    assert.equal(set.set.count, 0, text);
    for (const steps of [full.steps, page.steps, set.steps])
      assert.ok(steps <= BOUND, `${text}: ${steps}`);
  }
  // Copies of a token need contact tokens of their own: "a a a" is Street "a a a a a a a a a a" of rep2, among others.
  assert.ok(search(index, 'a a a a a a a a a a').hits.some((h) => idOf(h.ord) === 'rep2'));
});

test('3. over the work cap: PayloadTooLarge, not exhaustion', () => {
  const work = new Work(index.ordinalCount, undefined, 1000);
  assert.throws(
    () => work.spend(1001),
    (e: unknown) => e instanceof ServiceError && e.code === 'PayloadTooLarge',
  );
  // A real search over a tiny cap is refused the same way (the matcher spends through Work).
  const tiny = new Work(0, undefined, 10);
  assert.throws(
    () => tiny.spend(index.ordinalCount),
    (e: unknown) => e instanceof ServiceError && e.code === 'PayloadTooLarge',
  );
});
