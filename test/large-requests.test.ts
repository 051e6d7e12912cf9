/**
 * Large requests (over LARGE_TEXT: an import's content) are read off the main thread's long turns:
 * the body decoded in slices (large-text/decode-sliced.ts), its JSON texts parsed on the large-text
 * worker (large-text/large-text.ts), which also reads the import's rows. What a client sees must
 * not change. Checked:
 * 1. A 2 MB ImportContacts over the JSON binding, names in two-, three- and four-byte UTF-8 (split
 *    across the slices): every contact stored exactly as sent; the texts went to the worker and none
 *    is left held there.
 * 2. The same file over SOAP 1.1 in UTF-16LE with a byte-order mark: stored exactly as sent.
 * 3. A large body that is not JSON, a large StringOfJSONParameters that is not JSON or not an object:
 *    InvalidJson, nothing written; the server answers a search after each.
 * 4. A large SOAP body that is no envelope (read on the worker) is answered exactly as the same body
 *    made small is: broken XML, another root, white space, not XML, a parameter twice.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { largeTextCounts } from '../src/large-text/large-text.ts';
import { LARGE_TEXT } from '../src/next-turn.ts';
import {
  operation,
  requestNamespace,
  soapAction,
  type OperationDef,
} from '../src/operations/table.ts';
import { CONTENT_TYPE, SOAP11_NS } from '../src/protocol/constants.ts';
import { escapeText } from '../src/render/xml.ts';
import { contact } from './cases/store.case.ts';
import { startRealService, type RealService } from './support/real-service.ts';

const ROWS = 20_000;
/** Letters only (a name's digits are a token of their own): row i's name in base 26. */
const tag = (i: number) =>
  [...i.toString(26)].map((d) => 'abcdefghijklmnopqrstuvwxyz'[parseInt(d, 26)]).join('');
const rows = (prefix: string) =>
  Array.from({ length: ROWS }, (_, i) => ({
    id: `${prefix}${i}`,
    first: `Łukasz李${tag(i)}`,
    last: `Ñúñez𠜎${'ø'.repeat(i % 7)}`,
    organization: `Société Générale 東京支店 ${tag(i)}`,
  }));
const csv = (list: ReturnType<typeof rows>) =>
  [
    'ContactId,First Name,Last Name,Company',
    ...list.map((r) => `${r.id},${r.first},${r.last},${r.organization}`),
  ].join('\r\n');
const importJson = (content: string) =>
  JSON.stringify({ Request: 'ImportContacts', DBName: 'Demo', Format: 'CSV', Content: content });

let svc: RealService;
before(async () => {
  // Any body may be large here (not only ProcessRequest's): test 4's bodies that are no envelope.
  svc = await startRealService({
    contacts: [contact('k1', 'Kept', 'One')],
    config: { limits: { ...DEFAULT_LIMITS, bodyBytes: 8 * LARGE_TEXT } },
  });
});
after(async () => {
  await svc?.close();
});

const stored = (prefix: string) =>
  [...svc.databases.get('Demo').all()]
    .filter((c) => c.ContactId.startsWith(prefix))
    .map((c) => ({
      id: c.ContactId,
      first: c.FirstName,
      last: c.LastName,
      organization: c.Organization,
    }))
    .sort((a, b) => Number(a.id.slice(prefix.length)) - Number(b.id.slice(prefix.length)));

