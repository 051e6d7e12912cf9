/**
 * /metrics after real operations over HTTP (issue 20; docs/MONITORING.md). Properties checked:
 * 1. A request in each binding moves contact_search_requests_total and the latency histogram's count
 *    by exactly one, with its operation, binding and outcome ok; the histogram is well formed
 *    (cumulative buckets, +Inf equal to the count).
 * 2. Failures are counted under their error code: an operation's (UnknownMember), one found before
 *    any operation is known (malformed XML: operation unknown, InvalidXml), an unknown operation.
 * 3. Per database: up, contacts, index bytes; an import via ProcessRequest sets the last import's rows
 *    and duration, and store-query timings (commit, put) move; a Replace import rebuilds the index,
 *    so its age drops.
 * 4. Change-feed lag: contacts another writer committed show as lag until a request applies them.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { openStore } from '../src/database/registry.ts';
import { applyChange } from '../src/store/store.ts';
import { contact } from './cases/store.case.ts';
import { BINDINGS, callIn } from './support/bindings.ts';
import { PEOPLE } from './support/fixture.ts';
import { scrape } from './support/metrics-text.ts';
import { startRealService, type RealService } from './support/real-service.ts';

let svc: RealService;
before(async () => {
  svc = await startRealService({ contacts: PEOPLE });
});
after(async () => {
  await svc?.close();
});

const REQUESTS = 'contact_search_requests_total';
const SECONDS = 'contact_search_request_duration_seconds';
const search = (json: string) => ({ StringOfJSONParameters: json, DBName: 'Demo', AsType: 'JSON' });
const processRequest = (params: object) =>
  callIn('json', svc.endpoint, 'ProcessRequest', {
    StringOfJSONParameters: JSON.stringify({ DBName: 'Demo', ...params }),
    DBName: 'Demo',
  });

test('1. each binding: counted once, by operation, binding and outcome ok; the histogram is well formed', async () => {
  for (const binding of BINDINGS) {
    const labels = { operation: 'GetSearchResults', binding, outcome: 'ok' };
    const before = await scrape(svc.base);
    const r = await callIn(
      binding,
      svc.endpoint,
      'GetSearchResults',
      search(`{"Query":"smith ${binding}"}`),
    );
    assert.equal(r.status, 200, r.text);
    const m = await scrape(svc.base);
    assert.equal(m.sum(REQUESTS, labels) - before.sum(REQUESTS, labels), 1, binding);
    assert.equal(
      m.sum(`${SECONDS}_count`, labels) - before.sum(`${SECONDS}_count`, labels),
      1,
      binding,
    );
    assert.equal(
      m.sum(REQUESTS, { binding }) - before.sum(REQUESTS, { binding }),
      1,
      `${binding}: nothing else counted`,
    );
    const buckets = m
      .select(`${SECONDS}_bucket`, labels)
      .map((s) => [s.labels.le === '+Inf' ? Infinity : Number(s.labels.le), s.value] as const)
      .sort((a, b) => a[0] - b[0]);
    assert.ok(buckets.length > 10);
    for (let i = 1; i < buckets.length; i++)
      assert.ok(buckets[i][1] >= buckets[i - 1][1], 'cumulative');
    assert.equal(buckets.at(-1)![0], Infinity);
    assert.equal(buckets.at(-1)![1], m.one(`${SECONDS}_count`, labels));
    assert.ok(m.one(`${SECONDS}_sum`, labels) > 0);
    // The one new observation is in the first bucket whose bound is at least its value, and in every later one.
    const observed = m.sum(`${SECONDS}_sum`, labels) - before.sum(`${SECONDS}_sum`, labels);
    const bound = (le: string) => (le === '+Inf' ? Infinity : Number(le));
    const moved = m
      .select(`${SECONDS}_bucket`, labels)
      .map(
        (s) =>
          [
            bound(s.labels.le),
            s.value - before.sum(`${SECONDS}_bucket`, { ...labels, le: s.labels.le }),
          ] as const,
      );
    for (const [le, delta] of moved)
      assert.equal(
        delta,
        le >= observed ? 1 : 0,
        `${binding}: bucket le=${le} for an observation of ${observed} s`,
      );
  }
  const m = await scrape(svc.base);
  assert.equal(m.types.get(REQUESTS), 'counter');
  assert.equal(m.types.get(SECONDS), 'histogram');
});

test('2. failures are counted under their error code', async () => {
  const before = await scrape(svc.base);
  for (const binding of BINDINGS) {
    const r = await callIn(binding, svc.endpoint, 'GetSearchResults', search('{"Querry":"smith"}'));
    assert.notEqual(r.status, 200);
  }
  const malformed = await fetch(svc.endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8' },
    body: '<soap:Envelope><unclosed>',
  });
  assert.equal(malformed.status, 400);
  assert.equal((await fetch(`${svc.endpoint}/NoSuchOperation?x=1`)).status, 500);
  const m = await scrape(svc.base);
  const moved = (labels: Record<string, string>) =>
    m.sum(REQUESTS, labels) - before.sum(REQUESTS, labels);
  for (const binding of BINDINGS)
    assert.equal(
      moved({ operation: 'GetSearchResults', binding, outcome: 'UnknownMember' }),
      1,
      binding,
    );
  assert.equal(moved({ operation: 'unknown', binding: 'soap11', outcome: 'InvalidXml' }), 1);
  assert.equal(moved({ operation: 'unknown', binding: 'httpget', outcome: 'UnknownOperation' }), 1);
  assert.equal(moved({ outcome: 'ok' }), 0, 'no failure counted as ok');
});

test('3. per database: contacts, index bytes, the last import, store timings, index age', async () => {
  const db = { database: 'Demo', worker: '0' };
  let m = await scrape(svc.base);
  assert.equal(m.one('contact_search_database_up', { ...db, backend: 'sqlite' }), 1);
  assert.equal(m.one('contact_search_database_contacts', db), PEOPLE.length);
  const bytes = m.one('contact_search_index_bytes', db);
  assert.ok(bytes > 1000 && bytes < 10e6, String(bytes));
  assert.equal(m.select('contact_search_last_import_rows', db).length, 0, 'no import yet');
  const commits = m.sum('contact_search_store_query_duration_seconds_count', {
    backend: 'sqlite',
    query: 'commit',
  });
  const puts = m.sum('contact_search_store_query_duration_seconds_count', {
    backend: 'sqlite',
    query: 'put',
  });

  const csv = 'ContactId,First Name,Last Name\nm1,Ida,Imported\nm2,Ola,Imported\nm3,Uma,Imported\n';
  assert.match(
    (await processRequest({ Request: 'ImportContacts', Format: 'CSV', Content: csv })).text,
    /Status=\\?"OK/,
  );
  m = await scrape(svc.base);
  assert.equal(m.one('contact_search_database_contacts', db), PEOPLE.length + 3);
  assert.equal(m.one('contact_search_last_import_rows', db), 3);
  assert.ok(m.one('contact_search_last_import_duration_seconds', db) > 0);
  assert.ok(m.one('contact_search_last_import_timestamp_seconds', db) > 1.7e9);
  assert.equal(
    m.sum('contact_search_store_query_duration_seconds_count', {
      backend: 'sqlite',
      query: 'commit',
    }) - commits,
    1,
  );
  assert.ok(
    m.sum('contact_search_store_query_duration_seconds_count', {
      backend: 'sqlite',
      query: 'put',
    }) > puts,
  );

  await sleep(600);
  const ageBefore = (await scrape(svc.base)).one('contact_search_index_age_seconds', db);
  assert.ok(ageBefore >= 0.5, String(ageBefore));
  const replace = 'ContactId,First Name,Last Name\nr1,Rae,Replaced\nr2,Rob,Replaced\n';
  assert.match(
    (
      await processRequest({
        Request: 'ImportContacts',
        Format: 'CSV',
        Content: replace,
        Mode: 'Replace',
      })
    ).text,
    /Status=\\?"OK/,
  );
  m = await scrape(svc.base);
  assert.ok(
    m.one('contact_search_index_age_seconds', db) < ageBefore,
    'a Replace rebuilds the index',
  );
  assert.equal(m.one('contact_search_database_contacts', db), 2);
  assert.equal(m.one('contact_search_last_import_rows', db), 2);
});

test("4. change-feed lag: another writer's contacts until a request applies them", async () => {
  const db = { database: 'Demo', worker: '0' };
  assert.equal((await scrape(svc.base)).one('contact_search_change_feed_lag', db), 0);
  const other = await openStore({ name: 'Demo', backend: 'sqlite' }, svc.dir); // as the import CLI or another worker would
  try {
    await applyChange(other, {
      upsert: [contact('o1', 'Otto', 'Other'), contact('o2', 'Olga', 'Other')],
    });
  } finally {
    await other.close();
  }
  const m = await scrape(svc.base);
  assert.equal(m.one('contact_search_change_feed_lag', db), 2);
  const before = m.one('contact_search_database_contacts', db);
  assert.equal(
    (await callIn('httpget', svc.endpoint, 'GetSearchResults', search('{"Query":"Other"}'))).status,
    200,
  ); // syncs first
  const after = await scrape(svc.base);
  assert.equal(after.one('contact_search_change_feed_lag', db), 0);
  assert.equal(after.one('contact_search_database_contacts', db), before + 2);
});
