/**
 * Segments (src/search/index/segment.ts, query/segments.ts): big changes indexed apart and searched
 * beside the base. An index holding a base, two segments (new contacts, updates of base and of
 * segment contacts, deletes) and delta writes after them must answer every query as a fresh build of
 * the same contacts does: the same contacts, ranks and matched entries (highlighting), full and
 * cut, with a filter and its admitted ordinals, with each plan forced; and the same match sets.
 * Segment A is loaded with every column buffered from its first value (IndexLoader's `unique`, as
 * a worker loads a segment for an index holding its ids, emails, phones and timestamps so).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { listedOrdinals } from '../../src/search/bits.ts';
import { contactEntries } from '../../src/search/contact-tokens.ts';
import { stageSegment } from '../../src/search/index/segment.ts';
import { matchBits, search, TUNING } from '../../src/search/match.ts';
import { selectContacts, type Selection } from '../../src/search/select/selection.ts';
import { FIELDS } from '../../src/fields/schema.ts';
import { IndexLoader, SearchIndex } from '../../src/search/search-index.ts';
import { TABLE_TUNING } from '../../src/search/table/dictionary.ts';
import { generateContacts } from '../../src/demo/generate.ts';
import type { Contact } from '../../src/fields/contact.ts';
import { contact } from '../cases/store.case.ts';

const generated = [...generateContacts({ count: 5000, seed: 21 })].flat();
const base = generated.slice(0, 2500);

interface Writes {
  upserts: Contact[];
  deletes: string[];
}

/**
 * Puts `upserts` in as a segment, with `deletes` deleted in the same change, as rebuilds.ts does:
 * writes made while it was built and staged (`during`: applied to the delta, journalled) are named
 * to the attach and replayed after it.
 */
async function attach(
  index: SearchIndex,
  upserts: Contact[],
  deletes: string[],
  during: Writes = { upserts: [], deletes: [] },
  unique?: boolean[],
): Promise<void> {
  const seg = new SearchIndex();
  // `unique`: its columns start buffered, as a worker's segment for an index holding them so (IndexLoader).
  const loader = new IndexLoader({ unique });
  for (const c of upserts) loader.add(c);
  seg.buildFrom(loader);
  const changed = [...deletes, ...upserts.map((c) => c.ContactId)];
  const staged = await stageSegment(index, seg.image()!, changed);
  index.applyToDelta(during.deletes, during.upserts);
  index.attachSegment(staged, [...during.deletes, ...during.upserts.map((c) => c.ContactId)]);
  index.applyToDelta(during.deletes, during.upserts);
}

const renamed = (c: Contact, last: string): Contact => ({
  ...c,
  LastName: last,
  DisplayName: `${c.FirstName} ${last}`,
});

/** The index under test and the live contacts it must hold, by id. */
const index = new SearchIndex();
index.build(base);
const live = new Map(base.map((c) => [c.ContactId, c]));
function change(upserts: Contact[], deletes: string[]): void {
  for (const id of deletes) live.delete(id);
  for (const c of upserts) live.set(c.ContactId, c);
}

// Segment A: 1,500 new contacts, 200 base contacts renamed, 100 base contacts deleted.
const a = [
  ...generated.slice(2500, 4000),
  ...base.slice(0, 200).map((c, i) => renamed(c, `Segmenta${i % 7}`)),
];
const aDeleted = base.slice(200, 300).map((c) => c.ContactId);
// A's columns all start buffered (the base's are deduplicated: the values are interned into them at the staging).
await attach(
  index,
  a,
  aDeleted,
  undefined,
  FIELDS.map(() => true),
);
change(a, aDeleted);
// Delta writes on top: a new contact, a segment contact updated, a segment and a base contact deleted.
const put1 = contact('seg-new-1', 'Aaron', 'Aardvark', { Emails: ['aa@x.org'], Country: 'DE' });
const put2 = renamed(generated[2600], 'Deltaname');
index.applyToDelta([generated[2700].ContactId, base[400].ContactId], [put1, put2]);
change([put1, put2], [generated[2700].ContactId, base[400].ContactId]);
// Segment B: 1,000 new, 100 of segment A's renamed again, 50 of A's deleted, the delta's contact updated.
const b = [
  ...generated.slice(4000),
  ...generated.slice(2500, 2600).map((c, i) => renamed(c, `Segmentb${i % 5}`)),
  { ...put1, City: 'Segmentville' },
];
const bDeleted = generated.slice(3000, 3050).map((c) => c.ContactId);
// Written while B was staged: contacts B renames or deletes, one of A's B leaves alone, a new one.
const bDuring: Writes = {
  upserts: [
    renamed(generated[2510], 'Duringb'),
    renamed(generated[3010], 'Duringc'),
    renamed(generated[2900], 'Duringd'),
    contact('seg-new-2', 'Berta', 'Duringe', { Country: 'JP' }),
  ],
  deletes: [generated[4100].ContactId],
};
await attach(index, b, bDeleted, bDuring);
change(b, bDeleted);
change(bDuring.upserts, bDuring.deletes);

