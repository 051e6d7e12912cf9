/**
 * Rate limits on a server without API keys (CONTRACT §7–8). Properties checked:
 * 1. A non-loopback caller over its address's burst gets 429 TooManyRequests with Retry-After, over
 *    HTTP GET and SOAP alike; another address is not affected; loopback callers are never limited.
 * 2. The same through a real socket: a caller reaching the server on a non-loopback interface
 *    address of this machine is limited (skipped when the machine has no such address).
 */
import assert from 'node:assert/strict';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { after, before, test } from 'node:test';
import { defaultConfig, DEFAULT_LIMITS, type Config } from '../src/config.ts';
import { createServer } from '../src/http/server.ts';
import { CONTENT_TYPE, SOAP11_NS, XML_DECL } from '../src/protocol/constants.ts';
import { echoService } from './support/echo-service.ts';

/** A burst of 3, then one request per 100 s: no test is slow enough to earn a token back. */
const config: Config = {
  ...defaultConfig(),
  limits: { ...DEFAULT_LIMITS, ipRequestsPerSecond: 0.01, ipBurst: 3 },
};
const PATH = `/DesktopModules/${config.module}_Common/WebServices/API.asmx`;
const GET_OP = `${PATH}/GetSearchResultHeaders?StringOfJSONParameters=%7B%7D&DBName=Demo&AsType=JSON`;

async function listen(server: http.Server, host: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return `http://${host}:${port}`;
}
const close = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

let simulated: http.Server;
let base = '';
before(async () => {
  // The test plays remote callers by naming their address in a header; without it the socket's peer (loopback) counts.
  simulated = createServer({
    config,
    service: echoService,
    clientAddress: (req) =>
      (req.headers['x-test-peer'] as string | undefined) ?? req.socket.remoteAddress,
  });
  base = await listen(simulated, '127.0.0.1');
});
after(async () => {
  await close(simulated);
});

const get = (peer?: string) =>
  fetch(`${base}${GET_OP}`, { headers: peer ? { 'X-Test-Peer': peer } : {} });

test('1. a remote caller over its burst gets 429 with Retry-After; other addresses and loopback are not affected', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await get('203.0.113.7')).status);
  assert.deepEqual(statuses, [200, 200, 200], 'the burst passes');
  const limited = await get('203.0.113.7');
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get('retry-after')) >= 1, 'Retry-After in whole seconds');
  const soap = await fetch(`${base}${PATH}`, {
    method: 'POST',
    headers: {
      'X-Test-Peer': '203.0.113.7',
      'Content-Type': CONTENT_TYPE.soap11,
      SOAPAction: '"http://tempuri.org/API/GetSearchFilters"',
    },
    body: `${XML_DECL}<soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body/></soap:Envelope>`,
  });
  assert.equal(soap.status, 429, 'SOAP callers share the address bucket');
  assert.equal((await get('203.0.113.8')).status, 200, 'another address has its own bucket');
  for (let i = 0; i < 20; i++) assert.equal((await get()).status, 200, 'loopback is never limited');
});

const interfaceAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

test(
  '2. a caller on a non-loopback interface address is limited through the real socket',
  { skip: interfaceAddress ? false : 'no non-loopback IPv4 address on this machine' },
  async () => {
    const server = createServer({ config, service: echoService });
    try {
      const remoteBase = await listen(server, interfaceAddress!);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await fetch(`${remoteBase}${GET_OP}`)).status);
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    } finally {
      await close(server);
    }
  },
);
