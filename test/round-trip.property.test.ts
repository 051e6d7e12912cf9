/**
 * Lossless round trip (issue 19): any contact the service holds, exported as CSV, vCard or JSON and
 * imported into an empty database, comes back the same, field by field — whatever its values hold:
 * every kind of line break, quotes, commas, semicolons, tabs, a leading = + - @ (which the CSV export
 * neutralises for spreadsheets), a value that really starts with an apostrophe, backslashes, emoji,
 * right-to-left text, 4,000-character notes. Contacts are made by fast-check and passed through the
 * service's own validation first (what the database can hold); then written, exported, imported.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { validateContact } from '../src/fields/validate.ts';
import type { Contact } from '../src/fields/contact.ts';
import { fixture, type Fixture } from './support/fixture.ts';
import { first } from './support/xml.ts';

let f: Fixture;
before(async () => {
  f = await fixture([]);
});
after(async () => {
  await f.close();
});

const PIECES = [
  '\r\n',
  '\r',
  '\n',
  '\u2028',
  '"',
  '""',
  ',',
  ';',
  '\t',
  '=',
  '+',
  '-',
  '@',
  "'",
  "''",
  '\\',
  '\\n',
  '\\;',
  ' ::: ',
  ':',
  '😀',
  '👩‍👩‍👧',
  'שלום',
  'مرحبا',
  '\u200f',
  'Zoë',
  '山田',
  '=HYPERLINK("http://x")',
  '+1',
  '-2',
  '@SUM(A1)',
  'BEGIN:VCARD',
  'END:VCARD',
  ' ',
  'a',
  'Ω',
];
/** Text made of hostile pieces and arbitrary characters. */
const hostile = (maxPieces = 8) =>
  fc
    .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'grapheme', maxLength: 6 })), {
      maxLength: maxPieces,
    })
    .map((a) => a.join(''));
/** A list item: no line breaks (the service refuses them in list items). */
const item = hostile(5)
  .map((s) => s.replace(/[\r\n\u2028\u2029\u0085]/g, ' '))
  .filter((s) => s.trim().length > 0 && s.length <= 60);
const leading = fc.constantFrom('', '=', '+', '-', '@', "'", "''", "'=");

