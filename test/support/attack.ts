/**
 * Client side of the hostile-load suites: raw requests that survive the server answering before
 * the body is sent (node:http, not fetch, which reports an early answer as a failed upload), the
 * SOAP envelopes of every operation, and the normal client whose request must be answered while an
 * attack runs.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { OPERATIONS } from '../../src/operations/table.ts';
import { CONTENT_TYPE, SOAP11_NS, SOAP12_NS } from '../../src/protocol/constants.ts';
import { escapeText } from '../../src/render/xml.ts';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * Sends `body` (bytes, or pieces written one after another); resolves with the answer as soon as the
 * server has given it in full, even while the upload is still going or was cut off by the server.
 */
export function send(
  url: string,
  opts: {
    method?: string;
    headers?: Record<string, string | number>;
    body?: Buffer | string | Buffer[];
  } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'), headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    // A server that answers early and closes may reset the upload: that is no failure once the answer is in.
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
    const pieces =
      opts.body === undefined ? [] : Array.isArray(opts.body) ? opts.body : [opts.body];
    for (const p of pieces) req.write(p);
    req.end();
  });
}

export type SoapVersion = '1.1' | '1.2';

/** `<op xmlns="…">` with each parameter as a child element (text escaped), as generated proxies send it. */
export function operationElement(op: string, params: Record<string, string>): string {
  const o = OPERATIONS.find((x) => x.name === op)!;
  const ns = `${o.schemeless ? '' : 'http:'}//tempuri.org/API/${o.nsOp}RequestData`;
  return `<${op} xmlns="${ns}">${Object.entries(params)
    .map(([k, v]) => `<${k}>${escapeText(v)}</${k}>`)
    .join('')}</${op}>`;
}

export function envelope(v: SoapVersion, body: string, header = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${v === '1.1' ? SOAP11_NS : SOAP12_NS}">${header}<s:Body>${body}</s:Body></s:Envelope>`;
}

/** The headers a SOAP call of `op` goes with: SOAPAction for 1.1, the action parameter for 1.2. */
export function soapHeaders(
  v: SoapVersion,
  op: string,
  extra: Record<string, string | number> = {},
): Record<string, string | number> {
  const o = OPERATIONS.find((x) => x.name === op)!;
  const action = `${o.schemeless ? '' : 'http:'}//tempuri.org/API/${o.nsOp}`;
  return v === '1.1'
    ? { 'Content-Type': CONTENT_TYPE.soap11, SOAPAction: `"${action}"`, ...extra }
    : { 'Content-Type': `application/soap+xml; charset=utf-8; action="${action}"`, ...extra };
}

/** The error code of a SOAP fault (in its detail), of an HTTP GET/POST error (X-Error-Code) or of a JSON error (Code). */
export function errorCode(a: Answer): string | undefined {
  const header = a.headers['x-error-code'];
  if (typeof header === 'string') return header;
  const xml = /<Error Code="(\w+)"/.exec(a.body)?.[1];
  if (xml) return xml;
  try {
    return (JSON.parse(a.body) as { Code?: string }).Code;
  } catch {
    return undefined;
  }
}

/**
 * Runs `attack` and, once it is under way, a normal client's type-ahead request: the normal one must
 * be answered 200 with results whatever the attack does to its own request.
 */
export async function withNormalClient<T>(endpoint: string, attack: () => Promise<T>): Promise<T> {
  const running = attack();
  await new Promise((r) => setTimeout(r, 20));
  const normal = await send(
    `${endpoint}/GetPredictiveOptionsSearchContacts?StringOfJSONParameters=${encodeURIComponent('{"Text":"ma"}')}&DBName=Demo&AsType=JSON`,
  );
  assert.equal(
    normal.status,
    200,
    `the normal client was answered ${normal.status}: ${normal.body.slice(0, 200)}`,
  );
  assert.match(normal.body, /Options|Results|\[/, 'with a result');
  return running;
}

/** A figure from /metrics. */
export async function metric(base: string, name: string): Promise<number> {
  const text = (await send(`${base}/metrics`)).body;
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text); // with or without labels (worker="0")
  assert.ok(m, `${name} in /metrics`);
  return Number(m[1]);
}
