/**
 * The HTTP front: one endpoint path, its help pages and WSDL, the search page, /healthz, /metrics.
 * Reads the body within the size limits, finds the binding and writes what it answers.
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { isIP } from 'node:net';
import type { Config } from '../config.ts';
import { arrival } from '../arrivals.ts';
import { fail, ServiceError } from '../errors.ts';
import { OPERATIONS, operation, type OperationDef } from '../operations/table.ts';
import { CACHE_NOT_RAN, CACHE_RAN, CONTENT_TYPE } from '../protocol/constants.ts';
import { notFoundPage, operationPage, servicePage, unrecognizedFormatPage } from '../protocol/help-page.ts';
import { createFormBinding, resolveOperation } from '../protocol/http-form/binding.ts';
import { formError } from '../protocol/http-form/encode.ts';
import { createJsonBinding, jsonError } from '../protocol/json/binding.ts';
import { createSoapBinding } from '../protocol/soap/binding.ts';
import { fault } from '../protocol/soap/encode.ts';
import { headerList, type WireResponse } from '../protocol/wire.ts';
import { disco, wsdl } from '../protocol/wsdl.ts';
import { KeyRing } from '../security/api-keys.ts';
import { CallerRateLimits } from '../security/rate-limit.ts';
import type { Caller, Service } from '../service/types.ts';
import { operationElementOf } from '../protocol/soap/sniff.ts';
import { crossSiteWriter } from '../security/same-origin.ts';
import { EventLoopWatchdog } from './event-loop-watchdog.ts';
import { InflightBodies } from './inflight-bodies.ts';
import { METRICS_CONTENT_TYPE, renderMetrics } from './metrics.ts';
import { BodyRefused, readBody } from './read-body.ts';

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

/** A host to listen on that is loopback: `localhost` or a loopback IP, never a name like 127.example.com (it may resolve anywhere). */
export function isLoopbackHost(host: string): boolean {
  return host.toLowerCase() === 'localhost' || (isIP(host) !== 0 && isLoopback(host));
}

function html(status: number, body: string, cache = CACHE_NOT_RAN): WireResponse {
  return { status, headers: { 'Content-Type': CONTENT_TYPE.html, 'Cache-Control': cache }, body };
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
  const inflight = new InflightBodies(limits.inflightBodyBytes, limits.inflightBodyWaitMs);

  /** A SOAP body over 1 MiB may go on to 64 MiB when its envelope routes to ProcessRequest (sniff.ts). */
  const soapBodyLimit = (req: http.IncomingMessage) => (head: string) => {
    const f = operationElementOf(head);
    const op = f && soap.routedOperation(f.version, req.headers['content-type'], req.headers.soapaction, f);
    return op === processRequest ? limits.processRequestBodyBytes : limits.bodyBytes;
  };

  async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<WireResponse> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const raw = q < 0 ? url : url.slice(0, q);
    let path = raw;
    try {
      if (raw.includes('%')) path = decodeURI(raw);
    } catch {
      return html(400, notFoundPage('The path holds a malformed %-escape.')); // the client's mistake: no error logged
    }
    const query = q < 0 ? '' : url.slice(q + 1);
    const method = req.method ?? 'GET';
    const address = clientAddress(req);
    const loopback = isLoopback(address);
    const lower = path.toLowerCase();

    if (path === '/healthz') return { status: 200, headers: { 'Content-Type': CONTENT_TYPE.text, 'Cache-Control': 'no-store' }, body: 'ok\n' };
    // Public like /healthz: counts and durations only (docs/SECURITY.md).
    if (path === '/metrics') {
      return { status: 200, headers: { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' },
        body: renderMetrics({ eventLoop: watchdog.stats(), rateLimitAddressBuckets: rateLimits.addressBuckets, resultCache: service.stats?.().resultCache, worker: cluster.worker?.id ?? 0,
          inflightBodyBytes: inflight.bytesHeld }) };
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
        body = await readBody(req, res, { max: limits.bodyBytes, ceiling: limits.processRequestBodyBytes, limitFor: soapBodyLimit(req) }, inflight);
      } catch (e) {
        if (!(e instanceof BodyRefused) || e.why !== 'tooLarge') throw e;
        const v = /^\s*text\/xml/i.test(req.headers['content-type'] ?? '') ? '1.1' : '1.2';
        return closing(fault(v, fail('PayloadTooLarge',
          `The request body is over its size limit (${limits.bodyBytes} bytes; ProcessRequest ${limits.processRequestBodyBytes}).`), false));
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
          body = await readBody(req, res, { max: op === processRequest ? limits.processRequestBodyBytes : limits.bodyBytes }, inflight);
        } catch (e) {
          if (!(e instanceof BodyRefused) || e.why !== 'tooLarge') throw e;
          const err = fail('PayloadTooLarge', `The request body is over its size limit (${op === processRequest ? limits.processRequestBodyBytes : limits.bodyBytes} bytes).`);
          return closing(/^\s*application\/json\b/i.test(req.headers['content-type'] ?? '') ? jsonError(err, false) : formError(err, false));
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
      return { loopback, keyId: key?.id, key, crossSite: crossSiteWriter(req.headers, config.allowedOrigins) };
    } catch (e) {
      return e as ServiceError;
    }
  }

  // Node checks the header and request timeouts on this interval (30 s by default): a slow client
  // would otherwise hold its connection up to 30 s past its limit.
  const server = http.createServer({ connectionsCheckingInterval: Math.min(1000, limits.headerMs) }, (req, res) => {
    route(req, res)
      .catch((e: unknown): WireResponse => {
        if (e instanceof BodyRefused && e.why === 'busy') return serviceBusy();
        // A client that gave up is no failure of ours (issue 27: one burst logged 19,952 error lines).
        if (e instanceof BodyRefused) log('info', 'client left before sending its whole request');
        else log('error', 'request failed', { error: e instanceof Error ? e.message : String(e) });
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

/** 401 with a Basic challenge, or 429 with Retry-After: answered before any binding runs. */
function unauthorized(err: ServiceError & { retryAfter?: number }): WireResponse {
  const headers: Record<string, string> = { 'Content-Type': CONTENT_TYPE.text, 'Cache-Control': CACHE_NOT_RAN };
  if (err.code === 'TooManyRequests') headers['Retry-After'] = String(err.retryAfter ?? 1);
  else headers['WWW-Authenticate'] = 'Basic realm="Contact Search", charset="UTF-8"';
  return { status: err.httpStatus, headers, body: `${err.message}\n` };
}

/** An answer given before the request's body was read to its end: the connection cannot carry another request. */
function closing(w: WireResponse): WireResponse {
  return { ...w, headers: { ...w.headers, Connection: 'close' } };
}

/** 503 when the in-flight body budget stayed full (inflight-bodies.ts). */
function serviceBusy(): WireResponse {
  return { status: 503, headers: { 'Content-Type': CONTENT_TYPE.text, 'Cache-Control': CACHE_NOT_RAN, 'Retry-After': '1', Connection: 'close' },
    body: 'The server is receiving as many large request bodies as it can hold at once (limits.inflightBodyBytes); retry in a second.\n' };
}
