import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeSoap } from './decode.ts';
import { isTrue, MAX_XML_DEPTH } from './guards.ts';

const S11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const NS = 'http://tempuri.org/API/GetSearchResultsRequestData';
const code = (c: string) => (e: { code?: string }) => e.code === c;
/** An envelope whose Body holds `n` nested prefixed elements (each declaring its namespace, as the attack did). */
const nested = (n: number) =>
  `<s:Envelope xmlns:s="${S11}"><s:Body>${'<a:x xmlns:a="urn:a">'.repeat(n)}${'</a:x>'.repeat(n)}</s:Body></s:Envelope>`;

test('a 100,000-deep envelope is refused at the depth limit, before namespace work', () => {
  // Without the limit this takes minutes (saxes resolves each prefix through every open element).
  assert.throws(() => decodeSoap(nested(100_000)), code('InvalidXml'));
});

test('the depth limit is exact: 64 open elements are read, a 65th is refused', () => {
  // Envelope and Body are two of the 64.
  assert.doesNotThrow(() => decodeSoap(nested(MAX_XML_DEPTH - 2)));
  assert.throws(() => decodeSoap(nested(MAX_XML_DEPTH - 1)), code('InvalidXml'));
});

test('two Bodies, two operation elements or a repeated parameter are refused, not answered from the first', () => {
  const op = `<GetSearchResults xmlns="${NS}"><DBName>Demo</DBName></GetSearchResults>`;
  const env = (body: string) => `<s:Envelope xmlns:s="${S11}">${body}</s:Envelope>`;
  assert.throws(
    () => decodeSoap(env(`<s:Body>${op}</s:Body><s:Body>${op}</s:Body>`)),
    code('InvalidRequestFormat'),
  );
  assert.throws(() => decodeSoap(env(`<s:Body>${op}${op}</s:Body>`)), code('InvalidRequestFormat'));
  assert.throws(
    () =>
      decodeSoap(
        env(
          `<s:Body><GetSearchResults xmlns="${NS}"><DBName>Demo</DBName><DBName>Other</DBName></GetSearchResults></s:Body>`,
        ),
      ),
    code('InvalidRequestFormat'),
  );
  // One of each is read as before.
  assert.equal(decodeSoap(env(`<s:Header/><s:Body>${op}</s:Body>`)).params.get('DBName'), 'Demo');
});

test('mustUnderstand is an xsd:boolean: whitespace collapsed, "1" or "true"', () => {
  for (const v of ['1', ' 1 ', '\ttrue\n', 'true']) {
    const m = decodeSoap(
      `<s:Envelope xmlns:s="${S11}"><s:Header><h:Auth xmlns:h="urn:x" s:mustUnderstand="${v}"/></s:Header><s:Body/></s:Envelope>`,
    );
    assert.equal(m.mustUnderstand, 'h:Auth', JSON.stringify(v));
  }
  for (const v of ['0', ' 0 ', 'false', '', 'yes', '1 1'])
    assert.equal(isTrue(v), false, JSON.stringify(v));
  assert.equal(isTrue(undefined), false);
});
