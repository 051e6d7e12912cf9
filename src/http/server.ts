/**
 * The HTTP front: one endpoint path, its help pages and WSDL, the search page, /healthz, /metrics.
 * Reads the body within the size limits, finds the binding and writes what it answers.
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { Config } from '../config.ts';
import { arrival } from '../arrivals.ts';
import { fail, ServiceError } from '../errors.ts';
import { OPERATIONS, operation, type OperationDef } from '../operations/table.ts';
import { CACHE_NOT_RAN, CACHE_RAN, CONTENT_TYPE } from '../protocol/constants.ts';
import { notFoundPage, operationPage, servicePage, unrecognizedFormatPage } from '../protocol/help-page.ts';
import { createFormBinding, resolveOperation } from '../protocol/http-form/binding.ts';
import { formError } from '../protocol/http-form/encode.ts';
import { createJsonBinding } from '../protocol/json/binding.ts';
import { createSoapBinding } from '../protocol/soap/binding.ts';
import { fault } from '../protocol/soap/encode.ts';
import { headerList, type WireResponse } from '../protocol/wire.ts';
import { disco, wsdl } from '../protocol/wsdl.ts';
import { KeyRing } from '../security/api-keys.ts';
import { CallerRateLimits } from '../security/rate-limit.ts';
import type { Caller, Service } from '../service/types.ts';
import { EventLoopWatchdog } from './event-loop-watchdog.ts';
import { METRICS_CONTENT_TYPE, renderMetrics } from './metrics.ts';

export type Log = (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;

export interface ServerDeps {
  config: Config;
  service: Service;
  log?: Log;
  /** The caller's IP address; the socket's peer by default (tests inject others to act as remote callers). */
  clientAddress?: (req: http.IncomingMessage) => string | undefined;
}

const SEARCH_PAGE = readFileSync(new URL('../web/search.html', import.meta.url), 'utf8');

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function html(status: number, body: string, cache = CACHE_NOT_RAN): WireResponse {
  return { status, headers: { 'Content-Type': CONTENT_TYPE.html, 'Cache-Control': cache }, body };
}

class TooLarge extends Error {}

function readBody(req: http.IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > max) {
      req.resume();
      reject(new TooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        req.destroy();
        reject(new TooLarge());
        return;
      }
      chunks.push(c);
    });
    // Most bodies arrive in one chunk: no copy into a new buffer for them.
    req.on('end', () => resolve((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8')));
    req.on('error', reject);
  });
}

const peerAddress = (req: http.IncomingMessage) => req.socket.remoteAddress;

