/**
 * The HTTP front beyond what golden/ shows. Properties checked:
 * 1. zeep's SOAPAction header on SOAP 1.2 is ignored; `%uXXXX` in GET/POST fields decodes.
 * 2. Body and query-string limits answer PayloadTooLarge / 400, not a crash.
 * 3. The AJAX JSON binding answers {"d":…} and errors as {"Message","Code"}.
 * 4. API keys: 401 with WWW-Authenticate without or with wrong credentials, Forbidden for a missing scope or database.
 * 5. The help pages: the test form only for loopback callers; every operation page has the four samples.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { OPERATIONS, type OperationDef } from '../src/operations/table.ts';
import { operationPage } from '../src/protocol/help-page.ts';
import { contact } from './cases/store.case.ts';
import { startRealService, type RealService } from './support/real-service.ts';

let svc: RealService;
let secured: RealService;
before(async () => {
  const people = [contact('z1', 'Zoë', 'Ångström')];
  svc = await startRealService({
    contacts: people,
    config: { limits: { ...(await import('../src/config.ts')).DEFAULT_LIMITS, bodyBytes: 4096 } },
  });
  secured = await startRealService({
    contacts: people,
    config: {
      limits: {
        ...(await import('../src/config.ts')).DEFAULT_LIMITS,
        keyRequestsPerSecond: 1,
        keyBurst: 8,
      },
      keys: [
        { id: 'reader', secret: 'r-secret', scopes: ['read'], databases: ['Demo'] },
        {
          id: 'other',
          secret: `sha256:${createHash('sha256').update('o-secret').digest('hex')}`,
          scopes: ['read', 'write'],
          databases: ['Sales'],
        },
      ],
    },
  });
});
after(async () => {
  await svc?.close();
  await secured?.close();
});

const envelope12 = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body>${body}</soap12:Body></soap12:Envelope>`;
const gsr = (json: string) =>
  `<GetSearchResults xmlns="http://tempuri.org/API/GetSearchResultsRequestData"><StringOfJSONParameters>${json}</StringOfJSONParameters><DBName>Demo</DBName><AsType>JSON</AsType></GetSearchResults>`;

test('1. SOAPAction on SOAP 1.2 is ignored; %u decodes', async () => {
  const r = await fetch(svc.endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/soap+xml; charset=utf-8',
      SOAPAction: '"http://tempuri.org/API/GetSearchFilters"',
    },
    body: envelope12(gsr('{"Query":"zoe"}')),
  });
  assert.equal(r.status, 200);
  assert.match(await r.text(), /<GetSearchResultsResult xsi:type="xsd:string">\{"Total":1,/);
  const g = await fetch(
    `${svc.endpoint}/GetSearchResults?StringOfJSONParameters=%7B%22Query%22%3A%22Zo%u00EB%22%7D&DBName=Demo&AsType=JSON`,
  );
  assert.match(await g.text(), /"Total":1,/);
  const p = await fetch(`${svc.endpoint}/GetSearchResults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'StringOfJSONParameters=%7B%22Query%22%3A%22%u00C5ngstr%u00F6m%22%7D&DBName=Demo&AsType=JSON',
  });
  assert.match(await p.text(), /"Total":1,/);
});

test('2. size limits', async () => {
  const big = gsr(`{"Query":"${'x'.repeat(5000)}"}`);
  const r = await fetch(svc.endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/soap+xml; charset=utf-8' },
    body: envelope12(big),
  });
  assert.equal(r.status, 500);
  assert.match(await r.text(), /<Error Code="PayloadTooLarge"/);
  const q = await fetch(
    `${svc.endpoint}/GetSearchResults?StringOfJSONParameters=${'a'.repeat(3000)}&DBName=Demo&AsType=JSON`,
  );
  assert.equal(q.status, 400);
});

test('3. the AJAX JSON binding', async () => {
  const ok = await fetch(`${svc.endpoint}/GetSearchResults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      StringOfJSONParameters: '{"Query":"zoe"}',
      DBName: 'Demo',
      AsType: 'InternalUse',
    }),
  });
  const d = JSON.parse(((await ok.json()) as { d: string }).d);
  assert.equal(d.Total, 1);
  assert.equal(d.Internal.Backend, 'sqlite');
  assert.equal(typeof d.Internal.ElapsedMicroseconds, 'number');
  const bad = await fetch(`${svc.endpoint}/GetSearchResults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      StringOfJSONParameters: '{"Sort":[{"Field":"Nope"}]}',
      DBName: 'Demo',
      AsType: 'JSON',
    }),
  });
  assert.equal(bad.status, 400);
  assert.equal(((await bad.json()) as { Code: string }).Code, 'UnknownField');
});

test('4. API keys: 401, then scope and database checks', async () => {
  const url = `${secured.endpoint}/GetSearchResults?StringOfJSONParameters=%7B%7D&DBName=Demo&AsType=JSON`;
  const none = await fetch(url);
  assert.equal(none.status, 401);
  assert.match(none.headers.get('www-authenticate') ?? '', /^Basic /);
  const wrong = await fetch(url, {
    headers: { Authorization: `Basic ${Buffer.from('reader:nope').toString('base64')}` },
  });
  assert.equal(wrong.status, 401);
  const ok = await fetch(url, {
    headers: { Authorization: `Basic ${Buffer.from('reader:r-secret').toString('base64')}` },
  });
  assert.equal(ok.status, 200);
  const otherDb = await fetch(url, { headers: { Authorization: 'Bearer other:o-secret' } });
  assert.equal(otherDb.status, 500);
  assert.match(await otherDb.text(), /may not use database/);
  const write = await fetch(`${secured.endpoint}/ProcessRequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer reader:r-secret' },
    body: JSON.stringify({
      StringOfJSONParameters: JSON.stringify({
        Request: 'DeleteContacts',
        DBName: 'Demo',
        ContactIds: ['z1'],
      }),
    }),
  });
  assert.equal(write.status, 403);
  assert.equal(((await write.json()) as { Code: string }).Code, 'Forbidden');
  assert.ok(secured.databases.get('Demo').get('z1'), 'a forbidden write changed nothing');
  const wsdl = await fetch(`${secured.endpoint}?WSDL`);
  assert.equal(wsdl.status, 200, 'the WSDL is public: it holds no data');
});

test('4b. a key over its rate limit gets 429 with Retry-After', async () => {
  const url = `${secured.endpoint}/GetSearchResultHeaders?StringOfJSONParameters=%7B%7D&DBName=Demo&AsType=JSON`;
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++)
    statuses.push(
      (await fetch(url, { headers: { Authorization: 'Bearer other:o-secret' } })).status,
    );
  assert.ok(statuses.includes(429), `statuses ${statuses}`);
  const limited = await fetch(url, { headers: { Authorization: 'Bearer other:o-secret' } });
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
});

test('5. help pages: samples for every operation, test form for loopback only', async () => {
  for (const op of OPERATIONS as readonly OperationDef[]) {
    const local = operationPage(op, 'tempuri.org', 'h', '/x/API.asmx', true);
    const remote = operationPage(op, 'tempuri.org', 'h', '/x/API.asmx', false);
    for (const s of ['SOAP 1.1', 'SOAP 1.2', 'HTTP GET', 'HTTP POST'])
      assert.ok(local.includes(`<h2>${s}</h2>`), `${op.name} has a ${s} sample`);
    assert.match(local, new RegExp(`<form[^>]+action="/x/API.asmx/${op.name}" method="POST"`));
    assert.doesNotMatch(remote, /<form/);
  }
  const page = await fetch(`${svc.endpoint}?op=GetRequestSupport`);
  const html = await page.text();
  assert.match(html, /SOAPAction: "http:\/\/tempuri.org\/API\/GetRequestSupportParameters"/);
  assert.match(html, /<form/);
});
