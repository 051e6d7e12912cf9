/**
 * The result cache through the real service (docs/DESIGN.md "Result cache"). Properties checked:
 * 1. A repeated read is answered from the cache (the same result object, counted as a hit).
 * 2. A write through ProcessRequest is visible to the very next call: UpsertContacts, DeleteContacts
 *    and ImportContacts for type-ahead and results; SaveSearch and DeleteSavedSearch for views.
 * 3. A write straight to the database (not through the service) is seen too (ContactDatabase.version):
 *    contacts and saved searches.
 * 4. A read answered while a write runs is not kept past the write.
 * 5. InternalUse is never served from the cache.
 * 6. A hit still authorises the caller: a key without access to the database gets Forbidden for a
 *    request another caller's call put in the cache.
 * 7. A hit skips only work whose outcome is known: errors are never kept, and a request with several
 *    faults reports the same first one whether or not the cache could answer (invalid JSON before an
 *    unknown database, as without the cache).
 * 8. Kept on repeat (the default, limits.resultCacheOnRepeat): a result is stored the second time it
 *    is asked, so the third is the first hit, and distinct requests leave the cache empty.
 * 1–7 run with resultCacheOnRepeat off, so that every read is kept at once and each freshness rule is
 * tested against a cache that holds the answer.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import type { ServiceError } from '../src/errors.ts';
import type { OperationName } from '../src/operations/table.ts';
import type { ApiKey } from '../src/security/api-keys.ts';
import { contact, fixture, type Fixture } from './support/fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture([], { resultCacheOnRepeat: false });
});
after(async () => {
  await f.close();
});
beforeEach(async () => {
  await f.db.write({
    replaceAll: true,
    upsert: [contact('a1', 'Ann', 'Lee'), contact('b1', 'Bob', 'Ray')],
  });
});

const invoke = (op: OperationName, params: object, AsType = 'JSON') =>
  f.service.invoke({
    op,
    StringOfJSONParameters: JSON.stringify(params),
    DBName: 'Demo',
    AsType,
    caller: { binding: 'soap11', loopback: true },
  });
const hits = () => f.service.stats!().resultCache.hits;
const pr = (args: object) => invoke('ProcessRequest', { DBName: 'Demo', ...args });
/** Type-ahead labels for a text (cached after the first call). */
const typeAhead = async (Text: string) =>
  (
    JSON.parse(
      ((await invoke('GetPredictiveOptionsSearchContacts', { Text })) as { text: string }).text,
    ).Options as { Label: string }[]
  ).map((o) => o.Label);
const visibleColumns = async (View: string) =>
  (
    JSON.parse(((await invoke('GetSearchResultHeaders', { View })) as { text: string }).text)
      .Headers as { Field: string; Visible: boolean }[]
  )
    .filter((h) => h.Visible)
    .map((h) => h.Field);

test('1. a repeated read is a hit: the same result object', async () => {
  const first = await invoke('GetSearchResults', { Query: 'ann' });
  const h = hits();
  assert.equal(await invoke('GetSearchResults', { Query: 'ann' }), first);
  assert.equal(hits(), h + 1);
  assert.notEqual(
    await invoke('GetSearchResults', { Query: 'ann' }, 'XML'),
    first,
    'AsType is part of the key',
  );
});

test('2a. UpsertContacts, DeleteContacts and ImportContacts are visible to the very next call', async () => {
  assert.deepEqual(await typeAhead('zed'), []);
  assert.deepEqual(await typeAhead('zed'), []); // now cached
  await pr({
    Request: 'UpsertContacts',
    Contacts: [{ ContactId: 'z1', FirstName: 'Zed', LastName: 'Zo', Emails: ['zed@x.org'] }],
  });
  assert.deepEqual(await typeAhead('zed'), ['Zed Zo']);
  await pr({ Request: 'DeleteContacts', ContactIds: ['z1'] });
  assert.deepEqual(await typeAhead('zed'), []);
  await pr({
    Request: 'ImportContacts',
    Format: 'CSV',
    Content: 'First Name,Last Name,E-mail Address\nZed,Imported,zi@x.org\n',
  });
  assert.deepEqual(await typeAhead('zed'), ['Zed Imported']);
});

test('2b. SaveSearch and DeleteSavedSearch are visible to the very next call', async () => {
  await pr({ Request: 'SaveSearch', Name: 'Mine', Fields: ['DisplayName', 'City'] });
  assert.deepEqual(await visibleColumns('Mine'), ['DisplayName', 'City']);
  assert.deepEqual(await visibleColumns('Mine'), ['DisplayName', 'City']); // cached
  await pr({ Request: 'SaveSearch', Name: 'Mine', Fields: ['Emails'] });
  assert.deepEqual(await visibleColumns('Mine'), ['Emails']);
  await pr({ Request: 'DeleteSavedSearch', Name: 'Mine' });
  await assert.rejects(invoke('GetSearchResultHeaders', { View: 'Mine' }), {
    code: 'InvalidValue',
  });
});

