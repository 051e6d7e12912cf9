import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeSoap, parseEnvelope, type SoapRequest } from './decode.ts';
import { readPlainEnvelope } from './plain-envelope.ts';

const S11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const S12 = 'http://www.w3.org/2003/05/soap-envelope';
const OP_NS = '//tempuri.org/API/GetPredictiveOptionsSearchContactsRequestData';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/** saxes' reading of `xml`, or what it threw (class and code, not wording). */
function bySaxes(xml: string): SoapRequest | string {
  try {
    return parseEnvelope(xml);
  } catch (e) {
    return `${(e as Error).constructor.name} ${(e as { code?: string }).code ?? ''}`;
  }
}

/** Request bodies of the golden SOAP transcripts: the envelopes the runtime was sent. */
function goldenEnvelopes(): { file: string; body: string }[] {
  const dir = resolve(import.meta.dirname, '../../../test/fixtures/golden');
  return readdirSync(dir)
    .filter((f) => /^soap1[12]-/.test(f))
    .map((file) => {
      const raw = readFileSync(resolve(dir, file), 'utf8');
      const head =
        raw.indexOf('\r\n\r\n') >= 0 ? raw.indexOf('\r\n\r\n') + 4 : raw.indexOf('\n\n') + 2;
      const end = raw.indexOf('\n=== RESPONSE ===\n');
      return { file, body: raw.slice(head, end < 0 ? undefined : end) };
    });
}

/** Envelopes captured from the real toolkits (test/fixtures/client-envelopes/README.md). */
function clientEnvelopes(): { file: string; body: string }[] {
  const dir = resolve(import.meta.dirname, '../../../test/fixtures/client-envelopes');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.xml'))
    .map((file) => ({ file, body: readFileSync(resolve(dir, file), 'utf8') }));
}

