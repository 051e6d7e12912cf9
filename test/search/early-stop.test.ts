/**
 * The plan that stops early (type-ahead) against a naive reference. Properties checked:
 * 1. The full search equals the naive ranking: every live contact's best assignment, sorted by rank, then DisplayName key, then ContactId.
 * 2. With a limit, the first `limit` hits equal the first `limit` of the naive ranking, for any prefix, limit and filter,
 *    with the dense-bucket scan and each multi-token plan (bucket combinations, intersect and score) forced on,
 *    and with the filter's admitted ordinals given as a list, each bucket (or combination's smallest) read through them,
 *    and with the combinations' other buckets tested by marked bits (every bucket, up to 32 a query) or by the forward index only.
 * 3. Both stay true after writes (delta segment, tombstones) and after the rebuild the delta triggers.
 * 2b. Also with every bucket answered from the heads the build made (short word and phone prefixes).
 * 2c. Also with every big multi-token driver read from its head first (query/top-multi.ts), of any size.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { contactEntries } from '../../src/search/contact-tokens.ts';
import { listedOrdinals } from '../../src/search/bits.ts';
import { bestAssignment, matchBits, search, TUNING } from '../../src/search/match.ts';
import { KEPT_MARKS } from '../../src/search/query/kept-marks.ts';
import { compareRank } from '../../src/search/rank/rules.ts';
import { SearchIndex } from '../../src/search/search-index.ts';
import { queryTokens } from '../../src/search/tokenize.ts';
import { generateContacts } from '../../src/demo/generate.ts';
import { contact } from '../cases/store.case.ts';

const index = new SearchIndex();
const contacts = [...generateContacts({ count: 3000, seed: 11 })].flat();
index.build(contacts);

const text = fc.oneof(
  fc.constantFrom(
    ...'abcdefghijklmnoprstuvwzäöüłćs'.split(''),
    'ma',
    'sc',
    'jo',
    'le',
    'an',
    'st',
    'gmb',
    'mar',
    'ann',
    '+1',
    '+49 3',
    '555',
    '12',
    'j s',
    'a m',
    'mar an',
    'schmidt',
    'schmdit',
    'muller',
    'anna s',
    'gmail',
    '@',
    'info@',
    'customer vip',
    '山',
    '0101',
    'com',
    'user.1',
    'a b c',
    'ma s 1',
    'schmdit a',
    'anna mulle',
    // Variant spellings (ä/ae …): the variant tier between exact and typo.
    'mueller',
    'mue',
    'muel',
    'schroeder',
    'koenig',
    'juergen m',
    'e e',
    'gmail com',
    // Apostrophes (O'Hara, D'Amore, d'Orsel in the data): the joined word, its part, both.
    "o'h",
    'oh',
    "d'a",
    'amo',
    'd amore',
    'ore',
    "o'reilly",
    'reil o',
    'orsel',
  ),
  fc.constantFrom(...contacts.slice(0, 200).map((c) => c.DisplayName)).map((s) => s.slice(0, 7)),
);

/** The naive ranking of `q` on `idx` (this file's index unless said): every live contact's best assignment, sorted. */
function naiveOn(
  idx: SearchIndex,
  q: string,
  within?: (ord: number) => boolean,
): [number, string][] {
  const query = queryTokens(q);
  const hits: { ord: number; rank: readonly number[] }[] = [];
  for (const ord of idx.ordinals()) {
    if (within && !within(ord)) continue;
    const b = bestAssignment(query, contactEntries(idx.doc(ord)!));
    if (b) hits.push({ ord, rank: b.rank });
  }
  hits.sort(
    (a, b) => compareRank(a.rank, b.rank) || (idx.sortKey(a.ord) < idx.sortKey(b.ord) ? -1 : 1),
  );
  return hits.map((h) => [h.ord, h.rank.join()]);
}

const naive = (q: string, within?: (ord: number) => boolean) => naiveOn(index, q, within);

const got = (q: string, limit?: number, within?: (ord: number) => boolean, among?: number[]) =>
  search(index, q, within, limit, among && { count: among.length, list: () => among }).hits.map(
    (h) => [h.ord, h.rank.join()] as [number, string],
  );