test('3. a write straight to the database is seen (its version moved)', async () => {
  assert.deepEqual(await typeAhead('cy'), []);
  await f.db.write({ upsert: [contact('c1', 'Cy', 'Ode')] });
  assert.deepEqual(await typeAhead('cy'), ['Cy Ode']);
  const now = new Date().toISOString();
  await f.db.putSavedSearch({
    Name: 'Direct',
    Fields: ['DisplayName'],
    CreatedAt: now,
    UpdatedAt: now,
  });
  assert.deepEqual(await visibleColumns('Direct'), ['DisplayName']);
  assert.deepEqual(await visibleColumns('Direct'), ['DisplayName']); // cached
  await f.db.putSavedSearch({ Name: 'Direct', Fields: ['City'], CreatedAt: now, UpdatedAt: now });
  assert.deepEqual(await visibleColumns('Direct'), ['City']);
  await f.db.deleteSavedSearch('Direct');
  await assert.rejects(invoke('GetSearchResultHeaders', { View: 'Direct' }), {
    code: 'InvalidValue',
  });
});

test('4. a read answered while a write runs is not kept past the write', async () => {
  // A saved search: no index version moves, only the cache's own write bracket protects this.
  await pr({ Request: 'SaveSearch', Name: 'Busy', Fields: ['City'] });
  assert.deepEqual(await visibleColumns('Busy'), ['City']);
  const write = pr({ Request: 'SaveSearch', Name: 'Busy', Fields: ['Phones'] });
  assert.deepEqual(await visibleColumns('Busy'), ['City'], 'answered before the write landed');
  await write;
  assert.deepEqual(await visibleColumns('Busy'), ['Phones']);
});

test('5. InternalUse is never served from the cache', async () => {
  const h = hits();
  const a = await invoke('GetSearchResults', { Query: 'bob' }, 'InternalUse');
  const b = await invoke('GetSearchResults', { Query: 'bob' }, 'InternalUse');
  assert.notEqual(a, b);
  assert.equal(hits(), h);
  assert.ok('ElapsedMicroseconds' in JSON.parse((b as { text: string }).text).Internal);
});

test('6. a hit still authorises the caller', async () => {
  const params = JSON.stringify({ Query: 'bob' });
  const call = (key?: ApiKey) =>
    f.service.invoke({
      op: 'GetSearchResults',
      StringOfJSONParameters: params,
      DBName: 'Demo',
      AsType: 'JSON',
      caller: { binding: 'soap11', loopback: false, keyId: key?.id, key },
    });
  const reader: ApiKey = { id: 'reader', scopes: new Set(['read']), databases: '*' };
  const other: ApiKey = {
    id: 'other',
    scopes: new Set(['read']),
    databases: new Set(['elsewhere']),
  };
  const writer: ApiKey = { id: 'writer', scopes: new Set(['write']), databases: '*' };
  const first = await call(reader);
  const h = hits();
  assert.equal(await call(reader), first);
  assert.equal(hits(), h + 1, 'the second call is a hit');
  await assert.rejects(
    call(other),
    (e: ServiceError) => e.code === 'Forbidden' && e.parameter === 'DBName',
  );
  await assert.rejects(call(writer), (e: ServiceError) => e.code === 'Forbidden');
});

test('7. errors are never kept, and the first fault reported is the same with the cache', async () => {
  const call = (StringOfJSONParameters: string, DBName = 'Demo') =>
    f.service.invoke({
      op: 'GetSearchResults',
      StringOfJSONParameters,
      DBName,
      AsType: 'JSON',
      caller: { binding: 'soap11', loopback: true },
    });
  for (let i = 0; i < 2; i++) {
    await assert.rejects(call('{"Query": '), (e: ServiceError) => e.code === 'InvalidJson');
    await assert.rejects(
      call('{"Query": ', 'Nowhere'),
      (e: ServiceError) => e.code === 'InvalidJson',
      'JSON is checked before DBName',
    );
    await assert.rejects(
      call('{"Query": "ann"}', 'Nowhere'),
      (e: ServiceError) => e.code === 'UnknownDatabase',
    );
    await assert.rejects(call('{"Bogus": 1}'), (e: ServiceError) => e.code === 'UnknownMember');
  }
  await call('{"Query": "ann"}');
  await assert.rejects(
    call('{"Query": "ann"}', 'Nowhere'),
    (e: ServiceError) => e.code === 'UnknownDatabase',
    'a cached answer for Demo is not one for another name',
  );
});

test('8. kept on repeat (the default): the third request is the first hit; distinct ones keep nothing', async () => {
  const g = await fixture([contact('a1', 'Ann', 'Lee'), contact('b1', 'Bob', 'Ray')]);
  try {
    const stats = () => g.service.stats!().resultCache;
    const ask = (Query: string) =>
      g.service.invoke({
        op: 'GetSearchResults',
        StringOfJSONParameters: JSON.stringify({ Query }),
        DBName: 'Demo',
        AsType: 'JSON',
        caller: { binding: 'soap11', loopback: true },
      });
    for (const q of ['a', 'an', 'b', 'bo', 'le', 'ra']) await ask(q);
    assert.deepEqual(
      { hits: stats().hits, entries: stats().entries },
      { hits: 0, entries: 0 },
      'distinct requests: nothing kept',
    );
    const first = await ask('ann');
    const second = await ask('ann');
    assert.notEqual(second, first, 'the first was not kept');
    assert.equal(stats().entries, 1, 'the second is');
    assert.equal(await ask('ann'), second, 'the third is a hit: the kept object');
    assert.equal(stats().hits, 1);
  } finally {
    await g.close();
  }
});