test('the envelopes real clients send are read without saxes, as saxes reads them', () => {
  const dotNet = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${S11}" xmlns:xsi="${XSI}" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><GetPredictiveOptionsSearchContacts xmlns="${OP_NS}"><StringOfJSONParameters>{"Text":"jo sm"}</StringOfJSONParameters><DBName>Demo</DBName><AsType>JSON</AsType></GetPredictiveOptionsSearchContacts></soap:Body></soap:Envelope>`;
  const plainClients = [{ file: ".NET proxy (the golden transcripts' form)", body: dotNet }];
  const captured = clientEnvelopes();
  // SOAP::Lite types each parameter (xsi:type) and sets encodingStyle: saxes reads it.
  for (const c of captured) if (!c.file.startsWith('soap-lite')) plainClients.push(c);
  assert.ok(captured.length >= 6, 'the captured envelopes are there');
  for (const { file, body } of plainClients) {
    const fast = readPlainEnvelope(body);
    assert.ok(fast, `${file}: read without saxes`);
    assert.deepEqual(fast, parseEnvelope(body), file);
    assert.equal(fast.params.get('DBName'), 'Demo', file);
    assert.match(fast.params.get('StringOfJSONParameters')!, /^\{"Text": ?"/, file);
  }
  const lite = captured.find((c) => c.file.startsWith('soap-lite'))!;
  assert.equal(readPlainEnvelope(lite.body), undefined);
  assert.deepEqual(decodeSoap(lite.body), parseEnvelope(lite.body));
  let plain = 0;
  for (const { file, body } of goldenEnvelopes()) {
    const fast = readPlainEnvelope(body);
    if (fast === undefined) continue;
    plain++;
    assert.deepEqual(fast, bySaxes(body), file);
  }
  assert.ok(plain >= 30, `${plain} golden envelopes read without saxes`);
});

test('what it leaves to saxes: character references and other entities, CDATA, comments, xsi attributes, header entries, CR, trailing content', () => {
  const wrap = (inner: string, env = `xmlns:s="${S11}"`) =>
    `<s:Envelope ${env}><s:Body><Op xmlns="${OP_NS}">${inner}</Op></s:Body></s:Envelope>`;
  for (const xml of [
    wrap('<A>x &#38; y</A>'),
    wrap('<A>x &nbsp; y</A>'),
    wrap('<A>x & y</A>'),
    wrap('<A><![CDATA[a<b]]></A>'),
    wrap('<A>a<!-- c -->b</A>'),
    wrap(`<A xmlns:xsi="${XSI}" xsi:nil="true"/>`),
    wrap('<A>a\r\nb</A>'),
    wrap('<A>a</A><A>b</A>'),
    wrap('<A><B>c</B></A>'),
    wrap('<A>x</A>') + '<!-- after -->',
    `<s:Envelope xmlns:s="${S11}"><s:Header><h xmlns="u"/></s:Header><s:Body><Op/></s:Body></s:Envelope>`,
    `<?xml version="1.1"?>${wrap('<A>x</A>')}`,
    ` ${wrap('<A>x</A>')}`,
  ]) {
    assert.equal(readPlainEnvelope(xml), undefined, xml);
    // decodeSoap still reads or refuses it, through saxes.
    assert.deepEqual(
      (() => {
        try {
          return decodeSoap(xml);
        } catch (e) {
          return `${(e as Error).constructor.name} ${(e as { code?: string }).code ?? ''}`;
        }
      })(),
      bySaxes(xml),
    );
  }
});

// Envelopes built from the pieces clients vary, mostly plain, sometimes not plain or not XML at all.
/** One of `usual` mostly, one of `odd` now and then. */
function mostly<T>(usual: readonly T[], odd: readonly T[]): fc.Arbitrary<T> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...usual), weight: 15 },
    { arbitrary: fc.constantFrom(...odd), weight: 1 },
  );
}
const space = mostly(['', ' ', '\n', '\t', '  \n  '], ['\r\n', '\r']);
const prefix = mostly(['', 's', 'soap', 'SOAP-ENV', 'soap-env'], ['xml', 'xmlns', 'a:b', 'é', '1']);
const text = fc
  .array(
    mostly(
      ['a', 'Zoë', '{"Text":"jo"}', ' ', '"', "'", '>', '\n', '\t', '😀', '\u0085', ']]'].concat(
        ['&amp;', '&quot;', '&lt;', '&gt;', '&apos;'], // XML's five: read by hand too
      ),
      ['&#65;', '&#x26;', '&bogus;', '&', '&amp', ']]>', '<', '\r', '\u0001', '\uD800', '\uFFFE'],
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));
const paramName = mostly(
  ['StringOfJSONParameters', 'DBName', 'AsType', 'Extra'],
  ['1x', 'a-b.c_d'],
);
const param = fc
  .record({
    name: paramName,
    // tns: declared by the operation element when it is tns:Op, by a parameter's own declaration
    // ('declares') for that parameter only, else by nobody.
    pre: mostly(['', 'ns0', 'tns'], ['undeclared', 'xml']),
    form: mostly(
      ['text', 'text', 'empty', 'emptySpace', 'open', 'declares'],
      ['nil', 'cdata', 'nested', 'attr'],
    ),
    text,
    sp: space,
  })
  .map(({ name, pre, form, text, sp }) => {
    const q = pre ? `${pre}:${name}` : name;
    switch (form) {
      case 'text':
        return `${sp}<${q}>${text}</${q}${sp}>`;
      case 'empty':
        return `<${q}/>`;
      case 'emptySpace':
        return `<${q} />`;
      case 'open':
        return `<${q}></${q}>`;
      case 'declares':
        return `<${q} xmlns:tns="urn:param-only">${text}</${q}>`;
      case 'nil':
        return `<${q} xmlns:xsi="${XSI}" xsi:nil="true"/>`;
      case 'cdata':
        return `<${q}><![CDATA[${text}]]></${q}>`;
      case 'nested':
        return `<${q}><b>${text}</b></${q}>`;
      default:
        return `<${q} xmlns:p="urn:p" p:x="1">${text}</${q}>`;
    }
  });
