/**
 * PostgreSQL away for one node, through a proxy the test cuts (test/support/pg-proxy.ts), over the real
 * PostgreSQL and the real HTTP server. Properties checked:
 * 1. While the node cannot reach PostgreSQL: /healthz is 503 naming the database (and /metrics'
 *    contact_search_database_up is 0); searches answer from
 *    the index; a write is refused Unavailable on each binding (JSON 503, GET 503 text/plain with
 *    X-Error-Code, SOAP soap:Server fault with the code in detail) and is not in the database; the
 *    process stays up. Once back: /healthz 200, the node catches up from the change table with what
 *    another node committed meanwhile (its NOTIFY was never heard), and writes pass again.
 * 2. A COMMIT that reached PostgreSQL but whose answer was lost: the write is answered Unavailable
 *    saying it may have been applied (never OK), and the node reads it back into its index (the change
 *    feed leaves out a node's own rows, so nothing else would).
 * 3. PostgreSQL that stops answering without an error (a cut network) while the node has another's
 *    change to read: searches are still answered from the index (not held until the store's query
 *    timeout); once it answers again the node has the change.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { operation, requestNamespace, soapAction } from '../src/operations/table.ts';
import { createService } from '../src/service/index.ts';
import type { IndexedContactDatabase } from '../src/database/contact-database.ts';
import { openDatabase, registryOf } from '../src/database/registry.ts';
import { contact } from './cases/store.case.ts';
import { dropSchema, PG_URL, pgQuery, withPostgres } from './support/pg.ts';
import { pgProxy, type PgProxy } from './support/pg-proxy.ts';
import { startServer, type Running } from './support/server.ts';

const schema = `contacts_outage_${process.pid}`;
const NAME = 'PgOut';

/** Polls `check` every 25 ms for up to `ms` (recovery includes a reconnect backoff of up to ~5 s). */
async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 25)))
    if (await check()) return true;
  return false;
}