const fresh = new SearchIndex();
fresh.build(live.values());

const text = fc.oneof(
  fc.constantFrom(
    ...'abcdefghijklmnoprstuvwzäöüłćs'.split(''),
    'ma',
    'jo',
    'an',
    'st',
    'mar',
    '+1',
    '+49 3',
    '555',
    'j s',
    'a m',
    'mar an',
    'schmdit',
    'gmail',
    'info@',
    'segmenta',
    'segmentb3',
    'segmenta1 ',
    'deltaname',
    'duringb',
    'during',
    'aardvark',
    'aa segmentv',
    'segmentvile',
    '山',
    'a b c',
  ),
  fc.constantFrom(...[...live.values()].slice(0, 300).map((c) => c.DisplayName.slice(0, 7))),
);

const country = fc.option(fc.constantFrom('US', 'DE', 'JP'), { nil: undefined });
const withinOf = (idx: SearchIndex, c: string | undefined) =>
  c ? (ord: number) => idx.doc(ord)?.Country === c : undefined;

/** Hits as what a caller sees: the contact, its rank, and each typed token's matched entry. */
function ranked(idx: SearchIndex, q: string, limit: number | undefined, c?: string, among = false) {
  const within = withinOf(idx, c);
  const admitted = within && among ? idx.ordinals().filter(within) : undefined;
  const hits = search(
    idx,
    q,
    within,
    limit,
    admitted && { count: admitted.length, list: () => admitted },
  ).hits;
  return hits.map((h) => {
    const id = idx.view(h.ord).ContactId;
    // Where the highlighter reads each matched token (spansAt): its field, item, start and length.
    const which = h.matches.map((m) => m.entry);
    const spans = idx.spansAt(h.ord, which, idx.view(h.ord));
    const shown = spans.map(
      (e, i) => `${e.field}.${e.item}:${e.start}+${e.length}/${h.matches[i].typed}`,
    );
    return `${id} ${h.score} ${shown.join(',')}`;
  });
}

function matched(idx: SearchIndex, q: string, c?: string): string[] {
  const set = matchBits(idx, q, withinOf(idx, c)).set;
  return listedOrdinals(set)
    .map((o) => idx.view(o).ContactId)
    .sort();
}

function check(q: string, limit: number, c: string | undefined): void {
  assert.deepEqual(ranked(index, q, undefined, c), ranked(fresh, q, undefined, c), `full "${q}"`);
  assert.deepEqual(ranked(index, q, limit, c), ranked(fresh, q, limit, c), `"${q}" ${limit}`);
  if (c)
    assert.deepEqual(ranked(index, q, limit, c, true), ranked(fresh, q, limit, c), `among "${q}"`);
  assert.deepEqual(matched(index, q, c), matched(fresh, q, c), `match set "${q}"`);
}

function withTuning(lowered: Partial<typeof TUNING>, work: () => void): void {
  const saved = { ...TUNING };
  Object.assign(TUNING, lowered);
  try {
    work();
  } finally {
    Object.assign(TUNING, saved);
  }
}

test('the index holds the contacts of the base, the segments and the delta, and no other', () => {
  assert.equal(index.segments.length, 2);
  assert.equal(index.size, live.size);
  assert.deepEqual([...index.all()].map((c) => c.ContactId).sort(), [...live.keys()].sort());
  for (const [id, c] of live) assert.deepEqual(index.get(id), c, id);
  for (const id of [...aDeleted, ...bDeleted, ...bDuring.deletes])
    assert.deepEqual(index.get(id), live.get(id), id);
  assert.equal(index.image(), undefined, 'no image while segments are held');
  // A segment row's entries are its contact's (highlighting reads them).
  const row = index.ordinalOf(generated[4500].ContactId)!;
  assert.ok(index.segmentOf(row));
  assert.deepEqual(index.entriesOf(row), contactEntries(generated[4500]));
});

