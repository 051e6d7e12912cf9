/**
 * ProcessRequest and GetRequestSupport (CONTRACT §5). Properties checked:
 * 1. Export then import gives the same contacts for CSV, vCard and JSON (Unicode, commas, quotes, newlines).
 * 2. A bad file (invalid email, ragged row, duplicate ContactId, unknown columns only) is Rejected and changes nothing;
 *    AllOrNothing:false writes the good rows and reports each bad one; DryRun writes nothing.
 * 3. Mode Insert refuses existing ids; Replace replaces the whole database.
 * 4. CSV exports neutralise spreadsheet formulas; Windows-1252 and UTF-16 files decode.
 * 5. GetRequestSupport describes exactly what ProcessRequest accepts.
 * 6. Saved searches are views; upsert, get, delete, database info.
 * 7. A file read in slices is still all or nothing: a bad row or broken quoting after the first slices
 *    (already written into the transaction) rejects the whole file and changes nothing; Replace over
 *    several slices keeps CreatedAt of the contacts it updates and deletes the rest, and counts each.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { REQUESTS } from '../src/service/requests/definitions.ts';
import type { Contact } from '../src/fields/contact.ts';
import { contact, fixture, type Fixture } from './support/fixture.ts';
import { elements } from './support/xml.ts';

const TRICKY: Contact[] = [
  contact('t1', 'Zoë', 'Ångström', {
    Organization: 'Nordic, "AB"',
    Notes: 'line one\nline two; with, commas',
    Emails: ['zoe@nordic.se'],
    Phones: ['+46 8 123 456 78'],
    Tags: ['vip', 'customer'],
    City: 'Stockholm',
    Country: 'SE',
  }),
  contact('t2', '太郎', '山田', {
    Organization: '山田商事',
    Emails: ['taro@yamada.jp'],
    Phones: ['+81 3-1234-5678'],
    Tags: [],
    Country: 'JP',
  }),
  contact('t3', 'Ωμέγα', 'Αλφα 😀', {
    JobTitle: '=SUM(A1:A2)',
    Emails: ['omega@example.gr'],
    Phones: ['+30 21 1234 5678'],
    Tags: ['press'],
  }),
];

let f: Fixture;
before(async () => {
  f = await fixture([]);
});
after(async () => {
  await f.close();
});
beforeEach(async () => {
  await f.db.write({ replaceAll: true, upsert: TRICKY });
});

const pr = (args: object) => f.processRequest(args);

/** Attributes and text of the elements named `name` in a Response string. */
const status = (xml: string) => elements(xml, 'Response')[0].attrs.Status;
const snapshot = () =>
  JSON.stringify([...f.db.all()].sort((a, b) => a.ContactId.localeCompare(b.ContactId)));

for (const format of ['CSV', 'VCard', 'JSON']) {
  test(`1. ${format}: export then import into an empty database gives the same contacts`, async () => {
    const exported = await pr({ Request: 'ExportContacts', Format: format });
    assert.equal(status(exported), 'OK');
    const file = elements(exported, 'File')[0];
    assert.equal(file.attrs.Count, '3');
    const before = f.contacts();
    await f.db.write({ replaceAll: true, upsert: [] });
    const imported = await pr({ Request: 'ImportContacts', Format: format, Content: file.text });
    assert.equal(status(imported), 'OK', imported);
    const afterImport = f.contacts();
    assert.deepEqual(afterImport, before);
  });
}

