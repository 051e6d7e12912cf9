/**
 * Hostile input over all four bindings (issue "Security, limits and hostile input", first part).
 * fast-check generates parameters (malformed JSON, wrong types, huge numbers, deep nesting, control
 * characters, lone surrogates, SQL metacharacters, path-like DBNames), broken envelopes and invalid
 * UTF-8 bytes in every binding's parameters.
 * Properties checked:
 * 1. Every answer is a success or a documented error: never a crash or hang, never a 5xx without a
 *    fault or message body, never a stack trace, path or SQL text.
 * 2. SOAP faults carry a code from the error table; successful XML answers are well-formed.
 * 3. The data is unchanged afterwards.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { ERRORS } from '../src/errors.ts';
import { OPERATIONS } from '../src/operations/table.ts';
import { CONTENT_TYPE, SOAP11_NS, SOAP12_NS, XML_DECL } from '../src/protocol/constants.ts';
import { escapeText } from '../src/render/xml.ts';
import { startRealService, type RealService } from './support/real-service.ts';

let svc: RealService;
let snapshot = '';
const snap = () =>
  JSON.stringify(
    [...svc.databases.get('Demo').all()].map((c) => [c.ContactId, c.UpdatedAt]).sort(),
  );
before(async () => {
  svc = await startRealService({ seedDemo: 200 });
  snapshot = snap();
});
after(async () => {
  await svc?.close();
});

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '',
    '{}',
    '[]',
    'null',
    '!throw',
    '{"Query":',
    '{"Filters":[{"Field":"City","Op":"In","Values":[]}]}',
    `{"Query":"'; DROP TABLE contacts; --"}`,
    '{"PageSize":1e309}',
    '{"Page":-1}',
    '{"Limit":"10"}',
    '{"Text":"\\u0000\\ud800"}',
    '{"Request":"DeleteContacts","DBName":"Demo"}',
    '{"Request":"ImportContacts","DBName":"Demo","Format":"CSV","Content":"a\\u0000b"}',
    '../../etc/passwd',
    'Demo\u0000',
    '<![CDATA[',
    ']]>',
    '&lt;',
    '%u0000',
    '%',
  ),
  fc.integer({ min: 1, max: 60 }).map((d) => `${'['.repeat(d)}${']'.repeat(d)}`),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .dictionary(
      fc.constantFrom(
        'Query',
        'Filters',
        'Sort',
        'Text',
        'Field',
        'Limit',
        'Page',
        'PageSize',
        'After',
        'View',
        'Fields',
        'Facets',
        'Request',
        'DBName',
      ),
      fc.jsonValue(),
    )
    .map((v) => JSON.stringify(v)),
);
const dbName = fc.oneof(fc.constant('Demo'), fc.constant('demo'), nasty);
const asType = fc.oneof(fc.constantFrom('JSON', 'XML', 'InternalUse', 'json', ''), nasty);
const binding = fc.constantFrom('soap11', 'soap12', 'get', 'post', 'json');
const opName = fc.constantFrom(...OPERATIONS.map((o) => o.name));

/** Where the checkout lives, wherever that is: a path of ours in an answer is a leak. */
const CHECKOUT = resolve(import.meta.dirname, '..').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const LEAKS = new RegExp(
  `\\n\\s+at |System\\.\\w+Exception|node_modules|${CHECKOUT}|SQLITE|sqlite3|SELECT |INSERT |TypeError|ReferenceError|undefined is not`,
);

function wellFormed(xml: string): boolean {
  try {
    new SaxesParser().write(xml).close();
    return true;
  } catch {
    return false;
  }
}

type Param = 'StringOfJSONParameters' | 'DBName' | 'AsType';
const pct = (buf: Buffer) => [...buf].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('');

/** Sends `op` over binding `b`; `enc` gives each parameter's bytes as the binding carries them (form value, JSON string, XML text). */
async function sendBytes(
  b: string,
  op: string,
  enc: (name: Param, as: 'form' | 'json' | 'xml') => Buffer,
): Promise<Response> {
  const o = OPERATIONS.find((x) => x.name === op)!;
  const names = o.params as readonly Param[];
  const signal = AbortSignal.timeout(10_000);
  const form = names.map((n) => `${n}=${pct(enc(n, 'form'))}`).join('&');
  if (b === 'get') return fetch(`${svc.endpoint}/${op}?${form}`, { signal });
  if (b === 'post')
    return fetch(`${svc.endpoint}/${op}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form,
      signal,
    });
  if (b === 'json') {
    const body = Buffer.concat([
      Buffer.from('{'),
      ...names.flatMap((n, i) => [Buffer.from(`${i ? ',' : ''}"${n}":`), enc(n, 'json')]),
      Buffer.from('}'),
    ]);
    return fetch(`${svc.endpoint}/${op}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
      signal,
    });
  }
  const ns = `${o.schemeless ? '' : 'http:'}//tempuri.org/API/${o.nsOp}RequestData`;
  const body = Buffer.concat([
    Buffer.from(
      `${XML_DECL}<s:Envelope xmlns:s="${b === 'soap11' ? SOAP11_NS : SOAP12_NS}"><s:Body><${op} xmlns="${ns}">`,
    ),
    ...names.flatMap((n) => [Buffer.from(`<${n}>`), enc(n, 'xml'), Buffer.from(`</${n}>`)]),
    Buffer.from(`</${op}></s:Body></s:Envelope>`),
  ]);
  return fetch(svc.endpoint, {
    method: 'POST',
    signal,
    body,
    headers:
      b === 'soap11'
        ? { 'Content-Type': CONTENT_TYPE.soap11, SOAPAction: `"${ns.replace(/RequestData$/, '')}"` }
        : { 'Content-Type': CONTENT_TYPE.soap12 },
  });
}

