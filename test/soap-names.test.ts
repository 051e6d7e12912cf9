/**
 * Which SOAP requests name which operation (docs/WIRE.md), against the echo double. Properties checked:
 * 1. SOAP::Lite's styles are answered for all seven operations: the operation element in the service
 *    namespace `http://tempuri.org/API/`, `xsi:type`'d parameters, SOAP-ENC encodingStyle, and as
 *    SOAPAction `uri#method` or `uri` + `method`; SOAP 1.2 without an action parameter routes on that element.
 * 2. A base64Binary-typed parameter (how SOAP::Lite sends non-ASCII text) is read as its UTF-8 text;
 *    one that is not base64 is an InvalidValue fault naming the parameter.
 * 3. Genuine mismatches stay refused: the action names one operation and the Body another, the
 *    element sits in a namespace that is neither its request namespace nor the service namespace,
 *    or an action names nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { OPERATIONS, type OperationDef } from '../src/operations/table.ts';
import { echoService } from './support/echo-service.ts';
import { startServer, type Running } from './support/server.ts';

let server: Running;
before(async () => {
  server = await startServer(echoService);
});
after(async () => {
  await server.close();
});

const S = 'http://tempuri.org/API/';
const ENC11 = 'http://schemas.xmlsoap.org/soap/encoding/';
/** The envelope SOAP::Lite 1.27 writes (captured from its trace), SOAP 1.1 or 1.2. */
function liteEnvelope(
  version: '1.1' | '1.2',
  op: string,
  ns: string,
  params: [string, string, string][],
): string {
  const [env, enc] =
    version === '1.1'
      ? ['http://schemas.xmlsoap.org/soap/envelope/', ENC11]
      : ['http://www.w3.org/2003/05/soap-envelope', 'http://www.w3.org/2003/05/soap-encoding'];
  const body = params.map(([n, type, v]) => `<${n} xsi:type="${type}">${v}</${n}>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope soap:encodingStyle="${enc}" xmlns:soap="${env}" xmlns:soapenc="${enc}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soap:Body><${op} xmlns="${ns}">${body}</${op}></soap:Body></soap:Envelope>`;
}

async function post(version: '1.1' | '1.2', xml: string, soapAction?: string) {
  const headers: Record<string, string> = {
    'Content-Type':
      version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8',
  };
  if (soapAction !== undefined) headers.SOAPAction = soapAction;
  const r = await fetch(server.endpoint, { method: 'POST', headers, body: xml });
  const body = await r.text();
  return { status: r.status, body, code: /<Error Code="(\w+)"/.exec(body)?.[1] };
}

/** The echoed parameters of a result (the echo double answers JSON, or ProcessRequest's Echo element). */
function echoed(op: OperationDef, body: string): Record<string, string | null> {
  const m = new RegExp(`<${op.name}Result[^>]*>([^<]*)</${op.name}Result>`).exec(body);
  assert.ok(m, `a ${op.name}Result in ${body}`);
  const text = m[1]
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  if (op.result === 'string')
    return {
      StringOfJSONParameters: /<Echo Parameter="StringOfJSONParameters">([^<]*)</.exec(text)![1],
    };
  return JSON.parse(text);
}

const json = '{"Text":"Zoë"}';
const b64 = Buffer.from(json, 'utf8').toString('base64');
const liteParams = (op: OperationDef): [string, string, string][] =>
  op.params.map((p) =>
    p === 'StringOfJSONParameters'
      ? [p, 'xsd:base64Binary', b64]
      : [p, 'xsd:string', p === 'DBName' ? 'Demo' : 'JSON'],
  );

for (const op of OPERATIONS as readonly OperationDef[]) {
  test(`1-2. SOAP::Lite styles answer ${op.name}`, async () => {
    const xml11 = liteEnvelope('1.1', op.name, S, liteParams(op));
    for (const action of [`"${S}#${op.name}"`, `${S}${op.name}`]) {
      const r = await post('1.1', xml11, action);
      assert.equal(r.status, 200, `${action}: ${r.body}`);
      const e = echoed(op, r.body);
      assert.equal(e.StringOfJSONParameters, json, 'base64Binary decoded as UTF-8');
      if (op.params.includes('DBName')) assert.equal(e.DBName, 'Demo');
    }
    const r12 = await post(
      '1.2',
      liteEnvelope('1.2', op.name, S, liteParams(op)),
      `"${S}#${op.name}"`,
    );
    assert.equal(r12.status, 200, r12.body);
    assert.equal(echoed(op, r12.body).StringOfJSONParameters, json);
  });
}

test('2. a base64Binary parameter that is not base64 (or not UTF-8) is InvalidValue naming it', async () => {
  for (const bad of ['not base64!', Buffer.from([0xff, 0xfe]).toString('base64')]) {
    const r = await post(
      '1.1',
      liteEnvelope('1.1', 'GetSearchResults', S, [
        ['StringOfJSONParameters', 'xsd:base64Binary', bad],
      ]),
      `${S}GetSearchResults`,
    );
    assert.equal(r.status, 500);
    assert.equal(r.code, 'InvalidValue');
    assert.match(r.body, /<Parameter>StringOfJSONParameters<\/Parameter>/);
  }
  // soapenc:base64 is the SOAP-ENC spelling of the same type; xsd:string is text, even when it looks like base64.
  const enc = await post(
    '1.1',
    liteEnvelope('1.1', 'GetSearchResults', S, [
      ['StringOfJSONParameters', 'soapenc:base64', b64],
      ['AsType', 'xsd:string', 'JSON'],
    ]),
    `${S}GetSearchResults`,
  );
  assert.equal(
    JSON.parse(/>(\{.*\})</.exec(enc.body)![1].replace(/&quot;/g, '"')).StringOfJSONParameters,
    json,
  );
  const plain = await post(
    '1.1',
    liteEnvelope('1.1', 'GetSearchResults', S, [
      ['StringOfJSONParameters', 'xsd:string', b64],
      ['AsType', 'xsd:string', 'JSON'],
    ]),
    `${S}GetSearchResults`,
  );
  assert.equal(
    JSON.parse(/>(\{.*\})</.exec(plain.body)![1].replace(/&quot;/g, '"')).StringOfJSONParameters,
    b64,
  );
});

test('3. mismatches stay refused', async () => {
  const gsr = (ns: string) =>
    liteEnvelope('1.1', 'GetSearchResults', ns, [['AsType', 'xsd:string', 'JSON']]);
  // golden soap11-wrong-namespace: the WSDL's targetNamespace without the slash is neither accepted namespace.
  assert.equal(
    (await post('1.1', gsr('http://tempuri.org/API'), '"http://tempuri.org/API/GetSearchResults"'))
      .code,
    'ActionMismatch',
  );
  assert.equal((await post('1.1', gsr(S), `"${S}#GetSearchFilters"`)).code, 'ActionMismatch');
  assert.equal(
    (
      await post(
        '1.1',
        gsr('http://tempuri.org/API/GetSearchFiltersRequestData'),
        `${S}GetSearchResults`,
      )
    ).code,
    'ActionMismatch',
  );
  assert.equal(
    (await post('1.1', gsr('http://tempuri.org/API'), '"http://tempuri.org/API#GetSearchResults"'))
      .code,
    'UnknownOperation',
  );
  assert.equal((await post('1.1', gsr(S), `"${S}#NoSuchOp"`)).code, 'UnknownOperation');
  // SOAP 1.2 without an action: an element in another namespace names nothing.
  assert.equal(
    (await post('1.2', liteEnvelope('1.2', 'GetSearchResults', 'http://tempuri.org/API', []))).code,
    'UnknownOperation',
  );
  assert.equal(
    (
      await post(
        '1.2',
        liteEnvelope('1.2', 'GetSearchResults', S, []).replace(
          'xmlns="http://tempuri.org/API/"',
          'xmlns="http://tempuri.org/API/GetSearchFiltersRequestData"',
        ),
      )
    ).code,
    'UnknownOperation',
  );
});