function check(q: string, limit: number, within?: (ord: number) => boolean) {
  const ref = naive(q, within);
  assert.deepEqual(got(q, undefined, within), ref, `full "${q}"`);
  assert.deepEqual(got(q, limit, within), ref.slice(0, limit), `"${q}" limit ${limit}`);
  // The same with the admitted ordinals given as a list (GetSearchResults' filtered selections).
  if (within)
    assert.deepEqual(
      got(q, limit, within, index.ordinals().filter(within)),
      ref.slice(0, limit),
      `"${q}" limit ${limit}, among`,
    );
}

const country = fc.option(fc.constantFrom('US', 'DE', 'JP'), { nil: undefined });
const within = (c: string | undefined) =>
  c ? (ord: number) => index.doc(ord)?.Country === c : undefined;

test('1–2. equals the naive ranking, full and cut, with default thresholds', () => {
  fc.assert(
    fc.property(text, fc.integer({ min: 1, max: 51 }), country, (q, limit, c) =>
      check(q, limit, within(c)),
    ),
    { numRuns: 60 },
  );
});

/** Runs `work` with some thresholds lowered, restoring them after. */
function withTuning(lowered: Partial<typeof TUNING>, work: () => void): void {
  const saved = { ...TUNING };
  Object.assign(TUNING, lowered);
  try {
    work();
  } finally {
    Object.assign(TUNING, saved);
  }
}

for (const maxCombos of [TUNING.maxCombos, 0]) {
  test(`2. equals the naive ranking with the dense paths forced (${maxCombos ? 'bucket combinations' : 'intersect and score'} for several tokens)`, () => {
    withTuning({ dense: 50, multiCap: 50, maxCombos }, () => {
      fc.assert(
        fc.property(text, fc.integer({ min: 1, max: 51 }), country, (q, limit, c) =>
          check(q, limit, within(c)),
        ),
        { numRuns: 60 },
      );
    });
  });
}

test('2. equals the naive ranking with every one-token bucket and multi-token combination read through the admitted ordinals', () => {
  withTuning({ amongFactor: 0 }, () => {
    for (const q of [
      'j s',
      'a m',
      'mar an',
      'user.1',
      'ma s 1',
      'anna s',
      'e e',
      'gmail com',
      'schmdit a',
      'd amore',
      '山 田',
    ])
      for (const c of ['US', 'DE', 'JP'])
        for (const limit of [1, 3, 10, 50]) check(q, limit, within(c));
    fc.assert(
      fc.property(
        text,
        fc.integer({ min: 1, max: 51 }),
        fc.constantFrom('US', 'DE', 'JP'),
        (q, limit, c) => check(q, limit, within(c)),
      ),
      { numRuns: 60 },
    );
  });
});

test('2. equals the naive ranking with every multi-token combination read in ordinal order, stopping early', () => {
  withTuning({ orderedDriver: 0 }, () => {
    for (const q of [
      'j s',
      'a m',
      'mar an',
      'user.1',
      'ma s 1',
      'anna s',
      'e e',
      'gmail com',
      'a b c',
      'schmdit a',
      'd amore',
    ])
      for (const limit of [1, 2, 3, 10, 50]) check(q, limit);
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 51 }), country, (q, limit, c) =>
        check(q, limit, within(c)),
      ),
      { numRuns: 80 },
    );
  });
});

test('2. equals the naive ranking with every big multi-token driver read from its head first (settled there, or read whole after)', () => {
  for (const driverHead of [1, 4, 16, 64, 512])
    withTuning({ orderedDriver: 0, headMin: 0, driverHead }, () => {
      for (const q of ['j s', 'a m', 'mar an', 'ma s 1', 'anna s', 'e e', 'a b c', 'schmdit a'])
        for (const limit of [1, 2, 3, 10, 50]) check(q, limit);
      fc.assert(
        fc.property(text, fc.integer({ min: 1, max: 51 }), (q, limit) => check(q, limit)),
        { numRuns: 30 },
      );
    });
});

