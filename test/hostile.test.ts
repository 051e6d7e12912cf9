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
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { ERRORS } from '../src/errors.ts';
import { OPERATIONS } from '../src/operations/table.ts';
import { escapeText } from '../src/render/xml.ts';
import { startRealService, type RealService } from './support/real-service.ts';

let svc: RealService;
let snapshot = '';
const snap = () => JSON.stringify([...svc.databases.get('Demo').all()].map((c) => [c.ContactId, c.UpdatedAt]).sort());
before(async () => { svc = await startRealService({ seedDemo: 200 }); snapshot = snap(); });
after(async () => { await svc?.close(); });

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', '{}', '[]', 'null', '!throw', '{"Query":', '{"Filters":[{"Field":"City","Op":"In","Values":[]}]}',
    `{"Query":"'; DROP TABLE contacts; --"}`, '{"PageSize":1e309}', '{"Page":-1}', '{"Limit":"10"}', '{"Text":"\\u0000\\ud800"}',
    '{"Request":"DeleteContacts","DBName":"Demo"}', '{"Request":"ImportContacts","DBName":"Demo","Format":"CSV","Content":"a\\u0000b"}',
    '../../etc/passwd', 'Demo\u0000', '<![CDATA[', ']]>', '&lt;', '%u0000', '%'),
  fc.integer({ min: 1, max: 60 }).map((d) => `${'['.repeat(d)}${']'.repeat(d)}`),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.dictionary(fc.constantFrom('Query', 'Filters', 'Sort', 'Text', 'Field', 'Limit', 'Page', 'PageSize', 'After', 'View', 'Fields', 'Facets', 'Request', 'DBName'),
    fc.jsonValue()).map((v) => JSON.stringify(v)),
);
const dbName = fc.oneof(fc.constant('Demo'), fc.constant('demo'), nasty);
const asType = fc.oneof(fc.constantFrom('JSON', 'XML', 'InternalUse', 'json', ''), nasty);
const binding = fc.constantFrom('soap11', 'soap12', 'get', 'post', 'json');
const opName = fc.constantFrom(...OPERATIONS.map((o) => o.name));

const LEAKS = /\n\s+at |System\.\w+Exception|node_modules|\/work\/|SQLITE|sqlite3|SELECT |INSERT |TypeError|ReferenceError|undefined is not/;

function wellFormed(xml: string): boolean {
  try { new SaxesParser().write(xml).close(); return true; } catch { return false; }
}

async function send(b: string, op: string, p: { json: string; db: string; as: string }): Promise<Response> {
  const params = { StringOfJSONParameters: p.json, DBName: p.db, AsType: p.as };
  const o = OPERATIONS.find((x) => x.name === op)!;
  const names = o.params as readonly string[];
  const pick = Object.fromEntries(Object.entries(params).filter(([k]) => names.includes(k)));
  const signal = AbortSignal.timeout(10_000);
  if (b === 'get') return fetch(`${svc.endpoint}/${op}?${new URLSearchParams(pick)}`, { signal });
  if (b === 'post') return fetch(`${svc.endpoint}/${op}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(pick).toString(), signal });
  if (b === 'json') return fetch(`${svc.endpoint}/${op}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(pick), signal });
  const ns = `${o.schemeless ? '' : 'http:'}//tempuri.org/API/${o.nsOp}RequestData`;
  const inner = Object.entries(pick).map(([k, v]) => `<${k}>${escapeText(v)}</${k}>`).join('');
  const env = b === 'soap11' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
  return fetch(svc.endpoint, {
    method: 'POST', signal,
    headers: b === 'soap11' ? { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${ns.replace(/RequestData$/, '')}"` } : { 'Content-Type': 'application/soap+xml; charset=utf-8' },
    body: `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${env}"><s:Body><${op} xmlns="${ns}">${inner}</${op}></s:Body></s:Envelope>`,
  });
}

test('1–2. generated parameters over every binding get a success or a documented error', async () => {
  await fc.assert(fc.asyncProperty(binding, opName, nasty, dbName, asType, async (b, op, json, db, as) => {
    const r = await send(b, op, { json, db, as });
    const body = await r.text();
    assert.ok([200, 400, 401, 403, 404, 413, 422, 429, 431, 500].includes(r.status), `status ${r.status}`);
    assert.doesNotMatch(body, LEAKS, 'no internals in the answer');
    if (r.status >= 500) assert.ok(body.length > 0, 'a 5xx has a fault or message body');
    if (b.startsWith('soap') && r.status === 500) {
      const code = /<Error Code="(\w+)"/.exec(body)?.[1];
      assert.ok(code && code in ERRORS, `fault carries a known code: ${body.slice(0, 300)}`);
      assert.notEqual(code, 'Internal', `no Internal failure for input ${JSON.stringify({ op, json, db, as })}`);
    }
    if (r.status === 200 && b !== 'json') assert.ok(wellFormed(body), 'a success is well-formed XML');
  }), { numRuns: 400 });
});