export function createServer({ config, service, log = () => {}, clientAddress = peerAddress }: ServerDeps): http.Server {
  const base = `/DesktopModules/${config.module}_Common/WebServices/`;
  const endpoint = `${base}API.asmx`;
  const endpointLower = endpoint.toLowerCase();
  const searchPageLower = `${base}search.html`.toLowerCase();
  const onInternalError = (e: unknown) => log('error', 'operation failed', { error: e instanceof Error ? e.message : String(e) });
  const soap = createSoapBinding(config.nsBase, service, onInternalError, config.limits.resultCacheEntries);
  const form = createFormBinding(config.nsBase, service, onInternalError);
  const json = createJsonBinding(service, onInternalError);
  const keys = new KeyRing(config.keys);
  const rateLimits = new CallerRateLimits(config.limits);
  const watchdog = new EventLoopWatchdog(config.limits.eventLoopBlockMs, log);
  const limits = config.limits;
  const processRequest = operation('ProcessRequest')!;

  async function route(req: http.IncomingMessage): Promise<WireResponse> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const raw = q < 0 ? url : url.slice(0, q);
    const path = raw.includes('%') ? decodeURI(raw) : raw;
    const query = q < 0 ? '' : url.slice(q + 1);
    const method = req.method ?? 'GET';
    const address = clientAddress(req);
    const loopback = isLoopback(address);
    const lower = path.toLowerCase();

    if (path === '/healthz') return health(service.down?.() ?? []);
    // Public like /healthz: counts and durations only (docs/SECURITY.md).
    if (path === '/metrics') {
      return { status: 200, headers: { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' },
        body: renderMetrics({ eventLoop: watchdog.stats(), rateLimitAddressBuckets: rateLimits.addressBuckets, resultCache: service.stats?.().resultCache, worker: cluster.worker?.id ?? 0 }) };
    }
    if (path === '/') return { status: 302, headers: { Location: endpoint, 'Content-Type': CONTENT_TYPE.text, 'Cache-Control': CACHE_NOT_RAN }, body: '' };
    if (lower === searchPageLower && method === 'GET') return html(200, SEARCH_PAGE, CACHE_RAN);
    if (query.length > limits.queryStringChars) {
      return html(400, notFoundPage(`The length of the query string exceeds ${limits.queryStringChars} characters.`)); // golden customerrors-on-get-GetSearchResults-2k
    }

    if (lower === endpointLower) {
      if (method === 'GET') return documents(query, req.headers.host ?? `${config.host}:${config.port}`, loopback);
      if (method !== 'POST') return html(405, unrecognizedFormatPage()); // golden put-endpoint, delete-endpoint, options-endpoint, doc-head
      const caller = authenticate(req, address, loopback);
      if (caller instanceof ServiceError) return unauthorized(caller);
      let body: string;
      try {
        body = await readBody(req, limits.processRequestBodyBytes);
      } catch (e) {
        if (e instanceof TooLarge) return payloadTooLarge();
        throw e;
      }
      if (Buffer.byteLength(body) > limits.bodyBytes && !looksLikeProcessRequest(req, body)) {
        return fault(/^\s*text\/xml/i.test(req.headers['content-type'] ?? '') ? '1.1' : '1.2',
          fail('PayloadTooLarge', `The request body is over ${limits.bodyBytes} bytes.`), false);
      }
      return soap({ contentType: req.headers['content-type'], soapAction: req.headers.soapaction, body, caller, arrival: await arrival() });
    }

    if (lower.startsWith(`${endpointLower}/`)) {
      const name = path.slice(endpoint.length + 1);
      if (method !== 'GET' && method !== 'POST') {
        return html(500, unrecognizedFormatPage(name)); // golden put-op, delete-op
      }
      const op = resolveOperation(name);
      if (!('name' in op)) return op;
      const caller = authenticate(req, address, loopback);
      if (caller instanceof ServiceError) return unauthorized(caller);
      let body = '';
      if (method === 'POST') {
        try {
          body = await readBody(req, op === processRequest ? limits.processRequestBodyBytes : limits.bodyBytes);
        } catch (e) {
          if (e instanceof TooLarge) return formError(fail('PayloadTooLarge', 'The request body is over its size limit.'), false);
          throw e;
        }
      }
      // The requests read in this turn run after all of them were read: one change-feed check serves them all (arrivals.ts).
      const arrived = await arrival();
      if (method === 'POST' && /^\s*application\/json\b/i.test(req.headers['content-type'] ?? '')) return json(body, op, caller, arrived);
      return form({ verb: method as 'GET' | 'POST', opName: name, query, contentType: req.headers['content-type'], body, caller, arrival: arrived }, op as OperationDef);
    }
    return html(404, notFoundPage(`${path} is not served here.`)); // golden get-wrong-path
  }

  function documents(query: string, host: string, loopback: boolean): WireResponse {
    const params = new URLSearchParams(query);
    const keysLower = new Map([...params.keys()].map((k) => [k.toLowerCase(), k]));
    const address = `http://${host}${endpoint}`;
    const xml = (body: string) => ({ status: 200, headers: { 'Content-Type': CONTENT_TYPE.xml, 'Cache-Control': CACHE_RAN }, body });
    if (keysLower.has('wsdl')) return xml(wsdl(config.nsBase, address));
    if (keysLower.has('disco')) return xml(disco(config.nsBase, address));
    const opKey = keysLower.get('op');
    if (opKey !== undefined) {
      const name = params.get(opKey) ?? '';
      const op = OPERATIONS.find((o) => o.name === name) as OperationDef | undefined;
      if (!op) return html(404, notFoundPage(`There is no operation named "${name}".`));
      return html(200, operationPage(op, config.nsBase, host, endpoint, loopback), CACHE_RAN);
    }
    return html(200, servicePage(endpoint), CACHE_RAN);
  }

  function authenticate(req: http.IncomingMessage, address: string | undefined, loopback: boolean): Omit<Caller, 'binding'> | ServiceError {
    try {
      const key = keys.authenticate(req.headers.authorization);
      const { wait, subject } = rateLimits.take({ keyId: key?.id, address, loopback });
      if (wait > 0) return Object.assign(fail('TooManyRequests', `${subject} is over its rate limit; retry in ${wait} s.`), { retryAfter: wait });
      return { loopback, keyId: key?.id, key };
    } catch (e) {
      return e as ServiceError;
    }
  }

  // Node checks the header and request timeouts on this interval (30 s by default): a slow client
  // would otherwise hold its connection up to 30 s past its limit.
  const server = http.createServer({ connectionsCheckingInterval: Math.min(1000, limits.headerMs) }, (req, res) => {
    route(req)
      .catch((e: unknown): WireResponse => {
        log('error', 'request failed', { error: e instanceof Error ? e.message : String(e) });
        return { status: 500, headers: { 'Content-Type': CONTENT_TYPE.text, 'Cache-Control': CACHE_NOT_RAN }, body: 'The service could not complete the request.\n' };
      })
      .then((w) => {
        if (res.headersSent) return;
        res.writeHead(w.status, w.rawHeaders ?? headerList(w));
        res.end(req.method === 'HEAD' ? undefined : w.body);
      });
  });
  server.on('listening', () => watchdog.start());
  server.on('close', () => watchdog.stop());
  server.headersTimeout = limits.headerMs;
  server.requestTimeout = limits.requestMs;
  server.keepAliveTimeout = 15_000;
  return server;
}

