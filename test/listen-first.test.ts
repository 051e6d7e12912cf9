/**
 * The port opened before the service is loaded (src/http/listen-first.ts, issue 25):
 * 1. before the service is attached, /healthz answers 503 `loading` naming every configured database;
 * 2. any other request sent meanwhile is held, unread, and answered by the service once attached,
 *    its body intact; requests after that go straight to the service (so does /healthz);
 * 3. past limits.heldRequests held at once, a request gets its binding's Unavailable fault at once
 *    (SOAP 1.1, SOAP 1.2, JSON, HTTP GET; plain text elsewhere) with Retry-After, and those held
 *    are still answered by the service once attached.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { defaultConfig } from '../src/config.ts';
import { earlyServer } from '../src/http/listen-first.ts';

test('early server: /healthz loading, other requests held until the service is attached', async () => {
  const config = defaultConfig();
  config.databases = [
    { name: 'Demo', backend: 'sqlite' },
    { name: 'Other', backend: 'sqlite' },
  ];
  const early = earlyServer(config);
  await new Promise<void>((done) => early.server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(early.server.address() as AddressInfo).port}`;
  try {
    const health = await fetch(`${base}/healthz`);
    assert.equal(health.status, 503);
    assert.deepEqual(await health.json(), {
      status: 'loading',
      loading: [
        { database: 'Demo', contactsRead: 0 },
        { database: 'Other', contactsRead: 0 },
      ],
    });

    let arrived!: () => void;
    const seen = new Promise<void>((done) => (arrived = done));
    const held = fetch(`${base}/some/path`, { method: 'POST', body: 'the body' });
    // The request reaches the server before the service is there: the early server keeps it.
    early.server.once('request', () => arrived());
    await seen;
    early.attach((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => (body += d));
      req.on('end', () => res.end(`${req.method} ${req.url} ${body}`));
    });
    const answer = await held;
    assert.equal(await answer.text(), 'POST /some/path the body');
    const after = await fetch(`${base}/healthz`);
    assert.equal(await after.text(), 'GET /healthz ');
  } finally {
    early.server.closeAllConnections();
    await new Promise((done) => early.server.close(done));
  }
});

test("early server: past limits.heldRequests, the binding's Unavailable fault at once", async () => {
  const config = defaultConfig();
  config.limits.heldRequests = 2;
  const early = earlyServer(config);
  await new Promise<void>((done) => early.server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(early.server.address() as AddressInfo).port}`;
  const endpoint = `${base}/DesktopModules/ContactSearch_Common/WebServices/API.asmx`;
  try {
    let arrivals = 0;
    let twoHeld!: () => void;
    const seen = new Promise<void>((done) => (twoHeld = done));
    early.server.on('request', () => ++arrivals === 2 && twoHeld());
    const held = [1, 2].map((i) => fetch(`${base}/held/${i}`, { method: 'POST', body: `b${i}` }));
    await seen;

    const soap11 = await fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '"x"' },
      body: '<x/>',
    });
    assert.equal(soap11.status, 500);
    assert.equal(soap11.headers.get('retry-after'), '1');
    const fault = await soap11.text();
    assert.match(fault, /<faultcode>soap:Server<\/faultcode>/);
    assert.match(fault, /<Error Code="Unavailable">/);
    assert.match(fault, /limits\.heldRequests/);

    const soap12 = await fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/soap+xml; charset=utf-8' },
      body: '<x/>',
    });
    assert.equal(soap12.status, 500);
    assert.match(await soap12.text(), /<soap:Value>soap:Receiver<\/soap:Value>/);

    const json = await fetch(`${endpoint}/SearchContacts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(json.status, 503);
    assert.equal((await json.json()).Code, 'Unavailable');

    const get = await fetch(`${endpoint}/SearchContacts?DBName=Demo`);
    assert.equal(get.status, 503);
    assert.equal(get.headers.get('x-error-code'), 'Unavailable');

    const elsewhere = await fetch(`${base}/other`);
    assert.equal(elsewhere.status, 503);
    assert.match(await elsewhere.text(), /service is starting/);

    // /healthz is never held, so never turned away.
    const health = await fetch(`${base}/healthz`);
    assert.equal(health.status, 503);
    assert.equal(((await health.json()) as { status: string }).status, 'loading');

    early.attach((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => (body += d));
      req.on('end', () => res.end(`${req.url} ${body}`));
    });
    assert.deepEqual(await Promise.all(held.map(async (r) => (await r).text())), [
      '/held/1 b1',
      '/held/2 b2',
    ]);
  } finally {
    early.server.closeAllConnections();
    await new Promise((done) => early.server.close(done));
  }
});
