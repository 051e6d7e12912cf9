/**
 * The per-request time budget (CONTRACT §7 "30 s per request", `limits.requestMs`). Properties checked:
 * 1. An import over a 1 ms budget is a PayloadTooLarge fault over SOAP 1.1 (soap:Client, code in
 *    detail), HTTP POST (500, X-Error-Code) and the JSON binding (413), and the data is unchanged.
 * 2. The same import within the default budget succeeds: the fault in 1 is the budget's, not the file's.
 * 3. An export over budget is a PayloadTooLarge fault.
 * 4. The budget is checked right before the commit: a budget that runs out after validation writes
 *    nothing (the store's write is never started, so it is never cut short half-way).
 * 5. Searches check it in their loops over candidates (query matches, filters, facet counts, sorts,
 *    value ranges): over budget, each search operation is PayloadTooLarge; a small one finishes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { ServiceError } from '../src/errors.ts';
import {
  operation,
  requestNamespace,
  soapAction,
  type OperationDef,
} from '../src/operations/table.ts';
import { CONTENT_TYPE, XML_DECL, SOAP11_NS } from '../src/protocol/constants.ts';
import { escapeText } from '../src/render/xml.ts';
import { createService } from '../src/service/index.ts';
import type { ContactDatabase } from '../src/database/database.ts';
import { openDatabase, registryOf } from '../src/database/registry.ts';
import { contact } from './cases/store.case.ts';
import { startRealService, type RealService } from './support/real-service.ts';

const PEOPLE = [contact('k1', 'Kept', 'One'), contact('k2', 'Kept', 'Two')];
/** Big enough that parsing and validating it takes far more than 1 ms on any machine. */
const ROWS = 3000;
const CSV = [
  'ContactId,First Name,Last Name,E-mail Address',
  ...Array.from({ length: ROWS }, (_, i) => `n${i},New${i},Person${i},n${i}@example.com`),
].join('\r\n');
const IMPORT = JSON.stringify({
  Request: 'ImportContacts',
  DBName: 'Demo',
  Format: 'CSV',
  Content: CSV,
});
const EXPORT = JSON.stringify({ Request: 'ExportContacts', DBName: 'Demo', Format: 'CSV' });

let tight: RealService;
let roomy: RealService;
before(async () => {
  tight = await startRealService({
    contacts: PEOPLE,
    config: { limits: { ...DEFAULT_LIMITS, requestMs: 1 } },
  });
  roomy = await startRealService({ contacts: PEOPLE });
});
after(async () => {
  await tight?.close();
  await roomy?.close();
});

const ids = (svc: RealService) =>
  [...svc.databases.get('Demo').all()].map((c) => `${c.ContactId}@${c.UpdatedAt}`).sort();

function soap11(svc: RealService, json: string): Promise<Response> {
  const op = operation('ProcessRequest') as OperationDef;
  const body =
    `${XML_DECL}<soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><ProcessRequest xmlns="${requestNamespace(op, 'tempuri.org')}">` +
    `<StringOfJSONParameters>${escapeText(json)}</StringOfJSONParameters></ProcessRequest></soap:Body></soap:Envelope>`;
  return fetch(svc.endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': CONTENT_TYPE.soap11,
      SOAPAction: `"${soapAction(op, 'tempuri.org')}"`,
    },
    body,
  });
}

const httpPost = (svc: RealService, json: string) =>
  fetch(`${svc.endpoint}/ProcessRequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ StringOfJSONParameters: json }).toString(),
  });

const ajax = (svc: RealService, json: string) =>
  fetch(`${svc.endpoint}/ProcessRequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ StringOfJSONParameters: json }),
  });

test('1. an import over budget is PayloadTooLarge over SOAP 1.1, HTTP POST and JSON, and changes nothing', async () => {
  const before = ids(tight);
  const s = await soap11(tight, IMPORT);
  const sBody = await s.text();
  assert.equal(s.status, 500);
  assert.match(sBody, /<faultcode>soap:Client<\/faultcode>/);
  assert.equal(/<Error Code="(\w+)"/.exec(sBody)?.[1], 'PayloadTooLarge');
  assert.deepEqual(ids(tight), before, 'SOAP 1.1: data unchanged');

  const p = await httpPost(tight, IMPORT);
  assert.equal(p.status, 500);
  assert.equal(p.headers.get('x-error-code'), 'PayloadTooLarge');
  assert.match(p.headers.get('content-type') ?? '', /^text\/plain/);
  assert.deepEqual(ids(tight), before, 'HTTP POST: data unchanged');

  const j = await ajax(tight, IMPORT);
  assert.equal(j.status, 413);
  assert.equal(((await j.json()) as { Code: string }).Code, 'PayloadTooLarge');
  assert.deepEqual(ids(tight), before, 'JSON: data unchanged');
  assert.equal(tight.databases.get('Demo').size, PEOPLE.length);
});

test('2. the same import within the default budget succeeds', async () => {
  const r = await httpPost(roomy, IMPORT);
  const body = await r.text();
  assert.equal(r.status, 200, body.slice(0, 300));
  assert.match(body, /Inserted=&quot;3000&quot;|Inserted="3000"/);
  assert.equal(roomy.databases.get('Demo').size, PEOPLE.length + ROWS);
});

