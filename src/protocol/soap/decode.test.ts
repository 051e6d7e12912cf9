import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServiceError } from '../../errors.ts';
import {
  actionParameter,
  decodeSoap,
  decodeSoapInSlices,
  MalformedXml,
  soapActionHeader,
} from './decode.ts';

const S11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const S12 = 'http://www.w3.org/2003/05/soap-envelope';
const NS = 'http://tempuri.org/API/GetSearchResultsRequestData';

test('matches namespaces, never prefixes (soap:, SOAP-ENV:, env:, soap-env:, ns1: on every parameter)', () => {
  for (const [pre, env] of [
    ['soap', S11],
    ['SOAP-ENV', S11],
    ['env', S12],
    ['soap-env', S12],
  ]) {
    const xml = `<${pre}:Envelope xmlns:${pre}="${env}" xmlns:ns1="${NS}"><${pre}:Body><ns1:GetSearchResults><ns1:StringOfJSONParameters>{"Query":"x"}</ns1:StringOfJSONParameters><ns1:DBName>Demo</ns1:DBName></ns1:GetSearchResults></${pre}:Body></${pre}:Envelope>`;
    const m = decodeSoap(xml);
    assert.equal(m.version, env === S11 ? '1.1' : '1.2');
    assert.deepEqual(m.wrapper, { uri: NS, local: 'GetSearchResults' });
    assert.equal(m.params.get('StringOfJSONParameters'), '{"Query":"x"}');
    assert.equal(m.params.get('AsType'), undefined, 'a left-out parameter is absent (null)');
  }
});

test('CDATA, entities, xsi:nil and empty elements', () => {
  const m =
    decodeSoap(`<?xml version="1.0"?><s:Envelope xmlns:s="${S11}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><s:Body><GetSearchResults xmlns="${NS}">
    <StringOfJSONParameters><![CDATA[{"Query":"a<b"}]]></StringOfJSONParameters><DBName xsi:nil="true"/><AsType></AsType><Extra>ignored</Extra></GetSearchResults></s:Body></s:Envelope>`);
  assert.equal(m.params.get('StringOfJSONParameters'), '{"Query":"a<b"}');
  assert.equal(m.params.get('DBName'), '');
  assert.equal(m.params.get('AsType'), '');
});

test('scheme-less namespace of the GetPredictiveOptions operations', () => {
  const m = decodeSoap(
    `<soap:Envelope xmlns:soap="${S11}"><soap:Body><GetPredictiveOptions xmlns="//tempuri.org/API/GetPredictiveOptionsRequestData"><DBName>Demo</DBName></GetPredictiveOptions></soap:Body></soap:Envelope>`,
  );
  assert.equal(m.wrapper?.uri, '//tempuri.org/API/GetPredictiveOptionsRequestData');
});

test('DTDs and entity declarations are refused before expansion (billion laughs, external entities)', () => {
  const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><soap:Envelope xmlns:soap="${S11}"><soap:Body>&lol2;</soap:Body></soap:Envelope>`;
  assert.throws(
    () => decodeSoap(laughs),
    (e: { code?: string }) => e.code === 'InvalidXml',
  );
  const xxe = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><soap:Envelope xmlns:soap="${S11}"><soap:Body>&xxe;</soap:Body></soap:Envelope>`;
  assert.throws(
    () => decodeSoap(xxe),
    (e: { code?: string }) => e.code === 'InvalidXml',
  );
});

test('malformed XML is MalformedXml; mustUnderstand headers are reported', () => {
  assert.throws(
    () => decodeSoap(`<soap:Envelope xmlns:soap="${S11}"><soap:Body><x>`),
    MalformedXml,
  );
  const m = decodeSoap(
    `<soap:Envelope xmlns:soap="${S11}"><soap:Header><h:Auth xmlns:h="urn:x" soap:mustUnderstand="1"/></soap:Header><soap:Body/></soap:Envelope>`,
  );
  assert.equal(m.mustUnderstand, 'h:Auth');
});

