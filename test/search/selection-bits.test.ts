/**
 * Selections as bitmaps (src/search/bits.ts, src/search/select/filter-bits.ts, facets' row masks).
 * Properties checked:
 * 1. The bitmap helpers agree with a plain Set on random sets, word edges and the sign bit included.
 * 2. Results, Total and disjunctive facet counts agree with a naive evaluation of the contacts, the
 *    first time a filter is asked (tested over the query's matches), once it is kept (tested over the
 *    whole table), after writes append, replace and delete rows behind a kept filter, and as the Tags
 *    dictionary outgrows each width of the facets' per-row codes.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  andWords,
  bitsFor,
  bitsToOrdinals,
  countBits,
  intact,
  listedOrdinals,
  Marks,
  setBit,
  withDense,
  wordList,
  type WordList,
} from '../../src/search/bits.ts';
import type { Contact } from '../../src/fields/contact.ts';
import { contact, fixture, type Fixture } from '../support/fixture.ts';

/** A small deterministic generator (tests must not flake). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
}

/** Every ordinal of `words` bitmap words, in arrays of its own (not the ring's: the tests hand the ring out round). */
const everyOrdinal = (words: number): WordList => ({
  at: Int32Array.from({ length: words }, (_, i) => i),
  w: new Int32Array(words).fill(-1),
  count: words * 32,
});

/** A bitmap of `words` random words, each left empty with probability 1 − `density`. */
function randomBits(next: () => number, words: number, density = 1): Uint32Array {
  const d = bitsFor(words * 32);
  for (let i = 0; i < d.length; i++)
    if (density >= 1 || next() < density) d[i] = (next() * 0x100000000) | 0;
  return d;
}

test('1. bitmap helpers agree with a Set', () => {
  const next = rng(7);
  for (const n of [1, 31, 32, 33, 64, 1000, 4099]) {
    for (const density of [0, 0.01, 0.3, 1]) {
      const a = new Set<number>(),
        b = new Set<number>(),
        live = new Set<number>();
      const da = bitsFor(n),
        db = bitsFor(n),
        dl = bitsFor(n),
        marks = new Marks(n);
      for (let i = 0; i < n; i++) {
        if (next() < density || i === 31 || i === n - 1) {
          a.add(i);
          setBit(da, i);
          marks.add(i);
        }
        if (next() < 0.5) {
          b.add(i);
          setBit(db, i);
        }
        if (next() < 0.9) {
          live.add(i);
          setBit(dl, i);
        }
      }
      const sorted = (s: Set<number>) => [...s].sort((x, y) => x - y);
      assert.deepEqual(bitsToOrdinals(da), sorted(a), `bitsToOrdinals n=${n}`);
      assert.equal(countBits(da), a.size);
      const wa = wordList(da);
      assert.equal(wa.count, a.size);
      assert.deepEqual(listedOrdinals(wa), sorted(a));
      const aLive = new Set([...a].filter((x) => live.has(x)));
      const listed = marks.list(dl);
      assert.deepEqual(listedOrdinals(listed), sorted(aLive), `Marks.list n=${n}`);
      assert.equal(listed.count, aLive.size);
      assert.equal(andWords(wa, []), wa);
      assert.deepEqual(
        listedOrdinals(andWords(wa, [db.subarray(0, db.length >>> 1)])),
        sorted(a).filter((x) => b.has(x) && x >>> 5 < db.length >>> 1),
        `andWords with a shorter bitmap n=${n}`,
      );
      const ab = andWords(wa, [db, dl]);
      const want = sorted(new Set([...a].filter((x) => b.has(x) && live.has(x))));
      assert.deepEqual(listedOrdinals(ab), want, `andWords n=${n}`);
      assert.equal(ab.count, want.length);
      const scratch = bitsFor(n);
      assert.deepEqual(
        withDense(ab, scratch, (d) => bitsToOrdinals(d)),
        want,
        `withDense n=${n}`,
      );
      assert.equal(countBits(scratch), 0, `withDense leaves its scratch empty n=${n}`);
      // A cleared Marks is empty and serves again (the per-index scratch of matchBits).
      marks.clear();
      assert.equal(countBits(marks.bits) + countBits(marks.touched), 0, `Marks.clear n=${n}`);
      for (const x of b) marks.add(x);
      assert.deepEqual(
        listedOrdinals(marks.list(dl)),
        sorted(new Set([...b].filter((x) => live.has(x)))),
        `Marks reused n=${n}`,
      );
      assert.deepEqual(
        listedOrdinals(andWords(wa, [db, dl, da])),
        want,
        `andWords with three bitmaps n=${n}`,
      );
    }
  }
});