for (const markRatio of [Infinity, 0]) {
  test(`2. equals the naive ranking with ${markRatio ? 'every bucket a combination tests marked (the first 32)' : 'no bucket marked'}`, () => {
    const many = [
      'j s',
      'a m',
      'mar an',
      'user.1',
      'ma s 1',
      'anna s',
      'e e',
      'gmail com',
      'a b c',
      'schmdit a',
      'd amore',
      'a b c d e',
      'm a s t e r',
    ];
    for (const lowered of [
      { markRatio },
      { markRatio, orderedDriver: 0 },
      { markRatio, amongFactor: 0 },
    ]) {
      withTuning(lowered, () => {
        for (const q of many) {
          check(q, 10);
          check(q, 3, within('DE'));
        }
        fc.assert(
          fc.property(text, fc.integer({ min: 1, max: 51 }), country, (q, limit, c) =>
            check(q, limit, within(c)),
          ),
          { numRuns: 15 },
        );
      });
    }
  });
}

test('2. marked bits answer as the forward index does: the same contacts are scored, query after query', () => {
  // Membership only prunes (a contact let through is scored exactly), so the ranking alone cannot
  // tell a wrong bit: the number of contacts scored can. Several queries in a row: a mark left behind shows.
  const queries = [
    'j s',
    'mar an',
    'user.1',
    'ma s 1',
    'anna s',
    'e e',
    'gmail com',
    'a b c',
    'schmdit a',
    'anna mulle',
    // Variant spellings (ä/ae …): the variant tier between exact and typo.
    'mueller',
    'mue',
    'muel',
    'schroeder',
    'koenig',
    'juergen m',
    'd amore',
  ];
  const scored = (markRatio: number, tuned: Partial<typeof TUNING>): string[] => {
    const out: string[] = [];
    withTuning({ ...tuned, markRatio }, () => {
      for (const q of queries) {
        for (const c of [undefined, 'DE']) {
          const w = within(c),
            among = w && index.ordinals().filter(w);
          const r = search(index, q, w, 10, among && { count: among.length, list: () => among });
          out.push(`${q}/${c}: ${r.candidates} scored, ${r.hits.map((h) => h.ord).join()}`);
        }
      }
    });
    return out;
  };
  for (const tuned of [{}, { orderedDriver: 0 }, { amongFactor: 0 }]) {
    const forward = scored(0, tuned);
    assert.equal(forward.length, queries.length * 2);
    assert.deepEqual(scored(Infinity, tuned), forward, JSON.stringify(tuned));
  }
});

/** withTuning with KEPT_MARKS set too. */
function withKept(
  kept: typeof KEPT_MARKS,
  lowered: Partial<typeof TUNING>,
  work: () => void,
): void {
  const saved = { ...KEPT_MARKS };
  Object.assign(KEPT_MARKS, kept);
  try {
    withTuning(lowered, work);
  } finally {
    Object.assign(KEPT_MARKS, saved);
  }
}

test('2. marked buckets kept from query to query (kept-marks.ts), however few are kept: the naive ranking, and the contacts the forward index scores', () => {
  // Every marked bucket kept (keptMarksMin 0), and so few kept that queries reuse (zero and re-mark)
  // each other's bitmaps. A bit left behind only lets a contact through to be scored exactly, so the
  // ranking cannot show it; the number of contacts scored can (as in the test above).
  const many = [
    'j s',
    'a m',
    'mar an',
    'ma s 1',
    'anna s',
    'e e',
    'a b c',
    'schmdit a',
    'a b c d e',
  ];
  const scored = (tuned: Partial<typeof TUNING>, kept: typeof KEPT_MARKS): string[] => {
    const out: string[] = [];
    withKept(kept, tuned, () => {
      for (let round = 0; round < 2; round++)
        for (const q of many)
          for (const c of [undefined, 'DE']) {
            const r = search(index, q, within(c), 10);
            out.push(`${q}/${c}: ${r.candidates} scored, ${r.hits.map((h) => h.ord).join()}`);
          }
    });
    return out;
  };
  for (const tuned of [{}, { orderedDriver: 0 }]) {
    const forward = scored({ ...tuned, markRatio: 0 }, { min: 0, most: 0 });
    for (const most of [2, 3, 128]) {
      const kept = { min: 0, most };
      const marking = { ...tuned, markRatio: Infinity };
      assert.deepEqual(scored(marking, kept), forward, JSON.stringify({ marking, kept }));
      withKept(kept, marking, () => {
        for (const q of many) check(q, 10);
        fc.assert(
          fc.property(text, fc.integer({ min: 1, max: 51 }), country, (q, limit, c) =>
            check(q, limit, within(c)),
          ),
          { numRuns: 10 },
        );
      });
    }
  }
});

