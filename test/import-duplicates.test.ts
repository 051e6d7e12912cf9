/**
 * Likely duplicates and Mode Merge (issue 19: people bring the same contacts from two sources).
 * Properties checked:
 * 1. An import names each row that likely duplicates an existing contact (same email whatever its
 *    case, same phone digits whatever the punctuation and country code, same name and organisation)
 *    or an earlier row of the file; DryRun lists them and writes nothing; Upsert writes the rows as
 *    their own contacts and still names them.
 * 1b. A row that duplicates both an earlier row and an existing contact is named once, as the
 *    existing contact's duplicate.
 * 2. Mode Merge merges each into the contact it duplicates: empty fields filled, lists united with
 *    their labels, a conflicting value kept (the existing one) and the other moved into Notes, each
 *    merge and conflict in the report; the export of a merged contact holds what both sources had.
 * 3. GetRequestSupport lists Merge among ImportContacts' modes.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import type { Contact } from '../src/fields/contact.ts';
import { contact, fixture, type Fixture } from './support/fixture.ts';
import { elements } from './support/xml.ts';

const EXISTING: Contact[] = [
  contact('a1', 'Ann', 'Example', {
    Emails: ['ann@example.com'],
    EmailLabels: ['work'],
    Phones: ['+1 555 010 0001'],
    JobTitle: 'Chief Scientist',
    Tags: ['research'],
  }),
  contact('b1', 'Carl', 'Sample', {
    Organization: 'Sample Co',
    Emails: ['carl@sample.example'],
    Phones: [],
    Tags: [],
  }),
];
const CSV = [
  'First Name,Last Name,Company,Job Title,E-mail Address,Mobile Phone,Categories,Notes',
  'Ann,Example,,Director,ANN@example.com,+1 555 010 0099,friends,', // line 2: existing a1 by email
  'Bob,Other,,,bob@example.net,+1 (555) 010-0100,,', // line 3: new
  'Bobby,Other,,,bobby@example.net,555.010.0100,,Met twice', // line 4: line 3 by phone digits
  'Carl,Sample,Sample Co,Buyer,,,,', // line 5: existing b1 by name + organisation
  'Dana,New,,,dana@example.org,,,', // line 6: nobody
].join('\n');

let f: Fixture;
before(async () => {
  f = await fixture([]);
});
after(async () => {
  await f.close();
});
beforeEach(async () => {
  await f.db.write({ replaceAll: true, upsert: EXISTING });
});

const pr = (args: object) => f.processRequest(args);
const dupes = (xml: string) =>
  elements(xml, 'Duplicate').map((d) => [
    d.attrs.Line,
    d.attrs.Of,
    d.attrs.OfLine ?? '',
    d.attrs.Why,
    d.attrs.Merged,
  ]);

test('1. DryRun lists likely duplicates of existing contacts and of earlier rows, and writes nothing', async () => {
  const before = JSON.stringify([...f.db.all()]);
  const xml = await pr({ Request: 'ImportContacts', Format: 'CSV', Content: CSV, DryRun: true });
  const byLine3 = elements(xml, 'Duplicate').find((d) => d.attrs.Line === '4')!.attrs.Of;
  assert.deepEqual(dupes(xml), [
    ['2', 'a1', '', 'same email ann@example.com', 'false'],
    ['4', byLine3, '3', 'same phone 555.010.0100', 'false'],
    ['5', 'b1', '', 'same name and organisation (Carl Sample, Sample Co)', 'false'],
  ]);
  assert.equal(JSON.stringify([...f.db.all()]), before);
});

test('1. Upsert writes every row as its own contact and still names the likely duplicates', async () => {
  const xml = await pr({ Request: 'ImportContacts', Format: 'CSV', Content: CSV });
  assert.equal(elements(xml, 'Summary')[0].attrs.Inserted, '5');
  assert.equal(f.db.size, 7);
  assert.equal(dupes(xml).length, 3);
});

test('1b. a row that duplicates an earlier row and an existing contact is named once, as the existing contact duplicate', async () => {
  const csv = [
    'First Name,Last Name,E-mail Address,Mobile Phone',
    'Eve,First,eve@example.org,', // line 2: new
    'Eve,Second,eve@example.org,+1 555 010 0001', // line 3: line 2 by email, and a1 by phone
  ].join('\n');
  const xml = await pr({ Request: 'ImportContacts', Format: 'CSV', Content: csv, DryRun: true });
  assert.deepEqual(dupes(xml), [['3', 'a1', '', 'same phone +1 555 010 0001', 'false']]);
});

test('2. Merge merges field by field, reports each merge and conflict, and the export holds both sources', async () => {
  const xml = await pr({ Request: 'ImportContacts', Format: 'CSV', Content: CSV, Mode: 'Merge' });
  assert.equal(elements(xml, 'Response')[0].attrs.Status, 'OK', xml);
  const s = elements(xml, 'Summary')[0].attrs;
  assert.deepEqual([s.Rows, s.Inserted, s.Merged, s.Updated], ['5', '2', '3', '0']);
  assert.equal(f.db.size, 4, 'a1, b1, Bob (with Bobby merged in), Dana');
  assert.deepEqual(
    dupes(xml).map((d) => d[4]),
    ['true', 'true', 'true'],
  );
  const ann = f.db.get('a1')!;
  assert.deepEqual(
    [ann.Emails, ann.EmailLabels, ann.Phones, ann.PhoneLabels, ann.Tags, ann.JobTitle],
    [
      ['ann@example.com'],
      ['work'],
      ['+1 555 010 0001', '+1 555 010 0099'],
      ['', 'mobile'],
      ['research', 'friends'],
      'Chief Scientist',
    ],
  );
  assert.match(ann.Notes ?? '', /JobTitle "Director"/, 'the conflicting title is kept in Notes');
  const conflicts = elements(xml, 'Conflict').map((c) => [
    c.attrs.Field,
    c.attrs.Kept,
    c.attrs.Other,
  ]);
  assert.deepEqual(conflicts, [
    ['JobTitle', 'Chief Scientist', 'Director'],
    ['FirstName', 'Bob', 'Bobby'],
  ]);
  const bob = [...f.db.all()].find((c) => c.FirstName === 'Bob')!;
  assert.deepEqual(bob.Emails, ['bob@example.net', 'bobby@example.net']);
  assert.equal(bob.Phones.length, 1, 'the same number written two ways is one phone');
  assert.equal(f.db.get('b1')!.JobTitle, 'Buyer', 'an empty field is filled');
  const vcf = elements(
    await pr({
      Request: 'ExportContacts',
      Format: 'VCard',
      Filters: [{ Field: 'ContactId', Op: 'Eq', Values: ['a1'] }],
    }),
    'File',
  )[0].text;
  for (const s of [
    'ann@example.com',
    '+1 555 010 0099',
    'Chief Scientist',
    'Director',
    'friends',
    'research',
  ])
    assert.ok(vcf.includes(s), `${s} in the export`);
});

test('3. GetRequestSupport lists Merge', async () => {
  const doc = await f.call('GetRequestSupport', { Request: 'ImportContacts' });
  const mode = doc.Requests[0].Parameters.find((p: { Name: string }) => p.Name === 'Mode');
  assert.deepEqual(mode.Values, ['Upsert', 'Insert', 'Replace', 'Merge']);
});
