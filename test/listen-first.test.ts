/**
 * The port opened before the service is loaded (src/http/listen-first.ts, issue 25):
 * 1. before the service is attached, /healthz answers 503 `loading` naming every configured database;
 * 2. any other request sent meanwhile is held, unread, and answered by the service once attached,
 *    its body intact; requests after that go straight to the service (so does /healthz).
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