test('2. equals the naive ranking with every bucket answered from its kept head (a short one: the full pass when it runs out)', () => {
  withTuning({ headMin: 0, headSize: 3 }, () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 51 }), (q, limit) => {
        check(q, limit);
        check(q, limit);
      }),
      { numRuns: 60 },
    );
  });
});

test('2b. equals the naive ranking with the heads the build made for short prefixes', () => {
  try {
    withTuning({ headMin: 0, headSize: 3 }, () => {
      index.build(contacts); // the build reads TUNING: every 1–2 letter and 1–4 digit prefix gets a head of 3
      assert.ok(index.base.heads.size > 100, `${index.base.heads.size} heads made`);
      for (const q of [
        'a',
        'm',
        'ma',
        'sc',
        'st',
        'ä',
        'ł',
        '山',
        '1',
        '12',
        '+1',
        '+3',
        '+49 3',
        '+1 (5',
        '030',
        '555',
        'j s',
        'a m',
      ])
        for (const limit of [1, 2, 3, 4, 10]) check(q, limit);
      fc.assert(
        fc.property(text, fc.integer({ min: 1, max: 51 }), (q, limit) => check(q, limit)),
        { numRuns: 40 },
      );
    });
  } finally {
    index.build(contacts); // the same ordinals, heads of the default size
  }
});

test('3. after writes, and after the rebuild they trigger', () => {
  index.put(contact('aaa-new', 'Aaron', 'Aardvark', { Emails: ['aa@x.org'] }));
  index.remove(contacts[5].ContactId);
  index.put({ ...contacts[7], LastName: 'Abbott', DisplayName: `${contacts[7].FirstName} Abbott` });
  for (const q of ['a', 'aa', 'ab', 's', 'm', 'aar', 'aardvark', 'abbott'])
    for (const limit of [1, 10, 50]) check(q, limit);
  let removed = 0;
  // Kept heads now hold tombstoned ordinals: skipped, or the full pass when too many.
  withTuning({ headMin: 0 }, () => {
    // The first ordinals head every bucket they are in: delete some, then ask for their names' prefixes.
    const first = [0, 1, 2, 3].map((o) => index.doc(o)).filter((c) => c !== undefined);
    const prefixes = first.flatMap((c) => [c!.DisplayName.slice(0, 1), c!.DisplayName.slice(0, 2)]);
    for (const size of [1, 3, 64]) {
      TUNING.headSize = size;
      for (const q of [...prefixes, 'a', 'aa', 'ab', 's', 'm', 'aar', 'aardvark', 'abbott'])
        for (const limit of [1, 10, 50]) check(q, limit);
    }
    for (const c of first) index.remove(c!.ContactId);
    removed = first.length;
    for (const size of [1, 3, 64]) {
      TUNING.headSize = size;
      for (const q of prefixes) for (const limit of [1, 10, 50]) check(q, limit);
    }
  });
  assert.equal(search(index, 'aar', undefined, 1).hits[0].ord, index.ordinalOf('aaa-new'));
  assert.equal(index.get(contacts[5].ContactId), undefined);
  const before = index.baseSize;
  index.apply(
    [],
    Array.from({ length: 2100 }, (_, i) => contact(`bulk-${i}`, 'Bulk', `Person${i}`, {})),
  );
  assert.notEqual(index.baseSize, before, 'a big delta is folded into a rebuilt base');
  assert.equal(index.size, contacts.length + 1 + 2100 - 1 - removed);
  for (const q of ['a', 'bulk', 'person1', 'aardvark'])
    for (const limit of [1, 10]) check(q, limit);
});

