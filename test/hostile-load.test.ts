/**
 * Wire attacks of issue 27, each over every binding it applies to (test/hostile-search.test.ts has
 * the search-cost attacks), against the real server in a child process (test/support/child-service.ts).
 * For each: the attacker gets a documented answer (status and error code), a normal client's request
 * sent meanwhile is answered, and the server is still up; over the whole suite the server's event-loop
 * watchdog (threshold 200 ms here) counts no block (time the process waited for a CPU on a busy
 * machine not counted: event-loop-watchdog.ts). The attacks guarded here blocked for 0.5 s to 103 s
 * before their fixes. With the client in the same process this suite once needed 400 ms and still
 * failed in CI (a 0.48 s block): the client's own multi-MiB bodies and their garbage ran on the loop
 * being watched (0.6 s of main-thread CPU in one tick of test 2 beside two busy processes); out of
 * process, the server showed no block over 100 ms in the same conditions.
 * 1. Deep XML: 100,000 nested elements (SOAP 1.1, 1.2) → InvalidXml; nested inside a ProcessRequest
 *    parameter too.
 * 2. The body limit follows the routed operation, while streaming: a 3 MiB envelope that only
 *    claims ProcessRequest (SOAPAction, `<ProcessRequest ` in a comment, nesting before the
 *    operation element) → PayloadTooLarge; a real 1.5 MiB ProcessRequest is read (SOAP 1.1, 1.2); over
 *    HTTP POST and JSON the URL names the operation (3 MiB GetSearchResults refused, 1.5 MiB ProcessRequest read).
 * 3. Cross-site writes (Origin, Sec-Fetch-Site) over SOAP 1.1, 1.2, GET, POST and JSON → Forbidden,
 *    nothing changed; reads, clients without browser headers and allowedOrigins pages unaffected.
 * 4. Concurrent large bodies: past limits.inflightBodyBytes new ones wait, then 503 with Retry-After;
 *    the bytes held never go over the budget; a declared but unsent body holds nothing.
 * 5. Smaller: UTF-16 bodies; a malformed % in the path (400, no error logged); a client that leaves
 *    mid-body (not logged as an error); two Bodies / operation elements / a repeated parameter
 *    (InvalidRequestFormat); mustUnderstand=" 1 " (MustUnderstand).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import {
  envelope,
  errorCode,
  metric,
  operationElement,
  send,
  soapHeaders,
  withNormalClient,
  type SoapVersion,
} from './support/attack.ts';
import { startChildService, type ChildService } from './support/child-service.ts';

const MiB = 1024 * 1024;
const INFLIGHT = 8 * MiB;
/** A ProcessRequest body that must be read: over the 1 MiB limit of the other operations. */
const REAL = 1.5 * MiB;
const VERSIONS: SoapVersion[] = ['1.1', '1.2'];
let svc: ChildService;
let blocksBefore = 0;

before(
  async () => {
    svc = await startChildService({
      databases: [{ name: 'Demo', backend: 'sqlite', seedDemo: 300 }],
      allowedOrigins: ['https://intranet.example'],
      limits: { eventLoopBlockMs: 200, inflightBodyBytes: INFLIGHT, inflightBodyWaitMs: 300 },
    });
    // A warm-up before the attacks: the first requests of a process compile the code they run (one
    // 180-250 ms late tick in test 1 on a loaded machine, with no attack in it). Test 6 counts the
    // blocks after this point.
    for (const v of VERSIONS) await soap(v, 'GetSearchResults', envelope(v, deepPlain(100)));
    await withNormalClient(svc.endpoint, () => up());
    blocksBefore = await metric(svc.base, 'contact_search_event_loop_blocks_total');
  },
  { timeout: 120_000 },
);
after(() => {
  svc?.close();
});

const soap = (
  v: SoapVersion,
  op: string,
  body: string | Buffer[],
  extra: Record<string, string | number> = {},
) => send(svc.endpoint, { headers: soapHeaders(v, op, extra), body });
const up = async () =>
  assert.equal((await send(`${svc.base}/healthz`)).status, 200, 'the server is still up');
