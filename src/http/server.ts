/**
 * The HTTP front: one endpoint path, its help pages and WSDL, the search page, /healthz, /metrics.
 * Reads the body within the size limits and hands the request as read (method, query string, headers,
 * body: protocol/binding.ts `HttpCall`) to the binding protocol/select.ts picks, through
 * protocol/dispatch.ts, and writes what it answers: which parts of a request a binding reads is the
 * binding's business, not the front's. Each request is counted and logged by request-log.ts; the answers given
 * before any binding runs are early-answers.ts.
 */
import http from 'node:http';
import type { Config } from '../config.ts';
import { arrival } from '../arrivals.ts';
import { fail, ServiceError } from '../errors.ts';
import { OPERATIONS, operation, type OperationDef } from '../operations/table.ts';
import { CACHE_NOT_RAN, CACHE_RAN, CONTENT_TYPE } from '../protocol/constants.ts';
import {
  notFoundPage,
  operationPage,
  servicePage,
  unrecognizedFormatPage,
} from '../protocol/help-page.ts';
import type { HttpCall } from '../protocol/binding.ts';
import { createDispatch } from '../protocol/dispatch.ts';
import { resolveOperation } from '../protocol/http-form/binding.ts';
import { soapBodyLimit } from '../protocol/soap/body-limit.ts';
import { endpointBinding, operationBinding } from '../protocol/select.ts';
import { headerList, type RequestTrace, type WireResponse } from '../protocol/wire.ts';
import { disco, wsdl } from '../protocol/wsdl.ts';
import { KeyRing } from '../security/api-keys.ts';
import { CallerRateLimits } from '../security/rate-limit.ts';
import type { Caller, Service } from '../service/types.ts';
import { errorFields, logFunction, silentLogger, type Logger } from '../log.ts';
import { metricsText } from '../metrics/cluster.ts';
import { METRICS_CONTENT_TYPE, reportProcess } from '../metrics/metrics.ts';
import { EventLoopWatchdog } from './event-loop-watchdog.ts';
import { health } from './health.ts';
import { staticFiles } from './static-files.ts';
import { crossSiteWriter } from '../security/same-origin.ts';
import { InflightBodies } from './inflight-bodies.ts';
import { connectionsCheckMs, isLoopback, setTimeouts, type EarlyServer } from './listen-first.ts';
import { BodyRefused, readBody, type BodyRules, type ReadBody } from './read-body.ts';
import { closing, html, serviceBusy, unauthorized } from './early-answers.ts';
import { endpointPaths } from './endpoint-path.ts';
import { newTrace, requestLog, type Trace } from './request-log.ts';

export interface ServerDeps {
  config: Config;
  service: Service;
  /** pino; logs nothing by default. */
  logger?: Logger;
  /** The caller's IP address; the socket's peer by default (tests inject others to act as remote callers). */
  clientAddress?: (req: http.IncomingMessage) => string | undefined;
  /** A server already listening (listen-first.ts) to answer on; a new one, not listening, otherwise. */
  early?: EarlyServer;
}

const peerAddress = (req: http.IncomingMessage) => req.socket.remoteAddress;

