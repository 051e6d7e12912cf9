/**
 * Replays every transcript in test/fixtures/golden against our wire layer (backed by an echo double that
 * answers as the oracle did) and compares status, content type and XML structure: element names and
 * namespaces, attributes; echoed text aside. Where CONTRACT.md §10 departs from the runtime on
 * purpose, DEPARTURES says what we answer instead and the test asserts that.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { SaxesParser } from 'saxes';
import { echoService } from './support/echo-service.ts';
import { startServer, type Running } from './support/server.ts';

/** The transcripts are vendored in the repository (test/fixtures/README.md says where they came from). */
const GOLDEN = resolve(import.meta.dirname, 'fixtures/golden');

interface Transcript {
  method: string;
  path: string;
  headers: [string, string][];
  body: Buffer;
  status?: number;
  contentType?: string;
  responseBody: string;
}

function parse(file: string): Transcript {
  const raw = readFileSync(file);
  const sep = raw.indexOf('\n=== RESPONSE ===\n');
  const req = raw.subarray(0, sep);
  const headEnd = req.indexOf('\r\n\r\n');
  const [requestLine, ...headerLines] = req.subarray(0, headEnd).toString('latin1').split('\r\n');
  const [method, path] = requestLine.split(' ');
  const headers = headerLines.map(
    (l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string],
  );
  const body = req.subarray(headEnd + 4);
  const res = raw.subarray(sep + '\n=== RESPONSE ===\n'.length).toString('utf8');
  const resHeadEnd = res.indexOf('\r\n\r\n');
  const resLines = res.slice(0, resHeadEnd < 0 ? res.length : resHeadEnd).split('\r\n');
  const status = Number(resLines[0].split(' ')[1]) || undefined;
  const ct = resLines
    .find((l) => /^content-type:/i.test(l))
    ?.slice(13)
    .trim();
  return {
    method,
    path,
    headers,
    body,
    status,
    contentType: ct,
    responseBody: resHeadEnd < 0 ? '' : res.slice(resHeadEnd + 4),
  };
}