const params = (json: string) => ({ StringOfJSONParameters: json, DBName: 'Demo', AsType: 'JSON' });
const info = (pad = 0) => `{"Request":"GetDatabaseInfo","DBName":"Demo"${' '.repeat(pad)}}`;
const deep = (n: number) => `${'<a:x xmlns:a="urn:a">'.repeat(n)}${'</a:x>'.repeat(n)}`;
/** The issue's attack: 100,000 unprefixed elements, 700 KB (under the 1 MiB limit). */
const deepPlain = (n: number) => `${'<a>'.repeat(n)}${'</a>'.repeat(n)}`;

test('1. deep XML is refused at the nesting limit, over SOAP 1.1 and 1.2', async () => {
  for (const v of VERSIONS) {
    const inBody = await withNormalClient(svc.endpoint, () =>
      soap(v, 'GetSearchResults', envelope(v, deepPlain(100_000))),
    );
    assert.equal(inBody.status, 500);
    assert.equal(errorCode(inBody), 'InvalidXml', inBody.body.slice(0, 300));
    // Inside a parameter of a real operation, where the body limit is ProcessRequest's 64 MiB.
    const inParam = await withNormalClient(svc.endpoint, () =>
      soap(
        v,
        'ProcessRequest',
        envelope(
          v,
          operationElement('ProcessRequest', params(info())).replace(
            '</StringOfJSONParameters>',
            `${deep(100_000)}</StringOfJSONParameters>`,
          ),
        ),
      ),
    );
    assert.equal(errorCode(inParam), 'InvalidXml');
    await up();
  }
});

test('2. the body limit follows the routed operation and applies while streaming', async () => {
  const filler = ' '.repeat(3 * MiB);
  for (const v of VERSIONS) {
    const claims = [
      // The action says ProcessRequest; the Body holds another operation.
      envelope(v, operationElement('GetSearchResults', params(`{"Query":"ma"${filler}}`))),
      // `<ProcessRequest ` as text early in the body, and nothing routes to it.
      `<!-- <ProcessRequest xmlns="http://tempuri.org/API/ProcessRequestRequestData"> -->${envelope(v, operationElement('GetSearchFilters', { DBName: 'Demo', AsType: `JSON${filler}` }))}`,
      // Nesting before any operation element.
      envelope(v, `${deep(70)}${filler}`),
    ];
    for (const body of claims) {
      const a = await withNormalClient(svc.endpoint, () => soap(v, 'ProcessRequest', body));
      assert.equal(a.status, 500);
      assert.equal(errorCode(a), 'PayloadTooLarge', a.body.slice(0, 300));
      assert.equal(a.headers.connection, 'close', 'refused before the body was read to its end');
    }
    // A real ProcessRequest over the 1 MiB limit is read and answered (1.5 MiB: decoded in slices,
    // but its JSON is parsed in one go, and this suite watches the loop; docs/SECURITY.md).
    const real = await soap(
      v,
      'ProcessRequest',
      envelope(v, operationElement('ProcessRequest', params(info(REAL)))),
    );
    assert.equal(real.status, 200, real.body.slice(0, 300));
    assert.match(real.body, /Response Request="GetDatabaseInfo" Status="OK"/);
    // Sent in pieces, the same envelope as a 1 MiB-limited operation is refused at the limit, not after reading it all.
    const pieces = [
      Buffer.from(
        envelope(
          v,
          operationElement('GetSearchFilters', { DBName: 'Demo', AsType: 'JSON' }),
        ).replace('</s:Body>', ''),
      ),
      ...Array.from({ length: 48 }, () => Buffer.alloc(64 * 1024, 0x20)),
    ];
    const streamed = await soap(v, 'GetSearchFilters', pieces, { 'Transfer-Encoding': 'chunked' });
    assert.equal(errorCode(streamed), 'PayloadTooLarge');
    await up();
  }
  // HTTP POST and JSON name the operation in the URL: 1 MiB for GetSearchResults, 64 MiB for ProcessRequest.
  const form = (json: string) => new URLSearchParams(params(json)).toString();
  const bodies = {
    post: ['application/x-www-form-urlencoded', form],
    json: ['application/json', (json: string) => JSON.stringify(params(json))],
  } as const;
  for (const [binding, [type, encode]] of Object.entries(bodies)) {
    const small = await withNormalClient(svc.endpoint, () =>
      send(`${svc.endpoint}/GetSearchResults`, {
        headers: { 'Content-Type': type },
        body: encode(`{"Query":"ma"${' '.repeat(3 * MiB)}}`),
      }),
    );
    assert.equal(
      errorCode(small),
      'PayloadTooLarge',
      `${binding}: ${small.status} ${small.body.slice(0, 200)}`,
    );
    assert.equal(small.status, binding === 'json' ? 413 : 500);
    const big = await send(`${svc.endpoint}/ProcessRequest`, {
      headers: { 'Content-Type': type },
      body: encode(info(REAL)),
    });
    assert.equal(big.status, 200, `${binding}: ${big.body.slice(0, 200)}`);
  }
});