test('3. a word list taken from the ring holds its words while it says it is intact', () => {
  const next = rng(11);
  const all = everyOrdinal(64);
  const kept: { list: WordList; at: number[]; w: number[] }[] = [];
  let dropped = 0;
  for (let round = 0; round < 400; round++) {
    const list = andWords(all, [randomBits(next, 64, 0.6)]); // up to a bitmap's words, taken from the ring
    kept.push({ list, at: [...list.at], w: [...list.w] });
    for (const k of kept) {
      if (!intact(k.list)) continue;
      assert.deepEqual([...k.list.at], k.at, `round ${round}: an intact list's words moved`);
      assert.deepEqual([...k.list.w], k.w, `round ${round}: an intact list's bits changed`);
    }
    dropped = kept.filter((k) => !intact(k.list)).length;
  }
  assert.ok(dropped > 300, `the ring came round: ${dropped} of 400 lists no longer intact`);
  assert.ok(intact(kept[kept.length - 1].list), 'the newest list is intact');
});

const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'SE'];
const TAGS = ['vip', 'lead', 'partner', 'press'];
const NAMES = ['Anna', 'Andre', 'Bert', 'Carla', 'Dora'];

function person(i: number): Contact {
  const next = rng(i + 1);
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  const tags = [pick(TAGS), pick(TAGS)]; // a value listed twice counts once
  return contact(`c${String(i).padStart(4, '0')}`, pick(NAMES), `Family${i % 9}`, {
    Country: pick(COUNTRIES),
    Tags: next() < 0.2 ? [] : tags,
    CreatedAt: `${2020 + Math.floor(next() * 5)}-0${1 + Math.floor(next() * 9)}-15T00:00:00.000Z`,
  });
}

let f: Fixture;
let people: Contact[];
before(async () => {
  people = Array.from({ length: 400 }, (_, i) => person(i));
  f = await fixture(people);
});
after(async () => {
  await f.close();
});

type Doc = {
  Total: number;
  Rows: { ContactId: string }[];
  Facets: { Field: string; Values: { Value: string; Count: number }[] }[];
};

/** What GetSearchResults must answer, worked out from the contacts themselves. */
function expected(
  contacts: Contact[],
  inQuery: Set<string> | undefined,
  countries: string[],
  since: string,
) {
  const byCountry = (c: Contact) => countries.includes(c.Country ?? '');
  const bySince = (c: Contact) => (c.CreatedAt ?? '') >= since;
  const base = contacts.filter((c) => !inQuery || inQuery.has(c.ContactId));
  const counts = (cs: Contact[], values: (c: Contact) => string[]) => {
    const m = new Map<string, number>();
    for (const c of cs) for (const v of new Set(values(c))) m.set(v, (m.get(v) ?? 0) + 1);
    return Object.fromEntries([...m].sort());
  };
  return {
    ids: base
      .filter((c) => byCountry(c) && bySince(c))
      .map((c) => c.ContactId)
      .sort(),
    country: counts(base.filter(bySince), (c) => (c.Country ? [c.Country] : [])),
    tags: counts(
      base.filter((c) => byCountry(c) && bySince(c)),
      (c) => c.Tags ?? [],
    ),
  };
}

async function check(
  label: string,
  query: string | undefined,
  countries: string[],
  since: string,
): Promise<void> {
  const params = {
    ...(query ? { Query: query } : {}),
    Facets: ['Country', 'Tags'],
    Filters: [
      { Field: 'Country', Op: 'In', Values: countries },
      { Field: 'CreatedAt', Op: 'Gte', Values: [since] },
    ],
  };
  const inQuery = query ? new Set(await f.ids({ Query: query })) : undefined;
  const want = expected(people, inQuery, countries, since);
  // Three times: the first asks the filters over the query's matches, later ones over kept whole-table sets.
  for (let round = 0; round < 3; round++) {
    const doc: Doc = await f.call('GetSearchResults', { ...params, PageSize: 500 - round });
    const facet = (name: string) =>
      Object.fromEntries(
        doc.Facets.find((x) => x.Field === name)!
          .Values.map((v) => [v.Value, v.Count])
          .sort(),
      );
    assert.deepEqual(
      doc.Rows.map((r) => r.ContactId).sort(),
      want.ids,
      `${label} rows, round ${round}`,
    );
    assert.equal(doc.Total, want.ids.length, `${label} Total, round ${round}`);
    assert.deepEqual(facet('Country'), want.country, `${label} Country counts, round ${round}`);
    assert.deepEqual(facet('Tags'), want.tags, `${label} Tags counts, round ${round}`);
    // Rewriting a contact as it is makes a new index version, so the next round evaluates afresh.
    const version = f.db.index.version;
    await f.db.write({ upsert: [people[0]] });
    assert.ok(f.db.index.version > version, 'the write made a new index version');
  }
}