test('bucket combinations: a contact met through one shared word does not settle the search early', () => {
  // "an an": Anna is in the first combination (name, name) through her one "an…" name word, but her
  // best is name + city (class 0 + 4); Xu Yi's organisation words (class 1 + 1) rank higher, and only
  // a later combination reaches them. Stopping once Limit hits exist would answer Anna.
  const small = new SearchIndex();
  small.build([
    contact('1', 'Anna', 'Smith', { Emails: ['s@y.org'], City: 'Andorra' }),
    contact('2', 'Xu', 'Yi', { Emails: ['x@y.org'], Organization: 'Andes Anthem' }),
  ]);
  const ids = (limit: number) =>
    search(small, 'an an', undefined, limit).hits.map((h) => small.doc(h.ord)!.ContactId);
  assert.deepEqual(ids(1), ['2']);
  assert.deepEqual(ids(2), ['2', '1']);
});

test('bucket combinations: a combination read out of ordinal order scores only contacts that can still enter the top', () => {
  // "user.2": 300 addresses user.2NNN among 400 user.…, names in another order than the numbers, so the
  // combination's smallest bucket (the "2…" words of the addresses, one term each) is read out of ordinal order.
  // Every one of them ties on rank: once Limit hits are in, a later one with a higher ordinal cannot
  // enter the top and is not scored.
  const small = new SearchIndex();
  small.build(
    Array.from({ length: 400 }, (_, i) =>
      contact(`u${i}`, `Name${String((i * 7919) % 400).padStart(3, '0')}`, 'Doe', {
        Emails: [`user.${i < 300 ? 2 : 9}${String(i).padStart(3, '0')}@example.org`],
        Phones: [],
        Tags: [],
      }),
    ),
  );
  const byName = (ords: number[]) => ords.map((o) => small.doc(o)!.DisplayName);
  const all = search(small, 'user.2', undefined, undefined).hits.map((h) => h.ord);
  assert.equal(all.length, 300);
  const r = search(small, 'user.2', undefined, 3);
  assert.deepEqual(byName(r.hits.map((h) => h.ord)), byName(all.slice(0, 3)));
  assert.ok(r.candidates < 60, `${r.candidates} of 300 scored`);
});

/** Typed words and a prefix of the same word, or two words of one first letter: "jac ja", "ric ric", "an anna". */
const sameLetters = fc
  .oneof(
    fc
      .tuple(text, fc.integer({ min: 1, max: 4 }), fc.boolean())
      .filter(([w]) => /^[^\s]/.test(w))
      .map(([w, n, first]) => {
        const word = w.split(' ')[0];
        const short = word.slice(0, n);
        return first ? `${word} ${short}` : `${short} ${word}`;
      }),
    fc.constantFrom(...contacts.slice(0, 300).map((c) => c.FirstName ?? '')).map((w) => {
      const p = w.toLowerCase().slice(0, 3);
      return `${p} ${p}`;
    }),
    fc.constantFrom(...contacts.slice(0, 300).map((c) => c.DisplayName)).map((d) =>
      d
        .split(' ')
        .map((x) => x.slice(0, 2))
        .join(' '),
    ),
  )
  // Two words, each of at least one letter (a company has no first name).
  .filter((q) => /^\S+ \S+$/.test(q));

test('2. same-letter pairs (one word may meet both typed tokens) equal the naive ranking, with Limit, on every path', () => {
  for (const lowered of [
    {},
    { orderedDriver: 0 },
    { orderedDriver: 0, headMin: 0, driverHead: 4 },
    { markRatio: Infinity },
    { markRatio: 0 },
    { dense: 50, multiCap: 50 },
  ])
    withTuning(lowered, () => {
      for (const q of ['jac ja', 'ja jac', 'ric ric', 'an anna', 'ma ma', 'a a', 'mar m', 'm ma'])
        for (const limit of [1, 3, 10]) check(q, limit);
      fc.assert(
        fc.property(sameLetters, fc.integer({ min: 1, max: 21 }), country, (q, limit, c) =>
          check(q, limit, within(c)),
        ),
        { numRuns: 40 },
      );
    });
});