test('3. cross-site writes are refused over every binding; reads, non-browser clients and allowed origins are not', async () => {
  const ids = ['C0000001', 'C0000002', 'C0000003', 'C0000004'];
  const del = (id: string) =>
    JSON.stringify({ Request: 'DeleteContacts', DBName: 'Demo', ContactIds: [id] });
  const form = (json: string) => `StringOfJSONParameters=${encodeURIComponent(json)}`;
  const getContact = (id: string) =>
    JSON.stringify({ Request: 'GetContact', DBName: 'Demo', ContactId: id });
  const call = (binding: string, json: string, headers: Record<string, string>) => {
    if (binding === 'get') return send(`${svc.endpoint}/ProcessRequest?${form(json)}`, { headers });
    if (binding === 'post')
      return send(`${svc.endpoint}/ProcessRequest`, {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: form(json),
      });
    if (binding === 'json')
      return send(`${svc.endpoint}/ProcessRequest`, {
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ StringOfJSONParameters: json }),
      });
    const v = binding === 'soap11' ? '1.1' : '1.2';
    return soap(
      v,
      'ProcessRequest',
      envelope(v, operationElement('ProcessRequest', { StringOfJSONParameters: json })),
      headers,
    );
  };
  /** Asked over the wire: the store is the server's, in its own process. */
  const exists = async (id: string) => {
    const a = await call('json', getContact(id), {});
    assert.equal(a.status, 200, a.body);
    return /Status=\\"OK\\"/.test(a.body);
  };
  const browsers: Record<string, string>[] = [
    { Origin: 'https://evil.example' },
    { Origin: 'null' },
    { 'Sec-Fetch-Site': 'cross-site' },
    { Origin: `http://127.0.0.1:1` },
  ];
  for (const binding of ['soap11', 'soap12', 'get', 'post', 'json']) {
    for (const headers of browsers) {
      const a = await withNormalClient(svc.endpoint, () => call(binding, del(ids[0]), headers));
      assert.equal(
        errorCode(a),
        'Forbidden',
        `${binding} ${JSON.stringify(headers)}: ${a.status} ${a.body.slice(0, 200)}`,
      );
      assert.equal(a.status, binding === 'json' ? 403 : 500);
      assert.ok(await exists(ids[0]), 'nothing deleted');
    }
    const read = await call(binding, getContact(ids[0]), { Origin: 'https://evil.example' });
    assert.equal(read.status, 200, `a cross-site read is answered over ${binding}`);
    assert.match(read.body, new RegExp(ids[0]), `the contact itself over ${binding}`);
  }
  // Same origin, an allowed origin, and a client without browser headers may write.
  const same = await call('post', del(ids[1]), {
    Origin: svc.base,
    'Sec-Fetch-Site': 'same-origin',
  });
  assert.equal(same.status, 200, same.body);
  const allowed = await call('json', del(ids[2]), { Origin: 'https://intranet.example' });
  assert.equal(allowed.status, 200, allowed.body);
  const tool = await call('soap11', del(ids[3]), {});
  assert.equal(tool.status, 200, tool.body);
  for (const id of ids.slice(1)) assert.equal(await exists(id), false, `${id} deleted`);
  await up();
});