test('2. results and facets agree with the contacts, before and after writes behind kept filters', async () => {
  assert.ok(
    people.some((c) => c.Tags.length === 2 && c.Tags[0] === c.Tags[1]),
    'the data lists a tag twice somewhere',
  );
  await check('no query', undefined, ['US', 'DE'], '2022-01-01');
  await check('query "an"', 'an', ['US', 'DE'], '2022-01-01');
  await check('query "family3"', 'family3', ['FR'], '2021-06-01');

  // Writes behind the kept sets: new rows appended, a row replaced (its Country changes), a row deleted.
  const added = Array.from({ length: 50 }, (_, i) => person(1000 + i));
  const changed = {
    ...people[3],
    Country: people[3].Country === 'US' ? 'SE' : 'US',
    Tags: ['press', 'press'],
  };
  const gone = people[5];
  await f.db.write({ upsert: [...added, changed] });
  await f.db.write({ delete: [gone.ContactId] });
  people = [...people.filter((c) => c !== people[3] && c !== gone), ...added, changed];

  await check('no query, after writes', undefined, ['US', 'DE'], '2022-01-01');
  await check('query "an", after writes', 'an', ['US', 'DE'], '2022-01-01');
  await check('query "family3", after writes', 'family3', ['FR'], '2021-06-01');

  // The Tags dictionary (id 0 is "no value") grows to 13 values, to 31, then to 45: a row's bitmask
  // uses both bytes of 16 bits, then all four of 32, then gives way to the ids.
  for (const [from, to, size] of [
    [0, 8, 13],
    [8, 26, 31],
    [26, 40, 45],
  ]) {
    const tagged = Array.from({ length: to - from }, (_, i) => ({
      ...person(2000 + from + i),
      Tags: [`t${from + i}`, 'vip', `t${from + i}`],
    }));
    await f.db.write({ upsert: tagged });
    people = [...people, ...tagged];
    assert.equal(f.db.index.table.column('Tags').dict.size, size, `the Tags dictionary's size`);
    await check(`no query, ${to} more tags`, undefined, ['US', 'DE'], '2020-01-01');
    await check(`query "an", ${to} more tags`, 'an', ['US', 'DE', 'FR', 'GB', 'SE'], '2020-01-01');
  }
});

test('4. a selection asked again after the word ring came round answers as the first time', async () => {
  const params = {
    Query: 'an',
    PageSize: 500,
    Facets: ['Country', 'Tags'],
    Filters: [
      { Field: 'Country', Op: 'In', Values: ['US', 'DE'] },
      { Field: 'CreatedAt', Op: 'Gte', Values: ['2021-01-01'] },
    ],
  };
  const version = f.db.index.version;
  const first: Doc = await f.call('GetSearchResults', params);
  // The ring handed out again and again (lists of another index's size, overwriting every word of
  // it), while the selection caches still keep "an": asked again, it must be worked out anew.
  const next = rng(5);
  const all = everyOrdinal(64);
  for (let i = 0; i < 300; i++) andWords(all, [randomBits(next, 64)]);
  assert.equal(f.db.index.version, version, 'no write in between: the caches could serve');
  const again: Doc = await f.call('GetSearchResults', { ...params, PageSize: 499 }); // not the result cache's
  assert.deepEqual({ ...again, PageSize: 500 }, first);
  const want = expected(people, new Set(await f.ids({ Query: 'an' })), ['US', 'DE'], '2021-01-01');
  assert.deepEqual(again.Rows.map((r) => r.ContactId).sort(), want.ids);
  assert.deepEqual(
    Object.fromEntries(again.Facets[0].Values.map((v) => [v.Value, v.Count]).sort()),
    want.country,
  );
});