test('1b. broken envelopes', async () => {
  const piece = fc.constantFrom('<', '>', '&', '&amp;', '<!DOCTYPE x [<!ENTITY a "b">]>', '<?xml version="1.0"?>', '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">',
    '<s:Body>', '</s:Body>', '</s:Envelope>', '<GetSearchResults xmlns="http://tempuri.org/API/GetSearchResultsRequestData">', '<DBName>', '</DBName>', 'Demo', '\u0000', ']]>', '<![CDATA[');
  await fc.assert(fc.asyncProperty(fc.array(piece, { maxLength: 12 }), fc.constantFrom('text/xml; charset=utf-8', 'application/soap+xml; charset=utf-8', 'text/plain'), async (parts, ct) => {
    const r = await fetch(svc.endpoint, { method: 'POST', headers: { 'Content-Type': ct, SOAPAction: '"http://tempuri.org/API/GetSearchResults"' }, body: parts.join(''), signal: AbortSignal.timeout(10_000) });
    const body = await r.text();
    assert.ok([200, 400, 415, 500].includes(r.status), `status ${r.status}`);
    assert.doesNotMatch(body, LEAKS);
    if (r.status === 500) assert.match(body, /<soap:Fault>/);
  }), { numRuns: 300 });
});

test('1c. invalid UTF-8 in every binding', async () => {
  // Lone continuation bytes, a truncated sequence, an overlong '/', an encoded surrogate, 0xFF.
  const bad = fc.constantFrom([0x80], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82]);
  const where = fc.constantFrom('json', 'db', 'as');
  await fc.assert(fc.asyncProperty(binding, opName, bad, where, async (b, op, bytes, at) => {
    const raw = Buffer.from(bytes);
    const value = (k: string, v: string) => (k === at ? Buffer.concat([Buffer.from(v.slice(0, 2)), raw, Buffer.from(v.slice(2))]) : Buffer.from(v));
    const p = { json: '{"Text":"ma","Query":"ma"}', db: 'Demo', as: 'JSON' };
    const o = OPERATIONS.find((x) => x.name === op)!;
    const fields = ([['StringOfJSONParameters', 'json'], ['DBName', 'db'], ['AsType', 'as']] as const).filter(([n]) => (o.params as readonly string[]).includes(n));
    const pct = (buf: Buffer) => [...buf].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('');
    const form = fields.map(([n, k]) => `${n}=${pct(value(k, p[k]))}`).join('&');
    const signal = AbortSignal.timeout(10_000);
    let r: Response;
    if (b === 'get') r = await fetch(`${svc.endpoint}/${op}?${form}`, { signal });
    else if (b === 'post') r = await fetch(`${svc.endpoint}/${op}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form, signal });
    else if (b === 'json') {
      const body = Buffer.concat([Buffer.from('{'), ...fields.flatMap(([n, k], i) => [Buffer.from(`${i ? ',' : ''}"${n}":"`), value(k, p[k].replace(/"/g, '\\"')), Buffer.from('"')]), Buffer.from('}')]);
      r = await fetch(`${svc.endpoint}/${op}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, signal });
    } else {
      const ns = `${o.schemeless ? '' : 'http:'}//tempuri.org/API/${o.nsOp}RequestData`;
      const env = b === 'soap11' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
      const body = Buffer.concat([
        Buffer.from(`<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${env}"><s:Body><${op} xmlns="${ns}">`),
        ...fields.flatMap(([n, k]) => [Buffer.from(`<${n}>`), value(k, escapeText(p[k])), Buffer.from(`</${n}>`)]),
        Buffer.from(`</${op}></s:Body></s:Envelope>`)]);
      r = await fetch(svc.endpoint, {
        method: 'POST', signal, body,
        headers: b === 'soap11' ? { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${ns.replace(/RequestData$/, '')}"` } : { 'Content-Type': 'application/soap+xml; charset=utf-8' },
      });
    }
    const text = await r.text();
    assert.ok([200, 400, 404, 415, 500].includes(r.status), `status ${r.status}`);
    assert.doesNotMatch(text, LEAKS);
    if (r.status >= 500) assert.ok(text.length > 0, 'a 5xx has a fault or message body');
    if (b.startsWith('soap') && r.status === 500) {
      const code = /<Error Code="(\w+)"/.exec(text)?.[1];
      assert.ok(code && code in ERRORS && code !== 'Internal', `fault carries a known code: ${text.slice(0, 300)}`);
    }
    if (r.status === 200 && b !== 'json') assert.ok(wellFormed(text), 'a success is well-formed XML');
  }), { numRuns: 150 });
});

test('3. the data is unchanged', () => {
  assert.equal(snap(), snapshot);
});