const ajax = (body: string) =>
  fetch(`${svc.endpoint}/ProcessRequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });

function soap11(json: string, encoding: 'utf8' | 'utf16le') {
  const op = operation('ProcessRequest') as OperationDef;
  const xml =
    `<?xml version="1.0" encoding="${encoding === 'utf8' ? 'utf-8' : 'utf-16'}"?><soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><ProcessRequest xmlns="${requestNamespace(op, 'tempuri.org')}">` +
    `<StringOfJSONParameters>${escapeText(json)}</StringOfJSONParameters></ProcessRequest></soap:Body></soap:Envelope>`;
  const body =
    encoding === 'utf8'
      ? Buffer.from(xml)
      : Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]);
  return fetch(svc.endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': `${CONTENT_TYPE.soap11.split(';')[0]}; charset=${encoding === 'utf8' ? 'utf-8' : 'utf-16'}`,
      SOAPAction: `"${soapAction(op, 'tempuri.org')}"`,
    },
    body,
  });
}

/** A search still answers (the server is up and not wedged): Kept One is found. */
async function searchAnswers() {
  const r = await fetch(
    `${svc.endpoint}/GetPredictiveOptionsSearchContacts?StringOfJSONParameters=${encodeURIComponent('{"Text":"kept"}')}&DBName=Demo&AsType=JSON`,
  );
  assert.equal(r.status, 200);
  assert.match(await r.text(), /Kept One/);
}

/**
 * Rows of `prefix` imported by `send` (given the ImportContacts JSON): answered 200, every contact
 * stored as sent, and the body, its StringOfJSONParameters and their Content each held by the
 * worker, then let go. The answer's body.
 */
async function importedAsSent(prefix: string, send: (json: string) => Promise<Response>) {
  const list = rows(prefix);
  const json = importJson(csv(list));
  assert.ok(json.length > LARGE_TEXT, `${json.length} characters`);
  const made = largeTextCounts().made;
  const r = await send(json);
  const body = await r.text();
  assert.equal(r.status, 200, body.slice(0, 300));
  assert.deepEqual(stored(prefix), list);
  assert.equal(largeTextCounts().made, made + 3);
  assert.equal(largeTextCounts().held, 0);
  await searchAnswers();
  return body;
}

test('1. a 2 MB ImportContacts over JSON: every contact stored as sent, its JSON parsed off the main thread', async () => {
  const body = await importedAsSent('j', (json) =>
    ajax(JSON.stringify({ StringOfJSONParameters: json })),
  );
  assert.match(
    body,
    new RegExp(`Inserted=\\\\"${ROWS}\\\\"|Inserted=&quot;${ROWS}&quot;`),
    body.slice(0, 500),
  );
});

test('2. the same file over SOAP 1.1 in UTF-16LE with a byte-order mark: stored as sent', async () => {
  await importedAsSent('s', (json) => soap11(json, 'utf16le'));
});

test('2b. the same file over HTTP POST (a form): stored as sent', async () => {
  await importedAsSent('f', (json) =>
    fetch(`${svc.endpoint}/ProcessRequest`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ StringOfJSONParameters: json }).toString(),
    }),
  );
});

test('3. a large body or StringOfJSONParameters that is not JSON, or not an object: InvalidJson, nothing written', async () => {
  const count = () => svc.databases.get('Demo').size;
  const before = count();
  const json = importJson(csv(rows('x')));
  const code = async (r: Response) => {
    const text = await r.text();
    return {
      status: r.status,
      code: (JSON.parse(text) as { Code?: string }).Code,
      text: text.slice(0, 200),
    };
  };
  // The body itself is not JSON (cut short).
  const cut = JSON.stringify({ StringOfJSONParameters: json }).slice(0, -2);
  assert.deepEqual((({ status, code: c }) => ({ status, code: c }))(await code(await ajax(cut))), {
    status: 400,
    code: 'InvalidJson',
  });
  // The body is JSON, its StringOfJSONParameters is not; or is a list.
  for (const inner of [json.slice(0, -1), `[${json}]`]) {
    const r = await code(await ajax(JSON.stringify({ StringOfJSONParameters: inner })));
    assert.equal(r.code, 'InvalidJson', r.text);
  }
  // Over SOAP, a StringOfJSONParameters that is not JSON.
  const s = await soap11(json.slice(0, -1), 'utf8');
  assert.equal(/<Error Code="(\w+)"/.exec(await s.text())?.[1], 'InvalidJson');
  assert.equal(count(), before, 'nothing written');
  assert.equal(largeTextCounts().held, 0, 'nothing left held by the worker');
  await searchAnswers();
});

test('4. a large SOAP body that is no envelope is answered as the same small body is: broken XML, another root, white space, a parameter twice', async () => {
  const op = operation('ProcessRequest') as OperationDef;
  const post = async (body: string, type: string) => {
    const r = await fetch(svc.endpoint, {
      method: 'POST',
      headers: { 'Content-Type': type, SOAPAction: `"${soapAction(op, 'tempuri.org')}"` },
      body,
    });
    return { status: r.status, type: r.headers.get('content-type'), body: await r.text() };
  };
  const envelope = (text: string) =>
    `<soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><ProcessRequest xmlns="${requestNamespace(op, 'tempuri.org')}"><StringOfJSONParameters>${escapeText(text)}</StringOfJSONParameters></ProcessRequest></soap:Body></soap:Envelope>`;
  const shapes: [string, (filler: string) => string][] = [
    ['broken XML', (f) => envelope(f).slice(0, -30)],
    ['another root', (f) => `<Other>${f}</Other>`],
    ['white space', (f) => ' '.repeat(f.length)],
    ['not XML', (f) => `x${f}`],
    [
      'a parameter twice',
      (f) => envelope(f).replace('</ProcessRequest>', '<StringOfJSONParameters/></ProcessRequest>'),
    ],
  ];
  for (const type of [CONTENT_TYPE.soap11, CONTENT_TYPE.soap12])
    for (const [what, body] of shapes) {
      const small = await post(body('a'.repeat(100)), type);
      const large = await post(body('a'.repeat(LARGE_TEXT + 10)), type);
      assert.ok(small.status >= 400, `${what}: ${small.status}`);
      assert.deepEqual(large, small, `${what} (${type})`);
    }
  assert.equal(largeTextCounts().held, 0, 'nothing left held by the worker');
  await searchAnswers();
});