test('2. a bad file is Rejected and changes nothing; AllOrNothing:false keeps the good rows; DryRun writes nothing', async () => {
  const csv =
    'ContactId,First Name,Last Name,E-mail Address\nn1,Ann,Lee,ann@x.org\nn2,Bob,Ray,not-an-email\nn1,Cy,Odom,cy@x.org\nn4,Di\n';
  const before = snapshot();
  const rejected = await pr({ Request: 'ImportContacts', Format: 'CSV', Content: csv });
  assert.equal(status(rejected), 'Rejected');
  assert.equal(snapshot(), before, 'nothing changed');
  const errors = elements(rejected, 'Error').map((e) => [e.attrs.Line, e.attrs.Field ?? '']);
  assert.deepEqual(errors, [
    ['3', 'Emails'],
    ['4', 'ContactId'],
    ['5', ''],
  ]);
  const dry = await pr({
    Request: 'ImportContacts',
    Format: 'CSV',
    Content: 'First Name,E-mail Address\nEve,eve@x.org\n',
    DryRun: true,
  });
  assert.equal(status(dry), 'OK');
  assert.equal(snapshot(), before, 'a dry run writes nothing');
  const partial = await pr({
    Request: 'ImportContacts',
    Format: 'CSV',
    Content: csv,
    AllOrNothing: false,
  });
  assert.equal(status(partial), 'Partial');
  assert.ok(f.db.get('n1'));
  assert.equal(f.db.get('n2'), undefined);
  assert.equal(
    f.db.get('n1')!.FirstName,
    'Ann',
    'the duplicate on line 4 did not overwrite line 2',
  );
});

test('2b. unreadable files and wrong types are refused without change', async () => {
  const before = snapshot();
  assert.equal(
    status(await pr({ Request: 'ImportContacts', Format: 'CSV', Content: 'Foo,Bar\n1,2\n' })),
    'Rejected',
  );
  assert.equal(
    status(
      await pr({
        Request: 'ImportContacts',
        Format: 'CSV',
        Content: 'First Name,Last Name\nDi,"Kay\n',
      }),
    ),
    'Rejected',
  );
  assert.equal(
    status(await pr({ Request: 'ImportContacts', Format: 'JSON', Content: '{"not":"a list"}' })),
    'Rejected',
  );
  assert.equal(
    status(await pr({ Request: 'ImportContacts', Format: 'VCard', Content: 'hello' })),
    'Rejected',
  );
  assert.equal(
    await f.code('ProcessRequest', {
      Request: 'ImportContacts',
      DBName: 'Demo',
      Format: 'XLS',
      Content: '',
    }),
    'InvalidValue',
  );
  assert.equal(
    await f.code('ProcessRequest', {
      Request: 'ImportContacts',
      DBName: 'Demo',
      Format: 'CSV',
      Content: 'x',
      Encoding: 'Base64',
      DryRun: 'yes',
    }),
    'InvalidValue',
  );
  assert.equal(
    await f.code('ProcessRequest', {
      Request: 'ImportContacts',
      DBName: 'Demo',
      Format: 'CSV',
      Content: '***',
      Encoding: 'Base64',
    }),
    'InvalidValue',
  );
  assert.equal(
    await f.code('ProcessRequest', { Request: 'Frobnicate', DBName: 'Demo' }),
    'UnknownRequest',
  );
  assert.equal(
    await f.code('ProcessRequest', { Request: 'GetDatabaseInfo', DBName: '../../etc/passwd' }),
    'UnknownDatabase',
  );
  assert.equal(await f.code('ProcessRequest', { Request: 'GetDatabaseInfo' }), 'MissingParameter');
  assert.equal(await f.code('ProcessRequest', '!throw'), 'InvalidJson');
  assert.equal(snapshot(), before);
});

test('3. Insert refuses existing ids; Replace replaces everything', async () => {
  const ins = await pr({
    Request: 'ImportContacts',
    Format: 'JSON',
    Mode: 'Insert',
    Content: JSON.stringify([{ ContactId: 't1', FirstName: 'X' }]),
  });
  assert.equal(status(ins), 'Rejected');
  assert.equal(f.db.get('t1')!.FirstName, 'Zoë');
  const rep = await pr({
    Request: 'ImportContacts',
    Format: 'JSON',
    Mode: 'Replace',
    Content: JSON.stringify({
      Contacts: [{ ContactId: 'r1', FirstName: 'Only', Emails: 'only@x.org' }],
    }),
  });
  assert.equal(status(rep), 'OK');
  assert.deepEqual(
    [...f.db.all()].map((c) => c.ContactId),
    ['r1'],
  );
  assert.deepEqual(f.db.get('r1')!.Emails, ['only@x.org']);
});

