/**
 * Filters, sort, paging, views and errors of the search operations (CONTRACT §5, §7).
 * Properties checked:
 * 1. Every operator per type gives exactly the expected contacts.
 * 2. Operators a type does not allow, unknown fields and members, bad values are errors with stable codes.
 * 3. Sort by fields is accent/case-insensitive with ContactId ties; default order without a query is LastName, FirstName.
 * 4. GetSearchFilters counts are disjunctive; GetPredictiveOptions counts values under the other filters.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fixture, PEOPLE, type Fixture } from '../support/fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture(PEOPLE);
});
after(async () => {
  await f.close();
});

const where = (Field: string, Op: string, Values?: unknown[]) => ({
  Filters: [{ Field, Op, ...(Values ? { Values } : {}) }],
  Sort: [{ Field: 'ContactId', Dir: 'Asc' }],
});

test('1. each operator', async () => {
  assert.deepEqual(await f.ids(where('Country', 'Eq', ['de'])), ['p04', 'p05', 'p07']);
  assert.deepEqual(await f.ids(where('Country', 'Ne', ['DE'])), [
    'p01',
    'p02',
    'p03',
    'p06',
    'p08',
    'p09',
    'p10',
  ]);
  assert.deepEqual(await f.ids(where('Country', 'In', ['US', 'GB'])), ['p01', 'p02', 'p08', 'p10']);
  assert.deepEqual(await f.ids(where('Country', 'NotIn', ['US', 'GB', 'DE'])), [
    'p03',
    'p06',
    'p09',
  ]);
  assert.deepEqual(await f.ids(where('City', 'Prefix', ['mun'])), ['p05', 'p07']); // München folds to munchen
  assert.deepEqual(await f.ids(where('Organization', 'Contains', ['co'])), ['p04']);
  assert.deepEqual(await f.ids(where('Tags', 'Eq', ['vip'])), ['p03', 'p06']);
  assert.deepEqual(await f.ids(where('Tags', 'Missing')), ['p05', 'p09']);
  assert.deepEqual(await f.ids(where('Tags', 'Exists')), [
    'p01',
    'p02',
    'p03',
    'p04',
    'p06',
    'p07',
    'p08',
    'p10',
  ]);
  assert.deepEqual(await f.ids(where('CreatedAt', 'Between', ['2023-01-01', '2023-12-31'])), [
    'p07',
  ]);
  assert.deepEqual(
    await f.ids(where('CreatedAt', 'Between', ['2024-01-01', '2025-12-31'])).then((x) => x.length),
    9,
  );
  assert.deepEqual(await f.ids(where('CreatedAt', 'Gt', ['2024-01-01'])), ['p08']);
  assert.deepEqual(await f.ids(where('CreatedAt', 'Gte', ['2024-01-01'])), [
    'p01',
    'p02',
    'p03',
    'p04',
    'p05',
    'p06',
    'p08',
    'p09',
    'p10',
  ]);
  assert.deepEqual(await f.ids(where('CreatedAt', 'Lt', ['2024-01-01'])), ['p07']);
  assert.deepEqual(await f.ids(where('CreatedAt', 'Lte', ['2023-05-01'])), ['p07']);
  assert.deepEqual(await f.ids({ Query: 'acme', ...where('City', 'Eq', ['boston']) }), [
    'p01',
    'p10',
  ]);
});

test('2. errors carry stable codes', async () => {
  assert.equal(
    await f.code('GetSearchResults', where('Country', 'Between', ['A', 'B'])),
    'InvalidFilter',
  );
  assert.equal(await f.code('GetSearchResults', where('Country', 'In', [])), 'InvalidFilter');
  assert.equal(await f.code('GetSearchResults', where('Citty', 'Eq', ['x'])), 'UnknownField');
  assert.equal(
    await f.code('GetSearchResults', where('CreatedAt', 'Gt', ['yesterday'])),
    'InvalidValue',
  );
  assert.equal(await f.code('GetSearchResults', { Qeury: 'x' }), 'UnknownMember');
  assert.equal(
    await f.code('GetSearchResults', { Filters: [{ Field: 'City', Op: 'Eq', Valeus: ['x'] }] }),
    'UnknownMember',
  );
  assert.equal(await f.code('GetSearchResults', { PageSize: 501 }), 'InvalidValue');
  assert.equal(await f.code('GetSearchResults', { Sort: [{ Field: 'Emails' }] }), 'UnknownField');
  assert.equal(await f.code('GetSearchResults', '{"Query":'), 'InvalidJson');
  assert.equal(await f.code('GetSearchResults', '[1,2]'), 'InvalidJson');
  assert.equal(await f.code('GetSearchResults', {}, 'CSV'), 'UnsupportedAsType');
  assert.equal(await f.code('GetSearchResults', { After: 'bogus' }), 'InvalidValue');
  assert.equal(await f.code('GetPredictiveOptions', { Field: 'Notes', Text: 'x' }), 'UnknownField');
  assert.equal(await f.code('GetPredictiveOptions', { Text: 'x' }), 'MissingParameter');
  assert.equal(await f.code('GetSearchResultHeaders', { View: 'Nope' }), 'InvalidValue');
  assert.equal(await f.code('GetSearchResults', { Query: 'x'.repeat(257) }), 'InvalidValue');
  assert.equal(
    await f.code(
      'GetSearchResults',
      JSON.stringify({
        Filters: Array.from({ length: 33 }, () => ({ Field: 'City', Op: 'Exists' })),
      }),
    ),
    'InvalidValue',
  );
  let deep = '1';
  for (let i = 0; i < 40; i++) deep = `[${deep}]`;
  assert.equal(await f.code('GetSearchResults', `{"Query":${deep}}`), 'InvalidJson');
});

test('3. sorting', async () => {
  const byLast = await f.ids({ Sort: [{ Field: 'LastName', Dir: 'Asc' }] });
  assert.deepEqual(byLast, ['p03', 'p05', 'p04', 'p07', 'p01', 'p02', 'p10', 'p08', 'p09', 'p06']); // Ångström sorts as angstrom
  assert.deepEqual(
    await f.ids({ Sort: [{ Field: 'LastName', Dir: 'Desc' }] }),
    [...byLast].reverse(),
  );
  assert.deepEqual(await f.ids({}), byLast, 'default order without a query is LastName, FirstName');
  assert.deepEqual(
    await f.ids({
      Filters: [{ Field: 'Organization', Op: 'Eq', Values: ['Acme'] }],
      Sort: [{ Field: 'City', Dir: 'Asc' }],
    }),
    ['p01', 'p10', 'p07'],
  );
});

test('4. disjunctive counts and value suggestions', async () => {
  const panel = await f.call('GetSearchFilters', {
    Filters: [
      { Field: 'Country', Op: 'In', Values: ['DE'] },
      { Field: 'Tags', Op: 'In', Values: ['customer'] },
    ],
  });
  const country = panel.Filters.find((x: { Field: string }) => x.Field === 'Country');
  // Country counts ignore the Country filter but apply the Tags filter: customers are p01 (US), p03 (SE), p07 (DE), p10 (US).
  assert.deepEqual(country.Options, [
    { Value: 'US', Label: 'US', Count: 2 },
    { Value: 'DE', Label: 'DE', Count: 1 },
    { Value: 'SE', Label: 'SE', Count: 1 },
  ]);
  assert.deepEqual(country.Selected, ['DE']);
  const created = panel.Filters.find((x: { Field: string }) => x.Field === 'CreatedAt');
  assert.equal(created.Control, 'DateRange');
  const cities = await f.call('GetPredictiveOptions', {
    Field: 'City',
    Text: 'b',
    Filters: [{ Field: 'Country', Op: 'Eq', Values: ['US'] }],
  });
  assert.deepEqual(cities.Options, [{ Value: 'Boston', Label: 'Boston', Count: 2 }]);
  assert.equal(cities.More, false);
});

test('5. views, headers and row fields', async () => {
  const h = await f.call('GetSearchResultHeaders', { View: 'compact' });
  assert.equal(h.View, 'Compact');
  assert.deepEqual(
    h.Headers.filter((x: { Visible: boolean }) => x.Visible).map((x: { Field: string }) => x.Field),
    ['DisplayName', 'Emails', 'Phones'],
  );
  const r = await f.call('GetSearchResults', { Query: 'zoe', Fields: ['City'] });
  assert.deepEqual(r.Rows, [{ ContactId: 'p03', City: 'Stockholm' }]);
  assert.deepEqual(r.Headers, ['ContactId', 'City']);
});