export function createServer({
  config,
  service,
  logger = silentLogger,
  clientAddress = peerAddress,
  early,
}: ServerDeps): http.Server {
  const { base, endpoint } = endpointPaths(config.module);
  const endpointLower = endpoint.toLowerCase();
  const baseLower = base.toLowerCase();
  const pageFiles = staticFiles();
  const log = logFunction(logger);
  const onInternalError = (e: unknown, t?: RequestTrace) =>
    logger.error(
      { reqId: t?.id, op: t?.op, binding: t?.binding, ...errorFields(e) },
      'operation failed',
    );
  const dispatch = createDispatch(
    config.nsBase,
    service,
    onInternalError,
    config.limits.resultCacheEntries,
    config.limits.resultCacheOnRepeat,
  );
  const done = requestLog(logger);
  const keys = new KeyRing(config.keys);
  const rateLimits = new CallerRateLimits(config.limits);
  const watchdog = new EventLoopWatchdog(config.limits.eventLoopBlockMs, log);
  const limits = config.limits;
  const processRequest = operation('ProcessRequest')!;
  const inflight = new InflightBodies(limits.inflightBodyBytes, limits.inflightBodyWaitMs);

  const unreport = reportProcess({
    eventLoop: () => watchdog.stats(),
    rateLimitAddressBuckets: () => rateLimits.addressBuckets,
    resultCache: () => service.stats?.().resultCache,
    databases: service.databaseStats,
    inflightBodyBytes: () => inflight.bytesHeld,
  });

  /** An operation's body limit: ProcessRequest's is the larger one. */
  const bodyLimit = (op: OperationDef | undefined) =>
    op === processRequest ? limits.processRequestBodyBytes : limits.bodyBytes;
  /** The endpoint's SOAP bodies: one over the usual limit may go on to ProcessRequest's when its envelope routes there. */
  const soapRules: BodyRules = {
    max: limits.bodyBytes,
    ceiling: limits.processRequestBodyBytes,
    limitFor: soapBodyLimit(config.nsBase, bodyLimit),
  };
  const soapOverLimit = () =>
    `The request body is over its size limit (${limits.bodyBytes} bytes; ProcessRequest ${limits.processRequestBodyBytes}).`;

  async function route(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    trace: Trace,
  ): Promise<WireResponse> {
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
    const lower = path === endpoint ? endpointLower : path.toLowerCase(); // the usual path: no copy

    trace.route = 'document';
    if (path === '/healthz') {
      trace.route = 'healthz';
      return health(service.down?.() ?? [], service.loading?.() ?? []);
    }
    // Public like /healthz: counts and durations only (docs/SECURITY.md).
    if (path === '/metrics') {
      trace.route = 'metrics';
      return {
        status: 200,
        headers: { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' },
        body: await metricsText(),
      };
    }
    if (path === '/') {
      trace.route = 'redirect';
      return {
        status: 302,
        headers: {
          Location: endpoint,
          'Content-Type': CONTENT_TYPE.text,
          'Cache-Control': CACHE_NOT_RAN,
        },
        body: '',
      };
    }
    if ((method === 'GET' || method === 'HEAD') && lower.startsWith(baseLower)) {
      const file = pageFiles(lower.slice(baseLower.length), req.headers['if-none-match']);
      if (file) {
        trace.route = 'search-page';
        return file;
      }
    }
    if (query.length > limits.queryStringChars) {
      return html(
        400,
        notFoundPage(
          `The length of the query string exceeds ${limits.queryStringChars} characters.`,
        ),
      ); // golden customerrors-on-get-GetSearchResults-2k
    }

    if (lower === endpointLower) {
      if (method === 'GET')
        return documents(query, req.headers.host ?? `${config.host}:${config.port}`, loopback);
      if (method !== 'POST') return html(405, unrecognizedFormatPage()); // golden put-endpoint, delete-endpoint, options-endpoint, doc-head
      trace.route = 'operation';
      const selected = endpointBinding(req.headers['content-type']);
      trace.binding = selected.name;
      const caller = authenticate(req, address, loopback);
      if (caller instanceof ServiceError) return unauthorized(caller);
      const body = await callBody(req, res, trace, soapRules, selected.early, soapOverLimit);
      if (!('text' in body)) return body;
      return dispatch('soap', await asRead(req, method, query, body, caller, trace));
    }

    if (lower.startsWith(`${endpointLower}/`)) {
      const name = path.slice(endpoint.length + 1);
      if (method !== 'GET' && method !== 'POST') {
        return html(500, unrecognizedFormatPage(name)); // golden put-op, delete-op
      }
      trace.route = 'operation';
      const selected = operationBinding(method, req.headers['content-type']);
      trace.binding = selected.name;
      const op = resolveOperation(name);
      if (!('name' in op)) return op;
      trace.op = op.name;
      const caller = authenticate(req, address, loopback);
      if (caller instanceof ServiceError) return unauthorized(caller);
      const body =
        method === 'POST'
          ? await callBody(
              req,
              res,
              trace,
              { max: bodyLimit(op) },
              selected.early,
              () => `The request body is over its size limit (${bodyLimit(op)} bytes).`,
            )
          : { text: '' };
      if (!('text' in body)) return body;
      return dispatch(selected.binding, {
        ...(await asRead(req, method, query, body, caller, trace)),
        op,
      });
    }
    trace.route = 'not-found';
    return html(404, notFoundPage(`${path} is not served here.`)); // golden get-wrong-path
  }

  /** The request as read, for any binding (protocol/binding.ts `HttpCall`). */
  async function asRead(
    req: http.IncomingMessage,
    method: 'GET' | 'POST',
    query: string,
    { text, large }: ReadBody,
    caller: Omit<Caller, 'binding'>,
    trace: Trace,
  ): Promise<HttpCall> {
    // The requests read in this turn run after all of them were read: one change-feed check serves them all (arrivals.ts).
    const arrived = await arrival();
    return {
      method,
      query,
      headers: req.headers,
      body: text,
      large,
      caller,
      arrival: arrived,
      trace,
    };
  }

  /** The body within its limit, or the binding's answer to one over it (and the connection closes). */
  async function callBody(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    trace: Trace,
    rules: BodyRules,
    early: (err: ServiceError) => WireResponse,
    overLimit: () => string,
  ): Promise<ReadBody | WireResponse> {
    try {
      const body = await readBody(req, res, rules, inflight);
      trace.bytesIn = body.large?.bytes ?? Buffer.byteLength(body.text);
      return body;
    } catch (e) {
      if (!(e instanceof BodyRefused) || e.why !== 'tooLarge') throw e;
      return closing(early(fail('PayloadTooLarge', overLimit())));
    }
  }

  function documents(query: string, host: string, loopback: boolean): WireResponse {
    const params = new URLSearchParams(query);
    const keysLower = new Map([...params.keys()].map((k) => [k.toLowerCase(), k]));
    const address = `http://${host}${endpoint}`;
    const xml = (body: string) => ({
      status: 200,
      headers: { 'Content-Type': CONTENT_TYPE.xml, 'Cache-Control': CACHE_RAN },
      body,
    });
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

  function authenticate(
    req: http.IncomingMessage,
    address: string | undefined,
    loopback: boolean,
  ): Omit<Caller, 'binding'> | ServiceError {
    try {
      const key = keys.authenticate(req.headers.authorization);
      const { wait, subject } = rateLimits.take({ keyId: key?.id, address, loopback });
      if (wait > 0)
        return Object.assign(
          fail('TooManyRequests', `${subject} is over its rate limit; retry in ${wait} s.`),
          { retryAfter: wait },
        );
      return {
        loopback,
        keyId: key?.id,
        key,
        crossSite: crossSiteWriter(req.headers, config.allowedOrigins),
      };
    } catch (e) {
      return e as ServiceError;
    }
  }

  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const started = performance.now();
    const trace = newTrace();
    route(req, res, trace)
      .catch((e: unknown): WireResponse | undefined => {
        if (e instanceof BodyRefused && e.why === 'busy') return serviceBusy();
        // A client that gave up is no failure of ours (issue 27: one burst logged 19,952 error lines); done() logs it at info.
        if (e instanceof BodyRefused) return undefined;
        logger.error(
          { reqId: trace.id, op: trace.op, binding: trace.binding, ...errorFields(e) },
          'request failed',
        );
        return {
          status: 500,
          headers: { 'Content-Type': CONTENT_TYPE.text, 'Cache-Control': CACHE_NOT_RAN },
          body: 'The service could not complete the request.\n',
          errorCode: 'Internal',
        };
      })
      .then((w) => {
        if (w && !res.headersSent) {
          res.writeHead(w.status, w.rawHeaders ?? headerList(w));
          if (w.chunks && req.method !== 'HEAD') {
            // One write of the pieces: end() uncorks, so they leave in one writev.
            res.cork();
            const last = w.chunks.length - 1;
            for (let i = 0; i < last; i++) res.write(w.chunks[i]);
            res.end(w.chunks[last]);
          } else res.end(req.method === 'HEAD' ? undefined : w.body);
        }
        done(trace, w, req, performance.now() - started);
      });
  };
  const server =
    early?.server ??
    http.createServer({ connectionsCheckingInterval: connectionsCheckMs(limits) }, answer);
  if (server.listening) watchdog.start();
  else server.on('listening', () => watchdog.start());
  early?.attach(answer);
  server.on('close', () => {
    watchdog.stop();
    unreport();
  });
  setTimeouts(server, limits);
  return server;
}