const envelope = fc
  .record({
    decl: mostly(
      [
        '',
        '<?xml version="1.0"?>',
        "<?xml version='1.0' encoding='UTF-8'?>",
        '<?xml version="1.0" encoding="utf-8" standalone="yes" ?>',
      ],
      [
        '<?xml version="1.1"?>',
        '<?xml version="1.0" encoding="1x"?>',
        '<?xml-stylesheet href="x"?>',
      ],
    ),
    envPre: prefix,
    envNs: mostly([S11, S12], ['urn:other', '']),
    declaredTwice: mostly([false], [true]),
    extraAttr: mostly(
      ['', ` xmlns:xsi="${XSI}"`, " xmlns:xsd='http://www.w3.org/2001/XMLSchema'"],
      [
        ' encodingStyle="x"',
        ' xmlns:p=""',
        ' xmlns:q="a\tb"',
        ' xmlns:xml="urn:x"',
        ' xmlns="a&amp;b"',
      ],
    ),
    header: mostly(['', 'empty', 'open', 'declares'], ['entry']),
    bodyEmpty: mostly([false], [true]),
    opPre: fc.constantFrom('', 'ns0', 'tns'),
    opDeclaredOn: mostly(['op', 'envelope'], ['none']),
    params: fc.array(param, { maxLength: 4 }),
    sp: fc.array(space, { minLength: 8, maxLength: 8 }),
    trailing: mostly(['', '\n'], ['<!-- c -->', 'junk', '<x/>']),
    cut: mostly([undefined], [0, 1, 17, 40, 100, 250]),
  })
  .map((e) => {
    const p = (name: string) => (e.envPre ? `${e.envPre}:${name}` : name);
    const envDecl = e.envPre ? `xmlns:${e.envPre}="${e.envNs}"` : `xmlns="${e.envNs}"`;
    const opNsDecl = e.opPre ? `xmlns:${e.opPre}="${OP_NS}"` : `xmlns="${OP_NS}"`;
    const op = e.opPre ? `${e.opPre}:Op` : 'Op';
    const header =
      e.header === 'empty'
        ? `<${p('Header')}/>`
        : e.header === 'open'
          ? `<${p('Header')}>${e.sp[0]}</${p('Header')}>`
          : e.header === 'declares'
            ? `<${p('Header')} xmlns:tns="urn:header-only"/>`
            : e.header === 'entry'
              ? `<${p('Header')}><h:X xmlns:h="urn:h" ${e.envPre ? `${e.envPre}:` : ''}mustUnderstand="1"/></${p('Header')}>`
              : '';
    const nsForParams = e.params.some((x) => x.includes('ns0:')) ? ' xmlns:ns0="urn:ns0"' : '';
    const body = e.bodyEmpty
      ? `<${p('Body')}/>`
      : `<${p('Body')}>${e.sp[1]}<${op}${e.opDeclaredOn === 'op' ? ` ${opNsDecl}` : ''}${nsForParams}>${e.params.join(e.sp[2])}${e.sp[3]}</${op}${e.sp[4]}>${e.sp[5]}</${p('Body')}>`;
    const xml = `${e.decl}${e.sp[6]}<${p('Envelope')} ${envDecl}${e.declaredTwice ? ` ${envDecl}` : ''}${e.extraAttr}${e.opDeclaredOn === 'envelope' ? ` ${opNsDecl}` : ''}>${header}${body}</${p('Envelope')}>${e.sp[7]}${e.trailing}`;
    return e.cut === undefined ? xml : xml.slice(0, e.cut % (xml.length + 1));
  });

test('property: wherever it answers, saxes reads the envelope the same', () => {
  let answered = 0,
    runs = 0;
  fc.assert(
    fc.property(envelope, (xml) => {
      runs++;
      const fast = readPlainEnvelope(xml);
      if (fast === undefined) return;
      answered++;
      assert.deepEqual(fast, bySaxes(xml), xml);
    }),
    { numRuns: 3000 },
  );
  // Not vacuous: a fair share of the generated envelopes are plain ones.
  assert.ok(answered > runs / 20, `answered ${answered} of ${runs}`);
});

test('many declarations on one tag are left to saxes (checking each against the others would be quadratic)', () => {
  const decls = (n: number) =>
    Array.from({ length: n }, (_, i) => ` xmlns:p${i}="urn:${i}"`).join('');
  const xml = (n: number) =>
    `<s:Envelope xmlns:s="${S11}"${decls(n)}><s:Body><Op xmlns="${OP_NS}"><A>x</A></Op></s:Body></s:Envelope>`;
  assert.equal(readPlainEnvelope(xml(50_000)), undefined);
  assert.ok(readPlainEnvelope(xml(63)), 'sixty-four declarations on a tag are still plain');
  assert.equal(readPlainEnvelope(xml(64)), undefined);
});
