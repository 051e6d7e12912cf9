/**
 * An import's likely-duplicate search reads the index by column (SearchIndex.scan) and reads in full
 * only the rows that may share a key with the file (duplicates.ts mayShareKey): a full read of every
 * contact was 7.7 s of the main thread at 1M. Properties:
 * 1. mayShareKey says yes of exactly the rows whose duplicateKeys include one of the file's (emails
 *    in any case, phones in any punctuation, a name split otherwise across first, middle and last
 *    with the same organisation; names and organisations with accents, other scripts, a final sigma,
 *    a lone combining mark, spaces, bars, empty strings); with the columns' values shared
 *    (deduplicated dictionaries) and buffered.
 * 2. The report's duplicates are the same through the scan as through a read of every contact from
 *    the store (what the import CLI does): the same rows, the same existing contacts, the same reasons.
 * 4. sharingRows, which looks a file's emails and phones up in the index's terms instead of testing
 *    every row, leaves out no row mayShareKey says yes of: over a base, a segment and delta rows,
 *    tombstones, phones written every way (trunk 0, 00, a calling code or none, 7 to 20 digits,
 *    trailing zeros), emails in any case (a Kelvin sign, Greek), with name keys in the file and
 *    without (then no pass over every row is made at all).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateContacts } from '../src/demo/generate.ts';
import type { Contact } from '../src/fields/contact.ts';
import { SearchIndex } from '../src/search/search-index.ts';
import { TABLE_TUNING } from '../src/search/table/dictionary.ts';
import {
  duplicateKeys,
  KeyMap,
  foundByTerm,
  mayShareKey,
  sharingRows,
} from '../src/service/requests/duplicates.ts';
import { IndexLoader } from '../src/search/search-index.ts';
import { stageSegment } from '../src/search/index/segment.ts';
import { normalize } from '../src/search/normalize.ts';
import fc from 'fast-check';
import { importReport } from '../src/service/requests/import-records.ts';
import type { ImportTarget } from '../src/store/import-target.ts';
import type { ParsedRow } from '../src/io/csv.ts';

const generated = [...generateContacts({ count: 1500, seed: 41 })].flat();

/** Contacts whose keys are made at the edges of the rules. */
const EDGES: Contact[] = [
  edge('x1', { FirstName: 'Ann Marie', LastName: 'Lee', Organization: 'Acme' }),
  edge('x2', { FirstName: 'Zoë', LastName: 'Ångström', Organization: 'Ørsted A/S' }),
  edge('x3', { FirstName: 'Bo', LastName: 'Bar|Baz', Organization: 'Pipe|Works' }),
  edge('x4', { FirstName: '', MiddleName: 'Mid', LastName: 'Only', Organization: 'Acme' }),
  edge('x5', { FirstName: ' Spaced ', LastName: 'Out\u00a0', Organization: ' Acme ' }),
  edge('x6', { Organization: 'Org Only Inc', Emails: ['Mixed.Case@Example.COM'] }),
  edge('x7', { FirstName: 'Phil', LastName: 'Phone', Phones: ['+44 (20) 7946-0958'] }),
  edge('x8', { FirstName: 'Ева', LastName: 'Иванова', Organization: 'Рога и копыта' }),
  edge('x9', { FirstName: 'Kim', LastName: 'Park', Organization: '' }),
  edge('x10', { FirstName: 'ΟΔΥΣΣΕΥΣ', LastName: 'ΛΑΕΡΤΙΑΔΗΣ', Organization: 'Ιθάκη' }),
  edge('x11', { FirstName: 'Mark', MiddleName: '\u0301', LastName: 'Less', Organization: 'Acme' }),
  // A bar moved between name and organisation makes the same key ("ann|bo|co"): either side holds it.
  edge('x12', { FirstName: 'Ann', Organization: 'Bo|Co' }),
  edge('x13', { FirstName: 'Cy|Do', Organization: 'Ed' }),
  edge('x14', { FirstName: 'Eve\uff5cFay', Organization: 'Gus' }), // a fullwidth bar: '|' normalised
];

function edge(id: string, fields: Partial<Contact>): Contact {
  return {
    ContactId: id,
    DisplayName: '',
    Emails: [],
    Phones: [],
    Tags: [],
    ...fields,
  } as Contact;
}

const existing = [...generated.slice(0, 1200), ...EDGES];