test('3. an export over budget is PayloadTooLarge', async () => {
  // Fill the tight server's database directly (not through a request, which the budget would stop).
  await tight.databases.get('Demo').write({
    upsert: Array.from({ length: ROWS }, (_, i) => contact(`e${i}`, `Export${i}`, 'Person')),
  });
  const s = await soap11(tight, EXPORT);
  assert.equal(s.status, 500);
  assert.equal(/<Error Code="(\w+)"/.exec(await s.text())?.[1], 'PayloadTooLarge');
});

test('4. a budget that runs out after validation stops the import before the write', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contacts-budget-'));
  const db = await openDatabase({ name: 'Demo', backend: 'sqlite' }, dir);
  try {
    await db.write({ upsert: PEOPLE });
    let clock = 0;
    let spendOnLookup = false;
    let writes = 0;
    // The database as the service sees it: an import's lookup (validation does them) can spend the budget; writes are counted.
    const watched = new Proxy(db, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target) as unknown;
        if (prop === 'write')
          return (...a: Parameters<ContactDatabase['write']>) => {
            writes++;
            return target.write(...a);
          };
        if (prop === 'exclusive') {
          return (work: Parameters<ContactDatabase['exclusive']>[0]) =>
            target.exclusive((tx) =>
              work({
                import: {
                  lookup: (ids) => {
                    if (spendOnLookup) clock += DEFAULT_LIMITS.requestMs + 1;
                    return tx.import.lookup(ids);
                  },
                  begin: (replaceAll) => {
                    writes++;
                    return tx.import.begin(replaceAll);
                  },
                },
              }),
            );
        }
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const service = createService({
      databases: registryOf(new Map([['demo', watched]])),
      limits: DEFAULT_LIMITS,
      clock: () => clock,
    });
    const oneRow = JSON.stringify({
      Request: 'ImportContacts',
      DBName: 'Demo',
      Format: 'CSV',
      Content: 'ContactId,First Name\r\nn1,New',
    });
    const call = () =>
      service.invoke({
        op: 'ProcessRequest',
        StringOfJSONParameters: oneRow,
        DBName: null,
        AsType: null,
        caller: { binding: 'json', loopback: true },
      });

    spendOnLookup = true;
    await assert.rejects(
      call(),
      (e: unknown) => e instanceof ServiceError && e.code === 'PayloadTooLarge',
    );
    assert.equal(writes, 0, 'no write was started');
    assert.equal(db.get('n1'), undefined);

    spendOnLookup = false; // control: the same request with time to spare writes
    const ok = await call();
    assert.equal(writes, 1);
    assert.ok(
      ok.kind === 'text' && ok.text.includes('Status="OK"'),
      ok.kind === 'text' ? ok.text : '',
    );
    assert.ok(db.get('n1'));
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('5. searches over budget stop in their candidate loops', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contacts-budget-'));
  const big = await openDatabase({ name: 'Big', backend: 'sqlite' }, dir);
  const small = await openDatabase({ name: 'Small', backend: 'sqlite' }, dir);
  try {
    await big.write({
      upsert: Array.from({ length: ROWS }, (_, i) =>
        contact(`b${i}`, `Person${i}`, `Family${i % 7}`, { Country: ['DE', 'FR', 'US'][i % 3] }),
      ),
    });
    await small.write({ upsert: PEOPLE });
    // Every clock read after the deadline is made lands a second later: the first sampled check (one per
    // 1,024 loop steps) is over a 500 ms budget, so only work of over a thousand steps can run out.
    let t = 0;
    const service = createService({
      databases: registryOf(
        new Map([
          ['big', big],
          ['small', small],
        ]),
      ),
      limits: { ...DEFAULT_LIMITS, requestMs: 500 },
      clock: () => (t += 1000),
    });
    type Op = Parameters<typeof service.invoke>[0]['op'];
    const call = (op: Op, db: string, params: object) =>
      service.invoke({
        op,
        StringOfJSONParameters: JSON.stringify(params),
        DBName: db,
        AsType: 'JSON',
        caller: { binding: 'json', loopback: true },
      });
    const searches: [Op, object][] = [
      ['GetSearchResults', { Filters: [{ Field: 'Country', Op: 'In', Values: ['DE', 'FR'] }] }],
      ['GetSearchResults', { Query: 'person', PageSize: 5 }],
      ['GetSearchResults', { Sort: [{ Field: 'FirstName', Dir: 'Desc' }] }],
      ['GetSearchFilters', {}],
      ['GetPredictiveOptions', { Field: 'Country', Text: '' }],
    ];
    for (const [op, params] of searches) {
      await assert.rejects(
        call(op, 'Big', params),
        (e: unknown) => e instanceof ServiceError && e.code === 'PayloadTooLarge',
        `${op} ${JSON.stringify(params)}`,
      );
      const ok = await call(op, 'Small', params);
      assert.equal(ok.kind, 'text', `${op} on a small database finishes`);
    }
  } finally {
    await big.close();
    await small.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