test('2. 1–2 character prefixes, alone and as the heads of two-token queries, equal the naive ranking with Limit', () => {
  const letters = 'abcdefghijklmnoprstuvwzäöüłść';
  const short = fc.oneof(
    fc.constantFrom(...letters.split('')),
    fc
      .tuple(fc.constantFrom(...letters.split('')), fc.constantFrom(...'aeiourn'.split('')))
      .map(([a, b]) => a + b),
  );
  const queries = fc.oneof(
    short,
    fc.tuple(short, short).map(([a, b]) => `${a} ${b}`),
    fc
      .tuple(short, fc.constantFrom(...contacts.slice(0, 300).map((c) => c.LastName ?? 'x')))
      .map(([a, l]) => `${a} ${l.slice(0, 4)}`),
  );
  fc.assert(
    fc.property(queries, fc.integer({ min: 1, max: 21 }), country, (q, limit, c) =>
      check(q, limit, within(c)),
    ),
    { numRuns: 80 },
  );
});

test('bucket combinations: two buckets of one class met by one word only are not scored', () => {
  // "jac ja": every Jacabo is in (prefix, name) × (prefix, name) through his one "jac…" name word,
  // and first in ordinal order; only the three after them hold a second "ja…" name word. A Jacabo's
  // best match is elsewhere (his address: a later combination), so the three rank first; the 300
  // Jacabos are told apart from the forward index without being scored.
  const small = new SearchIndex();
  small.build([
    ...Array.from({ length: 300 }, (_, i) =>
      contact(`s${i}`, 'Jacabo', `Smith${String(i).padStart(3, '0')}`, {
        Emails: [`jacabo${i}@y.org`],
      }),
    ),
    contact('j1', 'Jacob', 'Jackson', { Emails: ['x@y.org'] }),
    contact('j2', 'Jack', 'Jameson', { Emails: ['x@y.org'] }),
    // One word twice (two sources, one term) and a word meeting both tokens once.
    contact('j3', 'Jacky', 'Jacky', { Emails: ['x@y.org'] }),
    contact('j4', 'Jacqueline', 'Ost', { Emails: ['jacqueline@y.org'] }),
  ]);
  for (const q of ['jac ja', 'ja jac', 'jac jac', 'jacky jac'])
    for (const limit of [1, 2, 3, 5, 20])
      assert.deepEqual(
        search(small, q, undefined, limit).hits.map((h) => [h.ord, h.rank.join()]),
        naiveOn(small, q).slice(0, limit),
        `${q} limit ${limit}`,
      );
  const r = search(small, 'jac ja', undefined, 3);
  assert.deepEqual(
    r.hits.map((h) => small.doc(h.ord)!.ContactId),
    ['j2', 'j3', 'j1'], // by DisplayName: Jack Jameson, Jacky Jacky, Jacob Jackson
  );
  assert.ok(r.candidates < 30, `${r.candidates} of 304 scored`);
  assert.equal(naiveOn(small, 'jac ja').length, 304);
});

test("4. the unranked match set is the full search's set", () => {
  const same = (idx: SearchIndex, q: string, w?: (ord: number) => boolean) => {
    const set = listedOrdinals(matchBits(idx, q, w).set);
    assert.deepEqual(
      set,
      search(idx, q, w)
        .hits.map((h) => h.ord)
        .sort((a, b) => a - b),
      q,
    );
  };
  fc.assert(
    fc.property(text, country, (q, c) => same(index, q, within(c))),
    { numRuns: 80 },
  );
  // Tokens that can only meet the same word: a prefix and its word, a word twice.
  const small = new SearchIndex();
  small.build([
    contact('1', 'Anna', 'Lee', { Emails: ['x@y.org'] }),
    contact('2', 'Anna', 'Andersen', { Emails: ['z@y.org'] }),
  ]);
  for (const q of ['an anna', 'anna an', 'an an', 'lee le', 'ann anna lee', 'a a a'])
    same(small, q);
  assert.deepEqual(
    listedOrdinals(matchBits(small, 'an anna').set).map((o) => small.doc(o)!.ContactId),
    ['2'],
  );
});