type Params = { json: string; db: string; as: string };
const paramValue = (p: Params, n: Param) =>
  n === 'StringOfJSONParameters' ? p.json : n === 'DBName' ? p.db : p.as;
/** A parameter string encoded as a client would for `as`. */
const encoded = (v: string, as: 'form' | 'json' | 'xml') =>
  as === 'form' ? v : as === 'json' ? JSON.stringify(v) : escapeText(v);

function send(b: string, op: string, p: Params): Promise<Response> {
  return sendBytes(b, op, (n, as) => Buffer.from(encoded(paramValue(p, n), as)));
}

/** Property 1–2 for one answer: a documented status, no internals, a known fault code (never Internal), well-formed XML on success. */
function assertDocumented(
  b: string,
  status: number,
  body: string,
  statuses: readonly number[],
  input: unknown,
) {
  assert.ok(statuses.includes(status), `status ${status}`);
  assert.doesNotMatch(body, LEAKS, 'no internals in the answer');
  if (status >= 500) assert.ok(body.length > 0, 'a 5xx has a fault or message body');
  if (b.startsWith('soap') && status === 500) {
    const code = /<Error Code="(\w+)"/.exec(body)?.[1];
    assert.ok(code && code in ERRORS, `fault carries a known code: ${body.slice(0, 300)}`);
    assert.notEqual(code, 'Internal', `no Internal failure for input ${JSON.stringify(input)}`);
  }
  if (status === 200 && b !== 'json') assert.ok(wellFormed(body), 'a success is well-formed XML');
}

test('1–2. generated parameters over every binding get a success or a documented error', async () => {
  await fc.assert(
    fc.asyncProperty(binding, opName, nasty, dbName, asType, async (b, op, json, db, as) => {
      const r = await send(b, op, { json, db, as });
      assertDocumented(
        b,
        r.status,
        await r.text(),
        [200, 400, 401, 403, 404, 413, 422, 429, 431, 500],
        { op, json, db, as },
      );
    }),
    { numRuns: 400 },
  );
});

test('1b. broken envelopes', async () => {
  const piece = fc.constantFrom(
    '<',
    '>',
    '&',
    '&amp;',
    '<!DOCTYPE x [<!ENTITY a "b">]>',
    '<?xml version="1.0"?>',
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">',
    '<s:Body>',
    '</s:Body>',
    '</s:Envelope>',
    '<GetSearchResults xmlns="http://tempuri.org/API/GetSearchResultsRequestData">',
    '<DBName>',
    '</DBName>',
    'Demo',
    '\u0000',
    ']]>',
    '<![CDATA[',
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(piece, { maxLength: 12 }),
      fc.constantFrom(
        'text/xml; charset=utf-8',
        'application/soap+xml; charset=utf-8',
        'text/plain',
      ),
      async (parts, ct) => {
        const r = await fetch(svc.endpoint, {
          method: 'POST',
          headers: { 'Content-Type': ct, SOAPAction: '"http://tempuri.org/API/GetSearchResults"' },
          body: parts.join(''),
          signal: AbortSignal.timeout(10_000),
        });
        const body = await r.text();
        assert.ok([200, 400, 415, 500].includes(r.status), `status ${r.status}`);
        assert.doesNotMatch(body, LEAKS);
        if (r.status === 500) assert.match(body, /<soap:Fault>/);
      },
    ),
    { numRuns: 300 },
  );
});

test('1c. invalid UTF-8 in every binding', async () => {
  // Lone continuation bytes, a truncated sequence, an overlong '/', an encoded surrogate, 0xFF.
  const bad = fc.constantFrom(
    [0x80],
    [0xc3],
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xff],
    [0xf8, 0x88, 0x80, 0x80, 0x80],
    [0xe2, 0x82],
  );
  const where = fc.constantFrom<Param>('StringOfJSONParameters', 'DBName', 'AsType');
  const p: Params = { json: '{"Text":"ma","Query":"ma"}', db: 'Demo', as: 'JSON' };
  await fc.assert(
    fc.asyncProperty(binding, opName, bad, where, async (b, op, bytes, at) => {
      const r = await sendBytes(b, op, (n, as) => {
        const v = Buffer.from(encoded(paramValue(p, n), as));
        const cut = as === 'json' ? 3 : 2; // inside the value, past a JSON string's opening quote
        return n === at
          ? Buffer.concat([v.subarray(0, cut), Buffer.from(bytes), v.subarray(cut)])
          : v;
      });
      assertDocumented(b, r.status, await r.text(), [200, 400, 404, 415, 500], { op, bytes, at });
    }),
    { numRuns: 150 },
  );
});

test('3. the data is unchanged', () => {
  assert.equal(snap(), snapshot);
});