test('4. formulas neutralised in CSV; Windows-1252 and UTF-16 files decode', async () => {
  const file = elements(
    await pr({ Request: 'ExportContacts', Format: 'CSV', Fields: ['ContactId', 'JobTitle'] }),
    'File',
  )[0];
  assert.match(file.text, /t3,'=SUM\(A1:A2\)/);
  const latin1 = Buffer.from(
    'First Name,Last Name,E-mail Address\r\nJos\xe9,Mu\xf1oz,jose@x.es\r\n',
    'latin1',
  ).toString('base64');
  assert.equal(
    status(
      await pr({ Request: 'ImportContacts', Format: 'CSV', Content: latin1, Encoding: 'Base64' }),
    ),
    'OK',
  );
  assert.ok([...f.db.all()].some((c) => c.DisplayName === 'José Muñoz'));
  const utf16 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from('First Name;Company\r\nŁucja;Ołówek SA\r\n', 'utf16le'),
  ]).toString('base64');
  assert.equal(
    status(
      await pr({ Request: 'ImportContacts', Format: 'CSV', Content: utf16, Encoding: 'Base64' }),
    ),
    'OK',
  );
  assert.ok(
    [...f.db.all()].some((c) => c.DisplayName === 'Łucja' && c.Organization === 'Ołówek SA'),
  );
});

test('5. GetRequestSupport describes exactly what ProcessRequest accepts', async () => {
  const all = await f.call('GetRequestSupport', {});
  assert.deepEqual(
    all.Requests.map((r: { Request: string }) => r.Request),
    REQUESTS.map((r) => r.Request),
  );
  for (const r of all.Requests as {
    Request: string;
    Parameters: { Name: string; Required: boolean }[];
  }[]) {
    assert.equal(
      await f.code('ProcessRequest', { Request: r.Request, DBName: 'Demo', Bogus: 1 }),
      'UnknownMember',
      `${r.Request} refuses an undocumented member`,
    );
    for (const p of r.Parameters.filter((x) => x.Required && x.Name !== 'DBName')) {
      assert.equal(
        await f.code('ProcessRequest', { Request: r.Request, DBName: 'Demo' }),
        'MissingParameter',
        `${r.Request} requires ${p.Name}`,
      );
    }
  }
  const one = await f.call('GetRequestSupport', { Request: 'importcontacts' });
  assert.equal(one.Requests[0].File.MaxBytes, 64 * 1024 * 1024);
  assert.ok(
    one.Requests[0].File.Columns.find(
      (c: { Name: string }) => c.Name === 'Emails',
    ).Aliases.includes('E-mail Address'),
  );
  assert.equal(await f.code('GetRequestSupport', { Request: 'Nope' }), 'UnknownRequest');
});

