/**
 * The request log in one process, with a logger that keeps what it is given (src/log.ts). Properties checked:
 * 1. An unexpected failure is logged at error with the request id of that request's debug line, the
 *    operation and binding, and the error's class and stack frames, but not its message (which can
 *    quote input: here an email and a name), and it is counted under outcome Internal.
 * 2. A client that gives up before its body is read is logged at info, not as an error or warning.
 * 3. At info, no request line is written; the same failure still is, with its request id.
 */
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { defaultConfig, DEFAULT_LIMITS } from '../src/config.ts';
import { createServer } from '../src/http/server.ts';
import { createLogger, type LogLevel } from '../src/log.ts';
import type { Service } from '../src/service/types.ts';
import { callIn } from './support/bindings.ts';
import { echoService } from './support/echo-service.ts';
import { scrape } from './support/metrics-text.ts';

const LEAK = 'leaky.person@example.org Wilhelmina';
/** The echo double, but an operation asked for `!boom` fails as a bug would: a plain Error quoting its input. */
const failing: Service = {
  async invoke(req) {
    if (req.StringOfJSONParameters === '!boom') throw new TypeError(`cannot read ${LEAK}`);
    return echoService.invoke(req);
  },
};

async function withServer(
  level: LogLevel,
  run: (base: string, endpoint: string) => Promise<void>,
): Promise<Record<string, unknown>[]> {
  let text = '';
  const destination = new Writable({
    write(chunk, _enc, done) {
      text += chunk;
      done();
    },
  });
  const config = { ...defaultConfig(), limits: { ...DEFAULT_LIMITS, requestMs: 400 } };
  const server = createServer({
    config,
    service: failing,
    logger: createLogger({ level, destination }),
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await run(base, `${base}/DesktopModules/${config.module}_Common/WebServices/API.asmx`);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  assert.ok(!text.includes('leaky') && !text.includes('Wilhelmina'), text);
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const boom = (endpoint: string) =>
  callIn('soap12', endpoint, 'GetSearchFilters', {
    StringOfJSONParameters: '!boom',
    DBName: 'Demo',
    AsType: 'JSON',
  });

test('1. an unexpected failure: logged at error with its request id, without its message; counted as Internal', async () => {
  let before = 0;
  let after = 0;
  const labels = { operation: 'GetSearchFilters', binding: 'soap12', outcome: 'Internal' };
  const lines = await withServer('debug', async (base, endpoint) => {
    before = (await scrape(base)).sum('contact_search_requests_total', labels);
    const r = await boom(endpoint);
    assert.equal(r.status, 500);
    assert.match(r.text, /Code="Internal"/);
    assert.doesNotMatch(r.text, /leaky/);
    after = (await scrape(base)).sum('contact_search_requests_total', labels);
  });
  assert.equal(after - before, 1);
  const errors = lines.filter((l) => l.level === 'error');
  assert.equal(errors.length, 1, JSON.stringify(lines));
  const [e] = errors;
  assert.deepEqual(
    [e.msg, e.op, e.binding, e.errorType],
    ['operation failed', 'GetSearchFilters', 'soap12', 'TypeError'],
  );
  assert.ok(
    Array.isArray(e.stack) && (e.stack as string[]).every((f) => f.startsWith('at ')),
    JSON.stringify(e.stack),
  );
  const request = lines.find((l) => l.msg === 'request' && l.op === 'GetSearchFilters');
  assert.ok(request, 'its request line');
  assert.equal(e.reqId, request.reqId);
  assert.deepEqual([request.level, request.status, request.outcome], ['debug', 500, 'Internal']);
});

test('2. a client that gives up is not an error', async () => {
  const lines = await withServer('debug', async (base) => {
    const { port } = new URL(base);
    await new Promise<void>((done, fail) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          `POST /DesktopModules/ContactSearch_Common/WebServices/API.asmx/GetSearchFilters HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nDBName=De`,
        ),
      );
      socket.on('data', () => {});
      socket.on('close', () => done());
      socket.on('error', fail);
    });
  });
  const gaveUp = lines.filter((l) => l.op === 'GetSearchFilters');
  assert.equal(gaveUp.length, 1, JSON.stringify(lines));
  assert.equal(gaveUp[0].level, 'info');
  assert.match(String(gaveUp[0].msg), /not read in full/);
  assert.deepEqual(
    lines.filter((l) => l.level === 'error' || l.level === 'warn'),
    [],
  );
});

test('3. at info: no request lines; a failure still carries its request id', async () => {
  const lines = await withServer('info', async (base, endpoint) => {
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
    assert.equal(
      (
        await callIn('json', endpoint, 'GetSearchFilters', {
          StringOfJSONParameters: '{}',
          DBName: 'Demo',
          AsType: 'JSON',
        })
      ).status,
      200,
    );
    assert.equal((await boom(endpoint)).status, 500);
  });
  assert.deepEqual(
    lines.filter((l) => l.level === 'debug'),
    [],
  );
  assert.equal(lines.length, 1, JSON.stringify(lines));
  assert.equal(lines[0].level, 'error');
  assert.match(String(lines[0].reqId), /^\w+-\w+$/);
});