/** Opens a request that declares `length` bytes and sends all but the last: it holds what it sent (beyond the free 64 KiB). */
function holdOpen(length: number): { close(): void } {
  const socket = connect(Number(new URL(svc.base).port), '127.0.0.1', () => {
    socket.write(
      `POST ${new URL(svc.endpoint).pathname}/ProcessRequest HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`,
    );
    socket.write(Buffer.alloc(length - 1, 0x61));
  });
  socket.on('error', () => {});
  return { close: () => socket.destroy() };
}

async function until(what: string, check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`timed out waiting for ${what}`);
}

test('4. concurrent large bodies: past the in-flight budget they wait, then 503; the budget is never exceeded', async () => {
  const held = [holdOpen(4 * MiB), holdOpen(4 * MiB)];
  await until(
    'two bodies held',
    async () =>
      (await metric(svc.base, 'contact_search_inflight_body_bytes')) ===
      2 * (4 * MiB - 1 - 64 * 1024),
  );
  // A client that declares a large body and sends nothing holds nothing.
  const idle = connect(Number(new URL(svc.base).port), '127.0.0.1', () => {
    idle.write(
      `POST ${new URL(svc.endpoint).pathname}/ProcessRequest HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${60 * MiB}\r\n\r\n`,
    );
  });
  idle.on('error', () => {});
  const big = info(3 * MiB);
  for (const v of VERSIONS) {
    const a = await withNormalClient(svc.endpoint, () =>
      soap(v, 'ProcessRequest', envelope(v, operationElement('ProcessRequest', params(big)))),
    );
    assert.equal(a.status, 503);
    assert.equal(a.headers['retry-after'], '1');
  }
  for (const op of ['ProcessRequest', 'GetSearchResults']) {
    const a = await withNormalClient(svc.endpoint, () =>
      send(`${svc.endpoint}/${op}`, {
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(params(info(2 * MiB))),
      }),
    );
    assert.equal(a.status, 503, `${op} over JSON`);
  }
  assert.equal(
    await metric(svc.base, 'contact_search_inflight_body_bytes'),
    2 * (4 * MiB - 1 - 64 * 1024),
    'the idle client holds nothing',
  );
  for (const h of held) h.close();
  idle.destroy();
  await until(
    'the budget released',
    async () => (await metric(svc.base, 'contact_search_inflight_body_bytes')) === 0,
  );

  // Eight 3 MiB bodies at once against 8 MiB: some wait their turn, the rest are turned away; none goes over.
  let most = 0;
  let sending = true;
  const watch = (async () => {
    while (sending) {
      most = Math.max(most, await metric(svc.base, 'contact_search_inflight_body_bytes'));
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const answers = await withNormalClient(svc.endpoint, () =>
    Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        soap(
          i % 2 ? '1.2' : '1.1',
          'ProcessRequest',
          envelope(i % 2 ? '1.2' : '1.1', operationElement('ProcessRequest', params(big))),
        ),
      ),
    ),
  );
  sending = false;
  await watch;
  const statuses = answers.map((a) => a.status);
  assert.ok(
    statuses.every((s) => s === 200 || s === 503),
    `statuses ${statuses}`,
  );
  assert.ok(statuses.includes(200), `some are read: ${statuses}`);
  assert.ok(most > 0 && most <= INFLIGHT, `held at most ${most} bytes`);
  await up();
});

test('5a. UTF-16 bodies are read by their BOM or charset (SOAP 1.1, 1.2, JSON)', async () => {
  const utf16 = (text: string, bom: boolean) =>
    Buffer.concat([
      bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0),
      Buffer.from(text, 'utf16le'),
    ]);
  for (const v of VERSIONS) {
    const body = envelope(v, operationElement('ProcessRequest', params(info()))).replace(
      'encoding="utf-8"',
      'encoding="utf-16"',
    );
    for (const bom of [true, false]) {
      const ct = v === '1.1' ? 'text/xml; charset=utf-16' : 'application/soap+xml; charset=utf-16';
      const a = await soap(v, 'ProcessRequest', [utf16(body, bom)], { 'Content-Type': ct });
      assert.equal(a.status, 200, `SOAP ${v} bom ${bom}: ${a.body.slice(0, 300)}`);
      assert.match(a.body, /GetDatabaseInfo/);
    }
  }
  const j = await send(`${svc.endpoint}/ProcessRequest`, {
    headers: { 'Content-Type': 'application/json; charset=utf-16' },
    body: utf16(JSON.stringify(params(info())), true),
  });
  assert.equal(j.status, 200, j.body);
});