function looksLikeProcessRequest(req: http.IncomingMessage, body: string): boolean {
  const action = `${req.headers.soapaction ?? ''} ${req.headers['content-type'] ?? ''}`;
  return /\/ProcessRequest"?\s*$|action="?[^"]*\/ProcessRequest/.test(action) || /<(?:[\w.-]+:)?ProcessRequest[\s>]/.test(body.slice(0, 8192));
}

/** 401 with a Basic challenge, or 429 with Retry-After: answered before any binding runs. */
function unauthorized(err: ServiceError & { retryAfter?: number }): WireResponse {
  const headers: Record<string, string> = { 'Content-Type': CONTENT_TYPE.text, 'Cache-Control': CACHE_NOT_RAN };
  if (err.code === 'TooManyRequests') headers['Retry-After'] = String(err.retryAfter ?? 1);
  else headers['WWW-Authenticate'] = 'Basic realm="Contact Search", charset="UTF-8"';
  return { status: err.httpStatus, headers, body: `${err.message}\n` };
}

/** 200 `ok`, or 503 naming each database that does not answer (a load balancer takes the node out). */
function health(down: { name: string; reason: string }[]): WireResponse {
  const body = down.length ? down.map((d) => `database ${d.name} unavailable: ${d.reason}\n`).join('') : 'ok\n';
  return { status: down.length ? 503 : 200, headers: { 'Content-Type': CONTENT_TYPE.text, 'Cache-Control': 'no-store' }, body };
}

function payloadTooLarge(): WireResponse {
  return { status: 413, headers: { 'Content-Type': CONTENT_TYPE.text, 'Cache-Control': CACHE_NOT_RAN, Connection: 'close' }, body: 'The request body is over its size limit.\n' };
}