/** A file's contacts: some existing ones as another source would hold them, and new ones. */
function fileContacts(): Contact[] {
  const out: Contact[] = [];
  const again = (c: Contact, change: Partial<Contact>, id: string) =>
    out.push({ ...c, ...change, ContactId: id });
  generated.slice(0, 1200).forEach((c, i) => {
    if (i % 37 === 0) again(c, { Emails: c.Emails.map((e) => e.toUpperCase()) }, `f${i}`);
    else if (i % 41 === 0)
      again(c, { Emails: [], Phones: c.Phones.map((p) => p.replace(/\D/g, '-')) }, `f${i}`);
    else if (i % 43 === 0 && c.Organization)
      again(c, { Emails: [], Phones: [], FirstName: c.FirstName?.toUpperCase() }, `f${i}`);
  });
  const bare = { Emails: [], Phones: [] };
  again(EDGES[0], { ...bare, FirstName: 'Ann', MiddleName: 'Marie' }, 'g1'); // the name split otherwise
  again(EDGES[1], { ...bare, FirstName: 'ZOË', Organization: 'ørsted a/s' }, 'g2');
  again(EDGES[2], bare, 'g3');
  again(EDGES[3], bare, 'g4');
  again(EDGES[4], { ...bare, FirstName: 'Spaced', LastName: 'Out' }, 'g5'); // other spacing: another key
  again(EDGES[5], { Emails: ['mixed.case@example.com'] }, 'g6');
  again(EDGES[6], { Phones: ['020 7946 0958'] }, 'g7');
  again(EDGES[7], bare, 'g8');
  again(EDGES[8], bare, 'g9'); // no organisation: no name key
  again(EDGES[9], { ...bare, FirstName: 'Οδυσσευς', LastName: 'Λαερτιαδης' }, 'g10');
  again(EDGES[10], bare, 'g11');
  again(EDGES[11], { ...bare, FirstName: 'Ann|Bo', Organization: 'Co' }, 'g12');
  again(EDGES[12], { ...bare, FirstName: 'Cy', Organization: 'Do|Ed' }, 'g13');
  again(EDGES[13], { ...bare, FirstName: 'Eve', Organization: 'Fay|Gus' }, 'g14');
  for (const c of generated.slice(1200)) out.push(c); // nobody's duplicates, mostly
  return out;
}

function indexOf(contacts: readonly Contact[]): SearchIndex {
  const index = new SearchIndex();
  index.build(contacts);
  return index;
}

for (const mode of ['shared', 'buffered'] as const)
  test(`1. mayShareKey says yes of exactly the rows sharing a key with the file (values ${mode})`, () => {
    const was = TABLE_TUNING.mappedMax;
    if (mode === 'buffered') TABLE_TUNING.mappedMax = 4;
    try {
      const index = indexOf(existing);
      const keys = new KeyMap<true>();
      for (const c of fileContacts()) for (const k of duplicateKeys(c)) keys.set(k, true);
      const scan = index.scan();
      const may = mayShareKey(scan, keys);
      let sharing = 0;
      for (const row of scan.rows()) {
        const c = scan.view(row);
        const shares = duplicateKeys(c).some((k) => keys.get(k) !== undefined);
        if (shares) sharing++;
        assert.equal(may(row), shares, `${c.ContactId}: ${shares ? 'shares' : 'shares no'} key`);
      }
      assert.ok(sharing >= 60, `the file duplicates many existing contacts (${sharing})`);
      // Without a bar in the file's names only the rows' bars can move a key's split (x13, x14).
      const plain = new KeyMap<true>();
      const barless = (c: Contact) =>
        ![c.FirstName, c.MiddleName, c.LastName].some((v) => v && normalize(v).includes('|'));
      for (const c of fileContacts().filter(barless))
        for (const k of duplicateKeys(c)) plain.set(k, true);
      assert.equal(plain.pipedName, false);
      const mayPlain = mayShareKey(scan, plain);
      for (const row of scan.rows()) {
        const c = scan.view(row);
        const shares = duplicateKeys(c).some((k) => plain.get(k) !== undefined);
        assert.equal(mayPlain(row), shares, `${c.ContactId} (no bars in the file's names)`);
      }
      assert.ok(
        ['x13', 'x14'].every((id) =>
          [...scan.rows()].some((r) => mayPlain(r) && scan.view(r).ContactId === id),
        ),
        'a bar in an existing name',
      );
      const found = new Set([...scan.rows()].filter(may).map((r) => scan.view(r).ContactId));
      for (const id of [
        'x1',
        'x2',
        'x3',
        'x4',
        'x6',
        'x7',
        'x8',
        'x10',
        'x11',
        'x12',
        'x13',
        'x14',
      ])
        assert.ok(found.has(id), `${id} is found`);
      for (const id of ['x5', 'x9']) assert.ok(!found.has(id), `${id} is not`);
    } finally {
      TABLE_TUNING.mappedMax = was;
    }
  });