test('5b. a malformed % in the path is 400, with no error logged', async () => {
  const before = svc.logged().filter((l) => l.level === 'error').length;
  for (const path of ['/Get%ZZ', '/%E0%A4%A', '/ProcessRequest%']) {
    const a = await withNormalClient(svc.endpoint, () => send(`${svc.endpoint}${path}`));
    assert.equal(a.status, 400, path);
  }
  assert.equal(svc.logged().filter((l) => l.level === 'error').length, before);
  await up();
});

test('5c. a client that leaves mid-body is not logged as an error', async () => {
  const before = svc.logged().filter((l) => l.level === 'error').length;
  const infos = svc.logged().filter((l) => l.level === 'info').length;
  for (const path of ['', '/GetSearchResults']) {
    await new Promise<void>((resolve) => {
      const socket = connect(Number(new URL(svc.base).port), '127.0.0.1', () => {
        socket.write(
          `POST ${new URL(svc.endpoint).pathname}${path} HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 1000\r\n\r\n<s:Envelope`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
    });
  }
  await until(
    'the server noticed',
    async () => svc.logged().filter((l) => l.level === 'info').length >= infos + 2,
  );
  assert.equal(svc.logged().filter((l) => l.level === 'error').length, before);
  await up();
});

test('5d. two Bodies, two operation elements or a repeated parameter: a Client fault, not an answer from the first', async () => {
  const op = operationElement('GetSearchFilters', { DBName: 'Demo', AsType: 'JSON' });
  for (const v of VERSIONS) {
    const bodies = [
      envelope(v, op).replace('</s:Body>', `</s:Body><s:Body>${op}</s:Body>`),
      envelope(v, `${op}${op}`),
      envelope(
        v,
        operationElement('GetSearchFilters', { DBName: 'Demo', AsType: 'JSON' }).replace(
          '</AsType>',
          '</AsType><DBName>Other</DBName>',
        ),
      ),
    ];
    for (const body of bodies) {
      const a = await withNormalClient(svc.endpoint, () => soap(v, 'GetSearchFilters', body));
      assert.equal(a.status, 500);
      assert.equal(errorCode(a), 'InvalidRequestFormat', a.body.slice(0, 300));
      assert.match(a.body, v === '1.1' ? /<faultcode>soap:Client</ : /<soap:Value>soap:Sender</);
    }
  }
});

test('5e. mustUnderstand=" 1 " is understood as "1"', async () => {
  for (const v of VERSIONS) {
    const header = `<s:Header><h:Auth xmlns:h="urn:x" s:mustUnderstand=" 1 "/></s:Header>`;
    const a = await soap(
      v,
      'GetSearchFilters',
      envelope(v, operationElement('GetSearchFilters', { DBName: 'Demo', AsType: 'JSON' }), header),
    );
    assert.equal(a.status, 500);
    assert.match(a.body, /MustUnderstand/);
  }
});

test('6. the event loop was never blocked over 200 ms during the suite', async () => {
  await up();
  // Blocks by the process's own work; ticks late only because a busy machine kept it waiting for a CPU are counted apart (starved).
  assert.equal(
    (await metric(svc.base, 'contact_search_event_loop_blocks_total')) - blocksBefore,
    0,
    `longest block ${await metric(svc.base, 'contact_search_event_loop_longest_block_seconds')} s`,
  );
});