test('answers as a fresh build, full and cut, filtered, and as match sets', () => {
  fc.assert(
    fc.property(text, fc.integer({ min: 1, max: 40 }), country, (q, limit, c) =>
      check(q, limit, c),
    ),
    { numRuns: 60 },
  );
});

for (const [name, tuning] of [
  ['dense paths and bucket combinations', { dense: 50, multiCap: 50 }],
  ['intersect and score', { dense: 50, multiCap: 50, maxCombos: 0 }],
  ['buckets read through the admitted ordinals', { amongFactor: 0 }],
  ['every bucket from a head', { headMin: 0, headSize: 3 }],
] as const) {
  test(`answers as a fresh build with ${name}`, () => {
    withTuning(tuning, () => {
      fc.assert(
        fc.property(text, fc.integer({ min: 1, max: 40 }), country, (q, limit, c) =>
          check(q, limit, c),
        ),
        { numRuns: 25 },
      );
    });
  });
}

test('a build takes the segments in and answers the same', () => {
  const rebuilt = new SearchIndex();
  rebuilt.build(index.all());
  assert.equal(rebuilt.segments.length, 0);
  for (const q of ['segmenta', 'segmentb', 'deltaname', 'aardvark', 'ma', 'a'])
    for (const limit of [undefined, 5])
      assert.deepEqual(ranked(rebuilt, q, limit), ranked(fresh, q, limit));
});

test('a field order made before a segment is patched with its rows as a fresh build orders them', async () => {
  const small = new SearchIndex();
  small.build(generated.slice(0, 1500));
  const field = (name: string) => FIELDS.find((f) => f.name === name)!;
  const sorts = [
    [{ field: field('LastName'), desc: false }],
    [
      { field: field('City'), desc: true },
      { field: field('FirstName'), desc: false },
    ],
  ];
  const sel = (sort: Selection['sort'], query = ''): Selection => ({ query, filters: [], sort });
  const ids = (idx: SearchIndex, s: Selection) => selectContacts(idx, s).map((c) => c.ContactId);
  for (const sort of sorts) ids(small, sel(sort)); // the orders cached
  const upserts = [
    ...generated.slice(1500, 2700),
    ...generated.slice(0, 100).map((c, i) => renamed(c, `Aardvark${i % 4}`)),
  ];
  await attach(
    small,
    upserts,
    generated.slice(100, 150).map((c) => c.ContactId),
  );
  const want = new Map(generated.slice(0, 2700).map((c) => [c.ContactId, c]));
  for (const c of generated.slice(100, 150)) want.delete(c.ContactId);
  for (const c of upserts) want.set(c.ContactId, c);
  const ref = new SearchIndex();
  ref.build(want.values());
  for (const sort of sorts)
    for (const query of ['', 'a', 'aardvark'])
      assert.deepEqual(ids(small, sel(sort, query)), ids(ref, sel(sort, query)), query);
});

test('a segment into an index holding its columns buffered: its values copied at once, answers as a fresh build', async () => {
  const was = TABLE_TUNING.mappedMax;
  TABLE_TUNING.mappedMax = 40; // ids, names, emails, phones, streets, timestamps past it: buffered
  try {
    const big = new SearchIndex();
    big.build(generated.slice(0, 600));
    const unique = big.table.columns.map((c) => !c.dict.deduplicated);
    assert.ok(unique.filter(Boolean).length >= 5, 'buffered columns in the index');
    const upserts = [
      ...generated.slice(600, 1100),
      ...generated.slice(0, 60).map((c, i) => renamed(c, `Copiedname${i % 3}`)),
    ];
    const deletes = generated.slice(60, 90).map((c) => c.ContactId);
    await attach(big, upserts, deletes, undefined, unique);
    const want = new Map(generated.slice(0, 1100).map((c) => [c.ContactId, c]));
    for (const id of deletes) want.delete(id);
    for (const c of upserts) want.set(c.ContactId, c);
    const ref = new SearchIndex();
    ref.build(want.values());
    assert.deepEqual([...big.all()].map((c) => c.ContactId).sort(), [...want.keys()].sort());
    for (const [id, c] of want) assert.deepEqual(big.get(id), c, id);
    for (const q of ['copiedname', 'copiedname2', 'a', 'ma', '+1', '555', 'gmail', 'jo s'])
      for (const limit of [undefined, 7])
        assert.deepEqual(ranked(big, q, limit), ranked(ref, q, limit), q);
  } finally {
    TABLE_TUNING.mappedMax = was;
  }
});