test('2. the report names the same duplicates through the scan as through a read of every contact', async () => {
  const index = indexOf(existing);
  const file = fileContacts();
  const byId = new Map(existing.map((c) => [c.ContactId, c]));
  const target = (how: 'scan' | 'existing'): ImportTarget => ({
    lookup: async (ids) =>
      new Map(ids.flatMap((id) => (byId.has(id) ? [[id, byId.get(id)!]] : []))),
    begin: async () => assert.fail('a DryRun writes nothing'),
    ...(how === 'scan'
      ? { scan: () => index.scan() }
      : {
          async *existing() {
            for (let i = 0; i < existing.length; i += 100) yield existing.slice(i, i + 100);
          },
        }),
  });
  const source = async function* (): AsyncIterable<ParsedRow[]> {
    yield file.map((c, i) => ({ line: i + 2, record: { ...c } }));
  };
  const run = (how: 'scan' | 'existing') =>
    importReport(
      target(how),
      source(),
      { check() {}, checkNow() {} },
      {
        request: 'ImportContacts',
        mode: 'Upsert',
        dryRun: true,
        allOrNothing: false,
        duplicates: true,
      },
    );
  const viaScan = await run('scan');
  const viaAll = await run('existing');
  assert.ok(viaAll.duplicates.length >= 60, `many duplicates (${viaAll.duplicates.length})`);
  assert.ok(
    viaAll.duplicates.some((d) => d.of === 'x2') && viaAll.duplicates.some((d) => d.of === 'x1'),
    'accented names and a name split otherwise are found',
  );
  assert.deepEqual(viaScan.duplicates, viaAll.duplicates);
});

test("3. a phone's key is its last 9 ASCII digits when it has 7 or more, however it is written", () => {
  const reference = (p: string) => {
    const digits = p.replace(/\D/g, '');
    return digits.length >= 7 ? digits.slice(-9) : undefined;
  };
  const phones = [
    '+1 555 010 0001',
    '5550100',
    '555010',
    '+49 (30) 1234567-89',
    '0049301234567',
    '12-34-56-7',
    '٣٤٥٦٧٨٩٠١', // Arabic-Indic digits are not ASCII digits: no key
    '+44 ٢٠ 7946 0958',
    'ext. 1234567 x',
    '1234567890123',
    '',
    ...generated.flatMap((c) => c.Phones),
  ];
  for (const p of phones)
    assert.equal(
      duplicateKeys(edge('p', { Phones: [p] })).find((k) => k.kind === 'phone')?.key,
      reference(p),
      p,
    );
});

/** Phones at the edges of the index's phone forms, each with a country or none. */
const PHONES: [string, string | undefined][] = [
  ['030 1234567', 'DE'],
  ['0301234', 'DE'],
  ['0301234', undefined],
  ['+49 30 1234567', undefined],
  ['0049 30 1234567', 'DE'],
  ['00 1234567', undefined],
  ['(555) 010-0000', 'US'],
  ['555 0100', undefined],
  ['+44 20 7946 0958', 'GB'],
  ['020 7946 0958', 'GB'],
  ['7946 0958', 'GB'],
  ['+1 (212) 555-0100 ext. 20', 'US'],
  ['1234567890123456789', undefined],
  ['+33 1 00 00 00 00', 'FR'],
  ['0 800 000 0000', 'GB'],
];
// A lunate sigma folds one way lower-cased first and another way not (hence the pass for such an address).
const EMAILS = [
  'Kim@Example.org',
  'KELVIN@Example.org',
  'Ολγα@Παράδειγμα.gr',
  'ΟΣ@ΣΟΣ.gr',
  '\u03f9α@example.gr',
];

/** Existing contacts holding those phones and emails, and a file that writes each otherwise. */
function phoneCases(part: string): { existing: Contact[]; file: Contact[] } {
  const existing = PHONES.map(([p, country], i) =>
    edge(`ph${i}${part}`, {
      FirstName: 'Pat',
      LastName: `Phone${i}`,
      Phones: [p],
      Country: country,
    }),
  );
  EMAILS.forEach((e, i) => existing.push(edge(`em${i}${part}`, { FirstName: 'Em', Emails: [e] })));
  const file = PHONES.map(([p], i) =>
    edge(`fp${i}`, {
      FirstName: 'New',
      Phones: [p.replace(/\D/g, (c) => (c === '+' ? '00' : '.'))],
    }),
  );
  // Another number of each with the same last digits, written with a calling code (another key when 7–8 digits).
  PHONES.forEach(([p], i) =>
    file.push(edge(`fq${i}`, { Phones: ['+358 ' + p.replace(/\D/g, '')] })),
  );
  EMAILS.forEach((e, i) => file.push(edge(`fe${i}`, { Emails: [e.toLowerCase()] })));
  file.push(edge('fk', { Emails: ['\u212aim@example.org'] })); // a Kelvin sign, lower-cased to k
  return { existing, file };
}

