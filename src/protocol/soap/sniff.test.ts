import assert from 'node:assert/strict';
import { test } from 'node:test';
import { operationElementOf } from './sniff.ts';

const S11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const S12 = 'http://www.w3.org/2003/05/soap-envelope';
const PR = 'http://tempuri.org/API/ProcessRequestRequestData';

test("the Body's first element, by namespace, from the start of an envelope (the rest may not have arrived)", () => {
  assert.deepEqual(
    operationElementOf(
      `<?xml version="1.0"?><e:Envelope xmlns:e="${S12}"><e:Header><h/></e:Header><e:Body><p:ProcessRequest xmlns:p="${PR}"><p:StringOf`,
    ),
    { version: '1.2', uri: PR, local: 'ProcessRequest' },
  );
  assert.deepEqual(
    operationElementOf(`<s:Envelope xmlns:s="${S11}"><s:Body>\n  <GetSearchResults xmlns="urn:x">`),
    { version: '1.1', uri: 'urn:x', local: 'GetSearchResults' },
  );
});

test('nothing for text that only mentions it, nesting past the limit, a DTD, or a head that stops before it', () => {
  assert.equal(
    operationElementOf(
      `<!-- <ProcessRequest xmlns="${PR}"> --><s:Envelope xmlns:s="${S11}"><s:Body><x/>`,
    )?.local,
    'x',
  );
  assert.equal(
    operationElementOf(
      `<s:Envelope xmlns:s="${S11}"><s:Header>${'<a>'.repeat(70)}<s:Body><ProcessRequest xmlns="${PR}">`,
    ),
    undefined,
  );
  assert.equal(
    operationElementOf(
      `<!DOCTYPE x><s:Envelope xmlns:s="${S11}"><s:Body><ProcessRequest xmlns="${PR}">`,
    ),
    undefined,
  );
  assert.equal(operationElementOf(`<s:Envelope xmlns:s="${S11}"><s:Body><ProcessReq`), undefined);
  assert.equal(
    operationElementOf(
      `<s:Envelope xmlns:s="${S11}"><s:Body></s:Body><s:Other><ProcessRequest xmlns="${PR}">`,
    ),
    undefined,
  );
});