test('6. saved searches, upsert, get, delete, info', async () => {
  assert.equal(
    status(
      await pr({
        Request: 'SaveSearch',
        Name: 'Nordic VIPs',
        Query: 'zoe',
        Filters: [{ Field: 'Tags', Op: 'In', Values: ['vip'] }],
        Fields: ['DisplayName', 'City'],
      }),
    ),
    'OK',
  );
  assert.equal(
    await f.code('ProcessRequest', {
      Request: 'SaveSearch',
      DBName: 'Demo',
      Name: 'x',
      Filters: [{ Field: 'Nope', Op: 'Eq', Values: ['1'] }],
    }),
    'UnknownField',
  );
  const h = await f.call('GetSearchResultHeaders', { View: 'nordic vips' });
  assert.deepEqual(
    h.Headers.filter((x: { Visible: boolean }) => x.Visible).map((x: { Field: string }) => x.Field),
    ['DisplayName', 'City'],
  );
  const r = await f.call('GetSearchResults', { View: 'Nordic VIPs' });
  assert.deepEqual(r.Rows, [{ ContactId: 't1', DisplayName: 'Zoë Ångström', City: 'Stockholm' }]);
  assert.equal(
    elements(await pr({ Request: 'ListSavedSearches' }), 'SavedSearch')[0].attrs.Name,
    'Nordic VIPs',
  );
  assert.equal(status(await pr({ Request: 'DeleteSavedSearch', Name: 'NORDIC VIPS' })), 'OK');
  assert.equal(status(await pr({ Request: 'DeleteSavedSearch', Name: 'NORDIC VIPS' })), 'Rejected');

  const up = await pr({
    Request: 'UpsertContacts',
    Contacts: [
      { ContactId: 't2', FirstName: '太郎', LastName: '山田', Emails: ['new@yamada.jp'] },
      { FirstName: 'New', LastName: 'Person', Emails: ['np@x.org'] },
    ],
  });
  assert.equal(elements(up, 'Summary')[0].attrs.Inserted, '1');
  assert.equal(elements(up, 'Summary')[0].attrs.Updated, '1');
  assert.deepEqual(f.db.get('t2')!.Emails, ['new@yamada.jp']);
  assert.equal(f.db.get('t2')!.CreatedAt, TRICKY[1].CreatedAt, 'CreatedAt is kept on update');
  const got = await pr({ Request: 'GetContact', ContactId: 't1' });
  assert.equal(elements(got, 'LastName')[0].text, 'Ångström');
  const del = await pr({ Request: 'DeleteContacts', ContactIds: ['t1', 'missing'] });
  assert.equal(elements(del, 'Summary')[0].attrs.Deleted, '1');
  assert.equal(elements(del, 'Summary')[0].attrs.NotFound, '1');
  assert.equal((await f.ids({ Query: 'zoe' })).length, 0, 'a delete is visible to search at once');
  const info = elements(await pr({ Request: 'GetDatabaseInfo' }), 'Database')[0].attrs;
  assert.equal(info.Backend, 'sqlite');
  assert.equal(info.Contacts, String(f.db.size));
});

test('7. a file read in slices is still all or nothing; Replace over several slices counts and keeps CreatedAt', async () => {
  const before = snapshot();
  const rows = Array.from({ length: 5_000 }, (_, i) => `s${i},Slice${i},Person,s${i}@example.org`); // 3 slices of SLICE rows
  const csv = (tail: string[]) =>
    ['ContactId,First Name,Last Name,E-mail Address', ...rows, ...tail].join('\r\n');

  const badLast = await pr({
    Request: 'ImportContacts',
    Format: 'CSV',
    Content: csv(['s-last,Bad,Email,not-an-email']),
  });
  assert.equal(status(badLast), 'Rejected');
  assert.deepEqual(
    elements(badLast, 'Error').map((e) => [e.attrs.Line, e.attrs.Field]),
    [['5002', 'Emails']],
  );
  assert.equal(snapshot(), before, 'the slices before the bad row were rolled back');

  const broken = await pr({
    Request: 'ImportContacts',
    Format: 'CSV',
    Content: csv(['s-last,"unclosed,Person,x@example.org']),
    AllOrNothing: false,
  });
  assert.equal(status(broken), 'Rejected');
  assert.match(elements(broken, 'Error')[0].attrs.Reason, /cannot be read/);
  assert.equal(
    snapshot(),
    before,
    'an unreadable file changes nothing, even with AllOrNothing:false',
  );

  const t1 = f.db.get('t1')!;
  const replace = await pr({
    Request: 'ImportContacts',
    Format: 'CSV',
    Mode: 'Replace',
    Content: csv(['t1,Zoë,Ångström,zoe@nordic.se']),
  });
  assert.equal(status(replace), 'OK', replace);
  assert.deepEqual(
    { ...elements(replace, 'Summary')[0].attrs },
    {
      Rows: '5001',
      Valid: '5001',
      Invalid: '0',
      Inserted: '5000',
      Updated: '1',
      Deleted: '2',
      Unchanged: '0',
    },
  );
  assert.equal(f.db.size, 5_001);
  assert.equal(f.db.get('t2'), undefined);
  assert.equal(f.db.get('t1')!.CreatedAt, t1.CreatedAt, 'CreatedAt kept on update');
  assert.equal(f.db.get('s4999')!.FirstName, 'Slice4999');
});