function send(
  server: Running,
  t: Transcript,
): Promise<{ status: number; contentType: string; body: string }> {
  const url = new URL(server.base);
  const headers: Record<string, string> = {};
  for (const [k, v] of t.headers) if (!/^(host|content-length)$/i.test(k)) headers[k] = v;
  if (t.body.length || t.method === 'POST' || t.method === 'PUT')
    headers['Content-Length'] = String(t.body.length);
  return new Promise((resolveP, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: t.method, path: t.path, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolveP({
            status: res.statusCode!,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(t.body);
  });
}

interface Node {
  name: string;
  attrs: string[];
  children: Node[];
}

function tree(xml: string, host: string): Node | undefined {
  if (!xml.trimStart().startsWith('<?xml') && !xml.trimStart().startsWith('<')) return undefined;
  const p = new SaxesParser({ xmlns: true });
  const stack: Node[] = [{ name: '#doc', attrs: [], children: [] }];
  p.on('opentag', (t) => {
    const attrs = Object.values(t.attributes)
      .filter(
        (a) =>
          a.prefix !== 'xmlns' && a.local !== 'xmlns' && !(a.prefix === '' && a.name === 'xmlns'),
      )
      .map((a) => `{${a.uri}}${a.local}=${a.value.replace(/127\.0\.0\.1:\d+/g, host)}`)
      .sort();
    const n: Node = { name: `{${t.uri}}${t.local}`, attrs, children: [] };
    stack[stack.length - 1].children.push(n);
    stack.push(n);
  });
  p.on('closetag', () => {
    stack.pop();
  });
  try {
    p.write(xml).close();
  } catch {
    return undefined;
  }
  return stack[0];
}

/** The first structural difference, as a path, or undefined. */
function diff(a: Node, b: Node, path = ''): string | undefined {
  const here = `${path}/${b.name}`;
  if (a.name !== b.name) return `${path}: expected ${b.name}, got ${a.name}`;
  if (a.attrs.join('\n') !== b.attrs.join('\n'))
    return `${here}: attributes expected [${b.attrs}] got [${a.attrs}]`;
  if (a.children.length !== b.children.length)
    return `${here}: expected ${b.children.length} child elements, got ${a.children.length} (${a.children.map((c) => c.name)})`;
  for (let i = 0; i < a.children.length; i++) {
    const d = diff(a.children[i], b.children[i], here);
    if (d) return d;
  }
  return undefined;
}

const media = (ct: string | undefined) => (ct ?? '').split(';')[0].trim().toLowerCase();

/** CONTRACT.md §10 departures: what we answer instead, and why. */
interface Departure {
  status: number;
  contentType?: string;
  reason: string;
  check?: (body: string) => void;
}

const faultCode = (code: string) => (body: string) =>
  assert.match(body, new RegExp(`<Error Code="${code}"`), `fault detail carries ${code}`);
const inlineXml = (body: string) =>
  assert.match(
    body,
    /<Document Operation="GetSearchResults" xmlns="">/,
    'the document is written inline like -XMLNodes',
  );
const departures: Record<string, Departure> = {};
for (const b of ['soap11', 'soap12', 'get', 'post']) {
  const ct = b === 'soap12' ? 'application/soap+xml' : 'text/xml';
  departures[`${b}-GetSearchResults-XML`] = {
    status: 200,
    contentType: ct,
    reason:
      'AsType XML is written inline like -XMLNodes (the runtime cannot serialize an XmlElement)',
    check: inlineXml,
  };
  departures[`${b}-GetSearchResults-XMLDocument`] = {
    status: 200,
    contentType: ct,
    reason: 'element results are written inline like -XMLNodes',
    check: inlineXml,
  };
  departures[`customerrors-on-${b}-GetSearchResults-XML`] = departures[`${b}-GetSearchResults-XML`];
}
for (const b of ['get', 'post']) {
  for (const op of ['GetSearchResults', 'ProcessRequest']) {
    departures[`${b}-${op}-xmlspecial`] = {
      status: 200,
      contentType: 'text/xml',
      reason: 'no ASP.NET request validation: markup in parameters is data, escaped on the way out',
    };
  }
}
departures['customerrors-on-get-GetSearchResults-xmlspecial'] =
  departures['get-GetSearchResults-xmlspecial'];
// Without the transcripts the presence test below fails and says where it looked.
const files = existsSync(GOLDEN)
  ? readdirSync(GOLDEN)
      .filter((f) => f.endsWith('.txt'))
      .sort()
  : [];
for (const f of files.filter((n) => /^doc-op-|^customerrors-on-doc-op-/.test(n))) {
  const name = f.replace(/\.txt$/, '');
  departures[name] = name.endsWith('NoSuchOp')
    ? {
        status: 404,
        contentType: 'text/html',
        reason: 'an unknown operation page is a 404, not a help-generator crash',
      }
    : {
        status: 200,
        contentType: 'text/html',
        reason: '?op= answers the operation page with samples and test form (Mono crashes)',
      };
}
departures['soap11-action-body-mismatch'] = {
  status: 500,
  contentType: 'text/xml',
  reason: 'SOAPAction/body mismatch is a Client fault naming it',
  check: faultCode('ActionMismatch'),
};
departures['soap12-action-param-mismatch'] = {
  status: 500,
  contentType: 'application/soap+xml',
  reason: 'action/body mismatch is a Sender fault naming it',
  check: faultCode('ActionMismatch'),
};
departures['soap11-wrong-namespace'] = {
  status: 500,
  contentType: 'text/xml',
  reason: 'a wrapper in the wrong namespace is a Client fault naming it',
  check: faultCode('ActionMismatch'),
};
departures['get-GetSearchResults-long'] = {
  status: 431,
  reason: 'a 100 KB URL gets 431 from the HTTP server; the runtime dropped the connection',
};

let server: Running;
before(async () => {
  server = await startServer(echoService);
});
after(async () => {
  await server.close();
});

test('golden transcripts are present in test/fixtures/golden', () => {
  assert.ok(files.length > 100, `expected the transcripts in ${GOLDEN}`);
});

for (const file of files) {
  const name = file.replace(/\.txt$/, '');
  test(`golden ${name}`, async () => {
    const t = parse(join(GOLDEN, file));
    const got = await send(server, t);
    const dep = departures[name];
    if (dep) {
      assert.equal(got.status, dep.status, `${name}: ${dep.reason}`);
      if (dep.contentType)
        assert.equal(media(got.contentType), dep.contentType, `${name}: content type`);
      dep.check?.(got.body);
      return;
    }
    assert.equal(got.status, t.status, `${name}: status`);
    assert.equal(media(got.contentType), media(t.contentType), `${name}: content type`);
    if (
      media(t.contentType) === 'text/html' ||
      media(t.contentType) === 'text/plain' ||
      media(t.contentType) === 'application/json'
    ) {
      if (media(t.contentType) === 'text/plain')
        assert.doesNotMatch(
          got.body,
          /\n\s+at |\{0\}|System\./,
          'no stack trace, type name or placeholder',
        );
      return;
    }
    if (t.responseBody === '') {
      assert.equal(got.body, '', `${name}: empty body`);
      return;
    }
    const want = tree(t.responseBody, new URL(server.base).host);
    const have = tree(got.body, new URL(server.base).host);
    assert.ok(want && have, `${name}: both bodies are XML`);
    // Our faults carry <Error Code=…/> in detail (CONTRACT §10): compare the fault without it, then check it.
    const d = diff(stripDetail(have!), stripDetail(want!));
    assert.equal(d, undefined, `${name}: ${d}`);
    if (/<soap:Fault>/.test(t.responseBody) && !/MustUnderstand/.test(t.responseBody))
      assert.match(got.body, /<Error Code="\w+"/);
    assert.doesNotMatch(
      got.body,
      /\n\s+at |System\.\w+Exception/,
      'no stack trace or exception type',
    );
  });
}

function stripDetail(n: Node): Node {
  if (/\}(detail|Detail)$/.test(n.name)) return { ...n, children: [] };
  return { ...n, children: n.children.map(stripDetail) };
}
