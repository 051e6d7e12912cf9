/**
 * Fault details (docs/ERRORS.md). Properties checked:
 * 1. SOAP 1.1 `detail` and SOAP 1.2 `soap:Detail` hold one Error carrying the code, parameter and
 *    path both as attributes (suds, .NET) and as child elements with text (PHP, SOAP::Lite), escaped.
 * 2. A child is left out when its fact is absent; MustUnderstand faults keep no detail (golden).
 * 3. A result's answer (SOAP's, and HTTP GET/POST's): its pieces join to its body, and the byte
 *    length given for Content-Length is the body's UTF-8 length, for ASCII, Latin-1, CJK, emoji,
 *    escaped and replaced characters; sent again, it is bytes and has no pieces left.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SaxesParser } from 'saxes';
import { fail } from '../../errors.ts';
import { SOAP11_NS, SOAP12_NS } from '../constants.ts';
import { operation } from '../../operations/table.ts';
import { formResultEncoder } from '../http-form/encode.ts';
import { fault, resultEncoder } from './encode.ts';

interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

/** The detail element's children, by namespace URI and local name. */
function detailOf(xml: string, envNs: string): El | undefined {
  const p = new SaxesParser({ xmlns: true });
  const stack: El[] = [{ name: '#doc', attrs: {}, children: [], text: '' }];
  p.on('opentag', (t) => {
    const el: El = {
      name: `{${t.uri}}${t.local}`,
      attrs: Object.fromEntries(
        Object.values(t.attributes)
          .filter((a) => a.prefix !== 'xmlns' && a.name !== 'xmlns')
          .map((a) => [a.local, a.value]),
      ),
      children: [],
      text: '',
    };
    stack[stack.length - 1].children.push(el);
    stack.push(el);
  });
  p.on('text', (t) => {
    stack[stack.length - 1].text += t;
  });
  p.on('closetag', () => {
    stack.pop();
  });
  p.write(xml).close();
  const find = (e: El): El | undefined =>
    e.name === `{${envNs === SOAP11_NS ? '' : envNs}}${envNs === SOAP11_NS ? 'detail' : 'Detail'}`
      ? e
      : e.children.map(find).find(Boolean);
  return find(stack[0]);
}

for (const [v, ns] of [
  ['1.1', SOAP11_NS],
  ['1.2', SOAP12_NS],
] as const) {
  test(`1. SOAP ${v}: code, parameter and path as attributes and as child elements`, () => {
    const err = fail('UnknownField', 'Field "Citty" is not known.', {
      parameter: 'StringOfJSONParameters',
      path: '$.Filters[0]["a<b&c"]',
    });
    const d = detailOf(String(fault(v, err, true).body), ns);
    assert.ok(d, 'a detail element');
    assert.equal(d.children.length, 1);
    const e = d.children[0];
    assert.equal(e.name, '{}Error');
    assert.deepEqual(e.attrs, {
      Code: 'UnknownField',
      Parameter: 'StringOfJSONParameters',
      Path: '$.Filters[0]["a<b&c"]',
    });
    assert.deepEqual(
      e.children.map((c) => [c.name, c.text]),
      [
        ['{}Code', 'UnknownField'],
        ['{}Parameter', 'StringOfJSONParameters'],
        ['{}Path', '$.Filters[0]["a<b&c"]'],
      ],
    );
  });

  test(`2. SOAP ${v}: absent facts have no child; MustUnderstand has no detail`, () => {
    const e = detailOf(String(fault(v, fail('ActionMismatch', 'x'), false).body), ns)!.children[0];
    assert.deepEqual(e.attrs, { Code: 'ActionMismatch' });
    assert.deepEqual(
      e.children.map((c) => [c.name, c.text]),
      [['{}Code', 'ActionMismatch']],
    );
    assert.equal(
      detailOf(String(fault(v, fail('MustUnderstand', 'x'), false).body), ns),
      undefined,
    );
  });
}

test('3. a result answer: its pieces are its body, its byte length its UTF-8 length', () => {
  for (const name of ['GetPredictiveOptionsSearchContacts', 'ProcessRequest']) {
    const encode = resultEncoder(operation(name)!, 'http://tempuri.org/');
    for (const text of ['{"a":1}', 'Zoë · Ångström', '王小明 <a&b>', '😀 \ud800 x\u0001', '']) {
      for (const v of ['1.1', '1.2'] as const) {
        const w = encode(v, { kind: 'text', text });
        const form = formResultEncoder('http://tempuri.org/')(operation(name)!, {
          kind: 'text',
          text,
        });
        assert.equal(form.chunks?.join(''), form.body, `form ${name} ${text}`);
        assert.equal(form.bodyBytes, Buffer.byteLength(form.body), `form ${name} ${text}`);
        assert.equal(typeof w.body, 'string');
        assert.equal(w.chunks?.join(''), w.body, `${name} ${v} ${text}`);
        assert.equal(w.bodyBytes, Buffer.byteLength(w.body), `${name} ${v} ${text}`);
        assert.ok(
          (w.body as string).includes(text === '王小明 <a&b>' ? '王小明 &lt;a&amp;b&gt;' : ''),
        );
      }
    }
  }
  const encode = resultEncoder(
    operation('GetPredictiveOptionsSearchContacts')!,
    'http://tempuri.org/',
  );
  const result = { kind: 'text' as const, text: 'Zoë' };
  const first = encode('1.1', result);
  const second = encode('1.1', result);
  assert.equal(second, first);
  assert.ok(Buffer.isBuffer(second.body));
  assert.equal(second.chunks, undefined);
  assert.equal(second.bodyBytes, (second.body as Buffer).length);
});