await withPostgres('PostgreSQL outage through a proxy', () => {
  let proxy: PgProxy;
  let a: IndexedContactDatabase; // the node behind the proxy, served over HTTP
  let b: IndexedContactDatabase; // another node, straight to PostgreSQL
  let http: Running;
  const warnings: string[] = [];

  before(async () => {
    await dropSchema(schema);
    proxy = await pgProxy({ host: '127.0.0.1', port: 5432 }, new URL(PG_URL).pathname.slice(1));
    a = await openDatabase(
      { name: NAME, backend: 'postgres', url: proxy.url, schema },
      '/nonexistent',
      () => {},
      (m) => warnings.push(m),
    );
    b = await openDatabase(
      { name: NAME, backend: 'postgres', url: PG_URL, schema },
      '/nonexistent',
    );
    http = await startServer(
      createService({
        databases: registryOf(new Map([[NAME.toLowerCase(), a]])),
        limits: DEFAULT_LIMITS,
      }),
    );
  });
  after(async () => {
    await http?.close();
    await a?.close();
    await b?.close();
    await proxy?.close();
    await dropSchema(schema);
  });

  const params = (p: object) =>
    JSON.stringify({ StringOfJSONParameters: JSON.stringify(p), DBName: NAME, AsType: 'JSON' });
  async function json(op: string, p: object) {
    const r = await fetch(`${http.endpoint}/${op}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: params(p),
    });
    return {
      status: r.status,
      body: (await r.json()) as { d?: string; Code?: string; Message?: string },
    };
  }
  const ids = async (query: string) => {
    const r = await json('GetSearchResults', { Query: query });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return (JSON.parse(r.body.d!) as { Rows: { ContactId: string }[] }).Rows.map(
      (x) => x.ContactId,
    ).sort();
  };
  const upsert = (...cs: ReturnType<typeof contact>[]) =>
    json('ProcessRequest', { Request: 'UpsertContacts', DBName: NAME, Contacts: cs });
  const healthz = async () => {
    const r = await fetch(`${http.base}/healthz`);
    return { status: r.status, text: await r.text() };
  };
  /** contact_search_database_up of this database on /metrics (prom-client's text format). */
  const databaseUp = async () => {
    const text = await (await fetch(`${http.base}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('contact_search_database_up{') && l.includes(`database="${NAME}"`));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  const inStore = async (id: string) =>
    (await pgQuery(`SELECT 1 FROM "${schema}".contacts WHERE contact_id = $1`, [id])).rowCount;

  test('1. PostgreSQL away: reads from the index, writes refused Unavailable, /healthz 503; back: caught up', async () => {
    assert.equal((await upsert(contact('c1', 'Ada', 'Lovelace'))).status, 200);
    assert.deepEqual(await healthz(), { status: 200, text: 'ok\n' });

    await proxy.cut();
    assert.ok(
      await until(() => !a.status().up),
      'the node notices at once (its LISTEN connection dropped)',
    );
    const h = await healthz();
    assert.equal(h.status, 503);
    assert.match(h.text, /^database PgOut unavailable: PostgreSQL/);
    assert.equal(await databaseUp(), 0, '/metrics says the database is down too');

    assert.deepEqual(await ids('lovelace'), ['c1'], 'a search answers from the index');
    const viaJson = await upsert(contact('c2', 'Charles', 'Babbage'));
    assert.deepEqual([viaJson.status, viaJson.body.Code], [503, 'Unavailable']);
    const q = new URLSearchParams({
      StringOfJSONParameters: JSON.stringify({
        Request: 'DeleteContacts',
        DBName: NAME,
        ContactIds: ['c1'],
      }),
      DBName: NAME,
    });
    const viaGet = await fetch(`${http.endpoint}/ProcessRequest?${q}`);
    assert.deepEqual(
      [
        viaGet.status,
        viaGet.headers.get('content-type')?.split(';')[0],
        viaGet.headers.get('x-error-code'),
      ],
      [503, 'text/plain', 'Unavailable'],
    );
    const op = operation('ProcessRequest')!;
    const soapBody = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ProcessRequest xmlns="${requestNamespace(op, 'tempuri.org')}"><StringOfJSONParameters>${JSON.stringify({ Request: 'DeleteContacts', DBName: NAME, ContactIds: ['c1'] })}</StringOfJSONParameters><DBName>${NAME}</DBName></ProcessRequest></soap:Body></soap:Envelope>`;
    const viaSoap = await fetch(http.endpoint, {
      method: 'POST',
      headers: {
        'Content-Type': 'text/xml; charset=utf-8',
        SOAPAction: `"${soapAction(op, 'tempuri.org')}"`,
      },
      body: soapBody,
    });
    const fault = await viaSoap.text();
    assert.equal(viaSoap.status, 500);
    assert.match(fault, /<faultcode>soap:Server<\/faultcode>.*<detail><Error Code="Unavailable"/);

    await b.write({ upsert: [contact('c3', 'Grace', 'Hopper')] }); // another node commits meanwhile: its NOTIFY is lost on this one
    assert.equal(await inStore('c2'), 0, 'the refused write is not in the database');
    assert.equal(await inStore('c1'), 1, 'the refused delete deleted nothing');

    await proxy.restore();
    assert.ok(
      await until(async () => (await healthz()).status === 200),
      '/healthz 200 once the LISTEN connection is back',
    );
    assert.equal(await databaseUp(), 1, 'and /metrics that it is up');
    assert.ok(
      await until(async () => (await ids('hopper')).includes('c3')),
      'caught up from the change table',
    );
    assert.equal(
      (await upsert(contact('c2', 'Charles', 'Babbage'))).status,
      200,
      'writes pass again',
    );
    assert.equal(await inStore('c2'), 1);
    assert.ok(
      warnings.some((w) => /PostgreSQL connection lost/.test(w)),
      `the loss was logged: ${warnings.join(' | ')}`,
    );
  });

  test('2. a COMMIT whose answer is lost: answered "may have been applied", and read back into the index', async () => {
    proxy.loseNextCommitAnswer();
    const r = await upsert(contact('c4', 'Katherine', 'Johnson'));
    assert.deepEqual([r.status, r.body.Code], [503, 'Unavailable']);
    assert.match(r.body.Message!, /may or may not have been applied/);
    assert.equal(await inStore('c4'), 1, 'PostgreSQL did commit it');
    assert.ok(
      await until(async () => (await ids('katherine johnson')).includes('c4')),
      'the node reads its own unsure write back',
    );
    assert.ok(
      await until(async () => {
        await b.sync();
        return b.get('c4') !== undefined;
      }),
      'and the other node has it',
    );
  });

  test('3. a store that hangs does not hold searches up; once it answers, the change is in', async () => {
    await b.write({ upsert: [contact('c5', 'Hedy', 'Lamarr')] });
    assert.ok(
      await until(async () => (await ids('lamarr')).includes('c5')),
      'a has it through the feed',
    );
    await b.write({ upsert: [contact('c6', 'Hedwig', 'Lamarr')] });
    await new Promise((r) => setTimeout(r, 200)); // its NOTIFY reaches a: the next answer reads the feed
    proxy.hang();
    try {
      for (let i = 0; i < 3; i++) {
        const r = await fetch(`${http.endpoint}/GetSearchResults`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: params({ Query: 'lamarr' }),
          signal: AbortSignal.timeout(10_000),
        }); // the store's own query timeout is 60 s
        assert.equal(r.status, 200, `search ${i} answered while the store hangs`);
      }
    } finally {
      proxy.flow();
    }
    assert.ok(
      await until(async () => (await ids('lamarr')).join() === 'c5,c6'),
      'the change is in once the store answers',
    );
  });
});
