/**
 * Real address books in (issue 19), through the real service (ProcessRequest ImportContacts, Base64
 * bytes as a browser sends a file). The fixtures in test/fixtures/imports/ are written from the
 * formats' public descriptions, with made-up people. Properties checked:
 * 1. Each source's file imports every row, and a contact has what its user sees in the source:
 *    countries as names become ISO codes, Outlook's Title is the name prefix, Google's system groups
 *    are not tags, ":::" values are split, every phone and email kept with its label.
 * 2. What the contact cannot hold is named per column with its rows (Photo, Spouse, a second address);
 *    a problem is one line per kind with its rows.
 * 3. Encoding (BOM, UTF-8, else Windows-1252) and delimiter (, ; tab) detection.
 * 4. Every imported fixture, exported as CSV, vCard and JSON and imported again, is the same, field by field.
 * 5. DryRun shows the column mapping and writes nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { detectDelimiter } from '../src/io/csv.ts';
import { decodeBytes } from '../src/io/decode.ts';
import type { Contact } from '../src/fields/contact.ts';
import { fixture, type Fixture } from './support/fixture.ts';
import { elements } from './support/xml.ts';

const DIR = join(import.meta.dirname, 'fixtures', 'imports');
let f: Fixture;
before(async () => {
  f = await fixture([]);
});
after(async () => {
  await f.close();
});

const formatOf = (name: string) =>
  name.endsWith('.csv') ? 'CSV' : name.endsWith('.vcf') ? 'VCard' : 'JSON';
const pr = (args: object) => f.processRequest(args);

async function importFile(name: string, extra: object = {}): Promise<string> {
  await f.db.write({ replaceAll: true, upsert: [] });
  return pr({
    Request: 'ImportContacts',
    Format: formatOf(name),
    Content: readFileSync(join(DIR, name)).toString('base64'),
    Encoding: 'Base64',
    AllOrNothing: false,
    ...extra,
  });
}
const byName = (first: string) =>
  [...f.db.all()].find((c) => c.FirstName === first || (!c.FirstName && c.Organization === first));
const pick = (c: Contact | undefined, keys: string[]) =>
  Object.fromEntries(
    keys.map((k) => [k, (c as unknown as Record<string, unknown> | undefined)?.[k]]),
  );

interface Case {
  rows: number;
  who: string;
  expect: Record<string, unknown>;
  notKept?: Record<string, string>;
}
const CASES: Record<string, Case> = {
  'google-current.csv': {
    rows: 4,
    who: 'Ann',
    notKept: { Photo: '2', 'Website 1 - Label': '2' },
    expect: {
      NamePrefix: 'Dr.',
      MiddleName: 'Marie',
      NameSuffix: 'PhD',
      Nickname: 'Annie',
      Organization: 'Example Labs',
      Department: 'Research',
      JobTitle: 'Chief Scientist',
      Emails: ['ann@example.com', 'ann.home@example.org'],
      EmailLabels: ['work', 'home'],
      Phones: ['+1 555-010-0001', '+1 555-010-0009', '+1 555-010-0002'],
      PhoneLabels: ['mobile', 'mobile', 'work fax'],
      Websites: ['https://example.com/ann'],
      Birthday: '1980-05-17',
      AddressLabel: 'home',
      Street: '1 Example Street',
      City: 'Springfield',
      Country: 'US',
      Tags: ['Friends', 'Research'],
      Notes: 'Met at the 2023 conference.\nLikes tea.',
    },
  },
  'google-legacy.csv': {
    rows: 3,
    who: 'Jürgen',
    notKept: { Hobby: '3', 'Website 1 - Type': '2' },
    expect: {
      NamePrefix: 'Dr.',
      FirstName: 'Jürgen',
      LastName: 'Weißmüller',
      NameSuffix: 'Jr.',
      Emails: ['jw@example.de'],
      EmailLabels: ['work'],
    },
  },
  'outlook-en-utf8.csv': {
    rows: 3,
    who: 'José',
    notKept: {
      Spouse: '2',
      Anniversary: '2',
      'Home Street': '2',
      'Home City': '2',
      'Home Country/Region': '2',
    },
    expect: {
      NamePrefix: 'Mr.',
      NameSuffix: 'Jr.',
      JobTitle: 'Account Manager',
      Department: 'Sales',
      Street: '10 Market Street\nSuite 5',
      Country: 'US',
      AddressLabel: 'work',
      Phones: [
        '(555) 010-0204',
        '(555) 010-0200',
        '(555) 010-0201',
        '(555) 010-0203',
        '(555) 010-0202',
      ],
      PhoneLabels: ['work fax', 'work', 'work', 'home', 'mobile'],
      Emails: ['jose@example.com', 'jose.private@example.org'],
      Birthday: '1980-05-17',
      Tags: ['Customers', 'VIP'],
      Notes: 'Prefers phone calls.\nCall after 10.',
    },
  },
  'outlook-en-1252.csv': {
    rows: 2,
    who: 'Renée',
    notKept: {
      Spouse: '2',
      Anniversary: '2',
      'Home Street': '2',
      'Home City': '2',
      'Home Country/Region': '2',
    },
    expect: {
      NamePrefix: 'Dr.',
      LastName: 'Zoëga',
      Organization: 'Hôpital Général',
      Country: 'FR',
      Birthday: '1969-12-31',
      Phones: ['+33 6 12 34 56 78'],
      PhoneLabels: ['mobile'],
    },
  },
  'outlook-de-1252.csv': {
    rows: 2,
    who: 'Jürgen',
    expect: {
      NamePrefix: 'Herr',
      LastName: 'Weißmüller',
      Organization: 'Beispiel GmbH',
      Department: 'Einkauf',
      JobTitle: 'Leiter Einkauf',
      City: 'München',
      Country: 'DE',
      Birthday: '1980-05-17',
      Phones: ['+49 89 1234567', '+49 170 1234567'],
      PhoneLabels: ['work', 'mobile'],
      Tags: ['Lieferanten'],
      Notes: 'Größere Bestellungen über Frau Groß.',
    },
  },
  'outlook-fr-bom.csv': {
    rows: 2,
    who: 'Hélène',
    expect: {
      NamePrefix: 'Mme',
      LastName: 'Lefèvre',
      JobTitle: 'Directrice financière',
      Department: 'Comptabilité',
      Street: "12 rue de l'Exemple\nBâtiment B",
      Birthday: '1979-04-05',
      Country: 'FR',
      Notes: 'Réunion ; mardi',
    },
  },
  'outlook-es.csv': {
    rows: 2,
    who: 'María José',
    expect: {
      NamePrefix: 'Sra.',
      LastName: 'García López',
      Country: 'ES',
      Birthday: '1985-03-09',
      Tags: ['Clientes', 'Madrid'],
      Phones: ['+34 91 123 45 67', '+34 600 000 001'],
      PhoneLabels: ['work', 'mobile'],
    },
  },
  'iphone-3.0.vcf': {
    rows: 2,
    who: 'Ann',
    notKept: { PHOTO: '1', ADR: '1' },
    expect: {
      NamePrefix: 'Dr.',
      NameSuffix: 'PhD',
      Nickname: 'Annie',
      PhoneticFirstName: 'アン',
      PhoneticLastName: 'エグザンプル',
      Department: 'Research',
      EmailLabels: ['other', 'work'],
      Phones: ['+1 (555) 010-0001', '+1 555 010 0002'],
      PhoneLabels: ['mobile', 'Lab bench'],
      Birthday: '--05-17',
      Street: '1 Example Street\nApt 2',
      Country: 'US',
      AddressLabel: 'home',
      Notes:
        'Met at the conference, 2023. This note is long enough that the phone folds it over more than one line of the file; as RFC 2425 says.',
    },
  },
  'android-2.1.vcf': {
    rows: 2,
    who: 'Jürgen',
    notKept: { PHOTO: '1', 'X-ANDROID-CUSTOM': '1' },
    expect: {
      NamePrefix: 'Dr.',
      LastName: 'Müller',
      Organization: 'Beispiel GmbH',
      Department: 'Qualität',
      Phones: ['+49 170 1234567', '030 1234567', '+49 30 7654321'],
      PhoneLabels: ['mobile', 'home', 'work fax'],
      EmailLabels: ['home', 'work'],
      Street: 'Hauptstraße 1',
      Country: 'DE',
      Notes:
        'Erste Zeile\nZweite Zeile: eine lange Notiz über Bestellungen, die über das Zeilenende hinaus weitergeht.',
    },
  },
  'vcard-4.0.vcf': {
    rows: 1,
    who: 'Björk',
    notKept: { GENDER: '1' },
    expect: {
      ContactId: '4fbe8971-0bc3-424c-9c26-36c3e1eff6b1',
      Phones: ['+354-555-0101'],
      PhoneLabels: ['mobile'],
      Birthday: '--03-15',
      City: 'Reykjavík',
      Country: 'IS',
      Notes: 'Singer, songwriter.',
    },
  },
  'service.json': {
    rows: 2,
    who: 'Ada',
    expect: {
      ContactId: 'svc-1',
      NamePrefix: 'Prof.',
      EmailLabels: ['work', 'home'],
      Websites: ['https://example.org/ada'],
      Birthday: '1815-12-10',
      Notes: 'First programmer.\nNotes on the engine.',
    },
  },
};

for (const [name, c] of Object.entries(CASES)) {
  test(`1–2. ${name}: every row in, the contact as its user sees it, what is not kept named`, async () => {
    const xml = await importFile(name);
    const summary = elements(xml, 'Summary')[0].attrs;
    const rowsIn = c.rows - (name === 'outlook-en-utf8.csv' ? 1 : 0); // its third row names "Atlantis" (test 2b)
    assert.equal(summary.Inserted, String(rowsIn), xml);
    assert.equal(f.db.size, rowsIn);
    assert.deepEqual(pick(byName(c.who), Object.keys(c.expect)), c.expect);
    const notKept = Object.fromEntries(
      elements(xml, 'NotKept').map((e) => [e.attrs.Column, e.attrs.Lines]),
    );
    assert.deepEqual(notKept, c.notKept ?? {});
  });
}

test('1. Google system groups are not tags; a company-only row and a row with a formatted address only', async () => {
  await importFile('google-current.csv');
  assert.ok(![...f.db.all()].some((c) => c.Tags.some((t) => /myContacts|starred/i.test(t))));
  assert.deepEqual(
    pick(byName('Acme Plumbing'), ['Organization', 'Phones', 'PhoneLabels', 'City', 'Country']),
    {
      Organization: 'Acme Plumbing',
      Phones: ['+44 20 7946 0000'],
      PhoneLabels: ['main'],
      City: 'London',
      Country: 'GB',
    },
  );
  assert.equal(byName('Zoë')!.Street, 'Storgatan 1\n111 22 Stockholm\nSweden');
  assert.equal(byName('太郎')!.Country, 'JP', 'a country in its own language');
});

test('2. a problem is one line per kind, with its rows; GetContact shows the new fields', async () => {
  const xml = await importFile('outlook-en-utf8.csv');
  assert.equal(elements(xml, 'Response')[0].attrs.Status, 'Partial');
  const problems = elements(xml, 'Problem').map((p) => [
    p.attrs.Field,
    p.attrs.Lines,
    p.attrs.Reason.slice(0, 35),
  ]);
  assert.deepEqual(problems, [['Country', '5', 'Country "Atlantis" is not a country']]);
  const why = Object.fromEntries(
    elements(xml, 'NotKept').map((n) => [n.attrs.Column, n.attrs.Why]),
  );
  assert.deepEqual(
    [why['Home Street'], why.Spouse],
    ['a second address (a contact keeps one)', 'no field for it'],
  );
  const id = byName('José')!.ContactId;
  const got = await pr({ Request: 'GetContact', ContactId: id });
  assert.deepEqual(
    elements(got, 'PhoneLabel').map((e) => e.text),
    ['work fax', 'work', 'work', 'home', 'mobile'],
  );
  assert.equal(elements(got, 'NamePrefix')[0].text, 'Mr.');
});

test('3. encodings: BOM, UTF-8, else Windows-1252; delimiters , ; tab', () => {
  const de = readFileSync(join(DIR, 'outlook-de-1252.csv'));
  assert.equal(decodeBytes(de).encoding, 'Windows-1252');
  assert.ok(
    decodeBytes(de).text.startsWith(
      'Anrede;Vorname;Weitere Vornamen;Nachname;Suffix;Firma;Abteilung;Position;Straße geschäftlich',
    ),
  );
  assert.equal(decodeBytes(readFileSync(join(DIR, 'outlook-fr-bom.csv'))).encoding, 'UTF-8');
  assert.ok(
    decodeBytes(readFileSync(join(DIR, 'outlook-fr-bom.csv'))).text.startsWith('Titre;Prénom'),
    'the BOM is dropped',
  );
  assert.equal(decodeBytes(readFileSync(join(DIR, 'outlook-es.csv'))).encoding, 'UTF-8');
  assert.equal(detectDelimiter('Anrede;Vorname;Nachname'), ';');
  assert.equal(
    detectDelimiter('"Name, full";Vorname;Nachname'),
    ';',
    'a comma inside quotes does not count',
  );
  assert.equal(detectDelimiter('First Name,Last Name;x,Notes'), ',');
  assert.equal(detectDelimiter('First Name\tLast Name\tE-mail Address'), '\t');
});

const sorted = () => f.contacts();

for (const name of Object.keys(CASES)) {
  test(`4. ${name}: imported, exported as CSV, vCard and JSON, imported again: the same, field by field`, async () => {
    await importFile(name);
    const first = sorted();
    assert.ok(first.length > 0);
    for (const format of ['CSV', 'VCard', 'JSON']) {
      const file = elements(await pr({ Request: 'ExportContacts', Format: format }), 'File')[0]
        .text;
      await f.db.write({ replaceAll: true, upsert: [] });
      const again = await pr({ Request: 'ImportContacts', Format: format, Content: file });
      assert.equal(elements(again, 'Response')[0].attrs.Status, 'OK', again);
      assert.deepEqual(sorted(), first, `${name} through ${format}`);
    }
  });
}

test('5. DryRun shows what each column becomes and writes nothing', async () => {
  await f.db.write({ replaceAll: true, upsert: [] });
  const xml = await pr({
    Request: 'ImportContacts',
    Format: 'CSV',
    DryRun: true,
    Content: readFileSync(join(DIR, 'google-current.csv')).toString('base64'),
    Encoding: 'Base64',
  });
  assert.equal(f.db.size, 0);
  const cols = new Map(elements(xml, 'Column').map((c) => [c.attrs.Name, c.attrs]));
  assert.equal(cols.get('Name Prefix')?.Field, 'NamePrefix');
  assert.equal(cols.get('Phone 2 - Value')?.Field, 'Phones');
  assert.equal(cols.get('Phone 2 - Label')?.Note, 'labels Phones');
  assert.equal(cols.get('File As')?.Note, 'not kept: derived from the name');
  assert.equal(cols.get('Photo')?.Note, 'unknown column: not kept');
  assert.equal(elements(xml, 'Summary')[0].attrs.Valid, '4');
});

test('1. an imported birthday is found by a date filter on that very day, and by Department', async () => {
  await importFile('outlook-en-utf8.csv');
  const on = async (from: string, to: string) =>
    f.ids({ Filters: [{ Field: 'Birthday', Op: 'Between', Values: [from, to] }] });
  assert.deepEqual(await on('1980-05-17', '1980-05-17'), [byName('José')!.ContactId]);
  assert.deepEqual(await on('1980-05-18', '1990-01-01'), []);
  assert.deepEqual(
    await f.ids({ Filters: [{ Field: 'Department', Op: 'Eq', Values: ['sales'] }] }),
    [byName('José')!.ContactId],
  );
});

test('1. a hand-made sheet "Name, Title, Company": Title is the job title there, the honorific in Outlook', async () => {
  await f.db.write({ replaceAll: true, upsert: [] });
  const xml = await pr({
    Request: 'ImportContacts',
    Format: 'CSV',
    DryRun: false,
    Content:
      'Name,Title,Company,Email\r\nDr. Ann Lee,Head of Research,Example Labs,ann@example.com\r\n',
  });
  assert.equal(elements(xml, 'Response')[0].attrs.Status, 'OK', xml);
  assert.deepEqual(
    pick([...f.db.all()][0], ['NamePrefix', 'FirstName', 'LastName', 'JobTitle', 'Organization']),
    {
      NamePrefix: 'Dr.',
      FirstName: 'Ann',
      LastName: 'Lee',
      JobTitle: 'Head of Research',
      Organization: 'Example Labs',
    },
  );
});