const record = fc.record({
  ContactId: fc.uuid(),
  NamePrefix: fc.option(hostile(3), { nil: undefined }),
  FirstName: fc.option(
    fc.tuple(leading, hostile()).map(([a, b]) => a + b),
    { nil: undefined },
  ),
  MiddleName: fc.option(hostile(3), { nil: undefined }),
  LastName: fc.option(hostile(), { nil: undefined }),
  NameSuffix: fc.option(hostile(2), { nil: undefined }),
  Nickname: fc.option(hostile(3), { nil: undefined }),
  PhoneticFirstName: fc.option(hostile(3), { nil: undefined }),
  PhoneticLastName: fc.option(hostile(3), { nil: undefined }),
  Organization: fc.option(
    fc.tuple(leading, hostile()).map(([a, b]) => a + b),
    { nil: undefined },
  ),
  Department: fc.option(hostile(4), { nil: undefined }),
  JobTitle: fc.option(
    fc.tuple(leading, hostile()).map(([a, b]) => a + b),
    { nil: undefined },
  ),
  Emails: fc.array(
    fc
      .tuple(leading, fc.emailAddress())
      .map(([a, e]) => (a === '=' || a === '+' || a === '-' ? a + e : e)),
    { maxLength: 3 },
  ),
  EmailLabels: fc.array(fc.oneof(fc.constantFrom('', 'work', 'home', 'Mobile', 'work fax'), item), {
    maxLength: 3,
  }),
  Phones: fc.array(
    fc
      .tuple(
        leading,
        fc.stringMatching(/^[+]?[0-9 ()-]{1,20}[0-9]$/),
        hostile(2).map((s) => s.replace(/[\r\n\u2028\u2029\u0085]/g, '')),
      )
      .map(([a, p, x]) => (a + p + x).slice(0, 64)),
    { maxLength: 3 },
  ),
  PhoneLabels: fc.array(
    fc.oneof(fc.constantFrom('', 'mobile', 'cell', 'HOME', 'iPhone', 'Lab bench'), item),
    { maxLength: 3 },
  ),
  Websites: fc.array(fc.webUrl({ withQueryParameters: true, withFragments: true }), {
    maxLength: 2,
  }),
  Birthday: fc.option(
    fc.oneof(
      fc
        .date({ min: new Date('1900-01-01'), max: new Date('2020-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
      fc
        .date({ min: new Date('2000-01-01'), max: new Date('2000-12-31'), noInvalidDate: true })
        .map((d) => `--${d.toISOString().slice(5, 10)}`),
    ),
    { nil: undefined },
  ),
  AddressLabel: fc.option(fc.oneof(fc.constantFrom('work', 'home', 'Summer house'), item), {
    nil: undefined,
  }),
  Street: fc.option(hostile(), { nil: undefined }),
  City: fc.option(hostile(4), { nil: undefined }),
  Region: fc.option(hostile(3), { nil: undefined }),
  PostalCode: fc.option(
    hostile(2).map((s) => s.slice(0, 32)),
    { nil: undefined },
  ),
  Country: fc.option(fc.constantFrom('US', 'DE', 'ES', 'JP', 'IL', 'EG', 'Deutschland', 'España'), {
    nil: undefined,
  }),
  Tags: fc.array(item, { maxLength: 4 }),
  Notes: fc.option(
    fc.oneof(
      hostile(30),
      hostile(4).map((s) => (s + 'x'.repeat(4000)).slice(0, 4000)),
    ),
    { nil: undefined },
  ),
});

/** What the database can hold: the record after the service's validation, or nothing when it refuses it. */
function held(r: Record<string, unknown>): Contact | undefined {
  const rec = { ...r };
  if (!rec.Street && !rec.City && !rec.Country) delete rec.AddressLabel;
  const { contact } = validateContact(rec, '2024-01-01T00:00:00.000Z');
  return contact;
}

const pr = (args: object) => f.processRequest(args);
const sorted = () => f.contacts();

for (const format of ['CSV', 'VCard', 'JSON']) {
  test(`${format}: export then import gives every contact back, field by field, whatever its values hold`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 4 }), async (records) => {
        const contacts = records.map((r) => held(r)).filter((c): c is Contact => c !== undefined);
        fc.pre(contacts.length > 0);
        await f.db.write({ replaceAll: true, upsert: contacts });
        const want = sorted();
        const file = first(await pr({ Request: 'ExportContacts', Format: format }), 'File').text;
        await f.db.write({ replaceAll: true, upsert: [] });
        const imported = await pr({ Request: 'ImportContacts', Format: format, Content: file });
        assert.equal(first(imported, 'Response').attrs.Status, 'OK', imported);
        assert.deepEqual(sorted(), want);
      }),
      { numRuns: 60 },
    );
  });
}

test('CSV: spreadsheet safety holds — no exported cell starts with = + - @ unless it is a plain number', async () => {
  const c = held({
    ContactId: 'x1',
    FirstName: "=cmd|' /C calc'!A0",
    LastName: "'quoted",
    Organization: '@SUM(1)',
    JobTitle: '+HYPERLINK("x")',
    Phones: ['+46 8 123 456 78'],
    Emails: [],
  })!;
  await f.db.write({ replaceAll: true, upsert: [c] });
  const file = first(await pr({ Request: 'ExportContacts', Format: 'CSV' }), 'File').text;
  const row = file.split(/\r?\n/)[1];
  assert.match(row, /,'=cmd/);
  assert.match(row, /,''quoted/);
  assert.match(row, /,'@SUM/);
  assert.match(row, /,"'\+HYPERLINK/);
  assert.match(row, /,\+46 8 123 456 78,/, 'a phone number is left as it is');
});
