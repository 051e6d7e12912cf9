/**
 * Slow clients cannot hold connections (issue "Security …", CONTRACT §7). Properties checked:
 * 1. A client that has not finished its headers within limits.headerMs gets 408 and is disconnected.
 * 2. A client that sends its headers but not its whole body within limits.requestMs likewise.
 * 3. A client that sends in time is answered (the limits are the client's, not the server's work).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { defaultConfig, DEFAULT_LIMITS, type Config } from '../src/config.ts';
import { createServer } from '../src/http/server.ts';
import { echoService } from './support/echo-service.ts';

const config: Config = {
  ...defaultConfig(),
  limits: { ...DEFAULT_LIMITS, headerMs: 300, requestMs: 600 },
};
const PATH = `/DesktopModules/${config.module}_Common/WebServices/API.asmx`;
const server = createServer({ config, service: echoService });
let port = 0;
before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** Sends `parts` (then nothing more); resolves with what the server wrote and how long until it closed. */
function trickle(parts: string[]): Promise<{ text: string; closedAfter: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1', () => {
      for (const p of parts) socket.write(p);
    });
    let text = '';
    socket.on('data', (d) => {
      text += d;
    });
    socket.on('close', () => resolve({ text, closedAfter: performance.now() - started }));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after 5 s; got ${JSON.stringify(text)}`));
    }, 5000);
  });
}

test('1. unfinished headers: 408 and closed', async () => {
  const r = await trickle([`GET ${PATH}?WSDL HTTP/1.1\r\nHost: x\r\n`]);
  assert.match(r.text, /^HTTP\/1\.1 408/);
  assert.ok(
    r.closedAfter >= 300,
    `closed after ${Math.round(r.closedAfter)} ms, not before the limit`,
  );
});

test('2. unfinished body: 408 and closed', async () => {
  const r = await trickle([
    `POST ${PATH}/GetSearchFilters HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nDBName=De`,
  ]);
  assert.match(r.text, /^HTTP\/1\.1 408/);
  assert.ok(
    r.closedAfter >= 600,
    `closed after ${Math.round(r.closedAfter)} ms, not before the limit`,
  );
});

test('3. a client in time is answered', async () => {
  const r = await trickle([`GET ${PATH}?WSDL HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]);
  assert.match(r.text, /^HTTP\/1\.1 200/);
});