/** An index of `contacts` as a running server holds them: a base, a segment, delta rows and tombstones. */
async function layeredIndex(contacts: readonly Contact[]): Promise<SearchIndex> {
  const third = Math.floor(contacts.length / 3);
  const index = indexOf(contacts.slice(0, third));
  const seg = new SearchIndex();
  const loader = new IndexLoader({});
  const segContacts = contacts.slice(third, 2 * third);
  for (const c of segContacts) loader.add(c);
  seg.buildFrom(loader);
  const changed = segContacts.map((c) => c.ContactId);
  index.attachSegment(await stageSegment(index, seg.image()!, changed), []);
  index.applyToDelta([], contacts.slice(2 * third));
  // A tombstone in each part: those contacts deleted, then put back as delta rows.
  const again = [contacts[1], contacts[third + 1], contacts[2 * third + 1]];
  index.applyToDelta(
    again.map((c) => c.ContactId),
    [],
  );
  index.applyToDelta([], again);
  assert.ok(
    index.segments.length === 1 && [...index.deltaOrdinals()].length > 3,
    'all three parts',
  );
  return index;
}

for (const ascii of [true, false])
  test(`4. sharingRows leaves out no row mayShareKey says yes of (${ascii ? 'emails and phones found by term only' : 'name keys and emails with a sigma too'})`, async () => {
    // The cases in each part of the index: its base, its segment and its delta rows.
    const [cases, inSegment, inDelta] = ['', '-s', '-d'].map(phoneCases);
    const index = await layeredIndex([
      ...cases.existing,
      ...existing.slice(0, 600),
      ...inSegment.existing,
      ...existing.slice(600),
      ...inDelta.existing,
    ]);
    const keys = new KeyMap<true>();
    for (const c of [...cases.file, ...fileContacts()])
      for (const k of duplicateKeys(ascii ? { ...c, Organization: undefined } : c))
        if (!ascii || k.kind !== 'email' || foundByTerm(k.key)) keys.set(k, true);
    const scan = index.scan();
    const may = mayShareKey(scan, keys);
    const want = [...scan.rows()].filter(may);
    const got = await sharingRows(scan, keys);
    const rows = [...got.rows];
    assert.deepEqual(rows.filter(got.may), want);
    if (ascii) {
      // Only the rows found by term are tested, and every delta row (kept as entries, not postings).
      const delta = new Set(index.deltaOrdinals());
      const termRows = rows.filter((r) => !delta.has(r)).length;
      const indexed = index.ordinalCount - delta.size;
      assert.ok(termRows < indexed / 10, `${termRows} of ${indexed} rows found by term`);
    } else assert.equal(rows.length, [...scan.rows()].length, 'a pass over every row');
    const ids = new Set(want.map((r) => scan.view(r).ContactId));
    for (const part of ['', '-s', '-d']) {
      for (let i = 0; i < PHONES.length; i++)
        assert.ok(ids.has(`ph${i}${part}`), `${PHONES[i][0]} is found (${part})`);
      for (let i = 0; i < EMAILS.length; i++)
        if (!ascii || i < 3) assert.ok(ids.has(`em${i}${part}`), `${EMAILS[i]} is found`);
    }
    assert.ok(want.length >= 60, `many rows share a key (${want.length})`);
  });

test('4b. an address and its lower case normalise alike but for a sigma (foundByTerm), for every character and at random', () => {
  const alike = (s: string) => {
    const lower = normalize(s.toLowerCase());
    return /[σς]/.test(lower) || normalize(s) === lower;
  };
  const contexts = (c: string) => [
    c,
    'a' + c,
    c + 'b',
    'Σ' + c,
    'AΣ' + c,
    c + '\u0301',
    'İ' + c,
    '\u1100' + c,
    c + '\u1161',
  ];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    for (const s of contexts(String.fromCodePoint(cp)))
      assert.ok(alike(s), `U+${cp.toString(16)} in ${JSON.stringify(s)}`);
  }
  for (const unit of ['grapheme', 'binary'] as const)
    fc.assert(fc.property(fc.string({ unit, maxLength: 12 }), alike), { numRuns: 20_000 });
  // And the sigmas it leaves to the pass over every row do fold two ways.
  for (const s of ['AΣ\u02b0@example.gr', '\u03f9α@example.gr'])
    assert.notEqual(normalize(s), normalize(s.toLowerCase()), s);
  assert.equal(foundByTerm('ολγα@παράδειγμα.gr'), true);
  assert.equal(foundByTerm('ος@σος.gr'), false);
});