test('SOAPAction quoting and the SOAP 1.2 action parameter', () => {
  assert.equal(
    soapActionHeader('"http://tempuri.org/API/GetSearchResults"'),
    'http://tempuri.org/API/GetSearchResults',
  );
  assert.equal(
    soapActionHeader('http://tempuri.org/API/GetSearchResults'),
    'http://tempuri.org/API/GetSearchResults',
  );
  assert.equal(soapActionHeader('""'), '');
  assert.equal(soapActionHeader(undefined), undefined);
  assert.equal(
    actionParameter(
      'application/soap+xml; charset=utf-8; action="//tempuri.org/API/GetPredictiveOptions"',
    ),
    '//tempuri.org/API/GetPredictiveOptions',
  );
  assert.equal(actionParameter('application/soap+xml;action=urn:x;charset=utf-8'), 'urn:x');
  assert.equal(actionParameter('application/soap+xml; charset=utf-8'), undefined);
});

test('a large envelope parsed in slices reads as in one go, and lets the event loop through', async () => {
  // 3 MiB of text with characters outside the BMP (surrogate pairs) and CDATA, so slice ends fall
  // inside a pair, inside CDATA and inside tags somewhere.
  const chunk = 'Zoë 山田 😀 &lt;&amp;&gt; ';
  const text = chunk.repeat(Math.ceil((3 * 1024 * 1024) / chunk.length));
  const body = `<s:Envelope xmlns:s="${S11}"><s:Body><p:ProcessRequest xmlns:p="${NS}"><p:StringOfJSONParameters>${text}<![CDATA[${'x<y'.repeat(100_000)}]]></p:StringOfJSONParameters><p:DBName>Demo</p:DBName></p:ProcessRequest></s:Body></s:Envelope>`;
  let turns = 0;
  const tick = setInterval(() => turns++, 0);
  const sliced = await decodeSoapInSlices(body).finally(() => clearInterval(tick));
  assert.deepEqual(sliced, decodeSoap(body));
  assert.equal(
    sliced.params.get('StringOfJSONParameters')?.length,
    text.replaceAll(/&(lt|amp|gt);/g, '<').length + 300_000,
  );
  assert.ok(turns > 0, 'timers ran while the envelope was parsed');
});

test('errors of a sliced parse are those of one parse', async () => {
  const pad = ' '.repeat(2 * 1024 * 1024);
  const broken = `<s:Envelope xmlns:s="${S11}"><s:Body>${pad}<a></b></s:Body></s:Envelope>`;
  await assert.rejects(decodeSoapInSlices(broken), MalformedXml);
  assert.throws(() => decodeSoap(broken), MalformedXml);
  const dtd = `<!DOCTYPE x [<!ENTITY a "b">]><s:Envelope xmlns:s="${S11}">${pad}</s:Envelope>`;
  await assert.rejects(
    decodeSoapInSlices(dtd),
    (e: unknown) => e instanceof ServiceError && e.code === 'InvalidXml',
  );
});

test('envelopes read one after another share nothing: after a good one, a broken one and a refused one', () => {
  const env = (params: string) =>
    `<s:Envelope xmlns:s="${S11}"><s:Body><GetSearchResults xmlns="${NS}">${params}</GetSearchResults></s:Body></s:Envelope>`;
  const first = decodeSoap(env('<StringOfJSONParameters>{"Query":"a"}</StringOfJSONParameters>'));
  assert.throws(
    () =>
      decodeSoap(`<s:Envelope xmlns:s="${S11}"><s:Body><GetSearchResults xmlns="${NS}"><DBName>x`),
    MalformedXml,
  );
  assert.throws(
    () => decodeSoap(`<!DOCTYPE x [<!ENTITY a "b">]>${env('<DBName>Demo</DBName>')}`),
    (e: { code?: string }) => e.code === 'InvalidXml',
  );
  const next = decodeSoap(
    `<s:Envelope xmlns:s="${S11}"><s:Header><h:A xmlns:h="urn:x" s:mustUnderstand="1"/></s:Header><s:Body><GetSearchResults xmlns="${NS}"><DBName>Demo</DBName></GetSearchResults></s:Body></s:Envelope>`,
  );
  const last = decodeSoap(env('<AsType>XML</AsType>'));
  assert.deepEqual([...first.params], [['StringOfJSONParameters', '{"Query":"a"}']]);
  assert.deepEqual([...next.params], [['DBName', 'Demo']]);
  assert.equal(next.mustUnderstand, 'h:A');
  assert.deepEqual([...last.params], [['AsType', 'XML']], 'nothing of the envelopes before');
  assert.equal(last.mustUnderstand, undefined);
  assert.notEqual(first, last);
});
