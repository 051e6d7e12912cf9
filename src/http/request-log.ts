/**
 * The request log and the request metrics: one count per operation request (by operation, binding
 * and outcome) and one log line per request at debug, with the request's shape only — never what
 * it carried (docs/MONITORING.md, the log-privacy test).
 */
import type http from 'node:http';
import type { Logger } from '../log.ts';
import { observeRequest, WORKER } from '../metrics/metrics.ts';
import type { RequestTrace, WireResponse } from '../protocol/wire.ts';

/** What the request log says of a request that is not an operation call. */
export type Route =
  'operation' | 'document' | 'healthz' | 'metrics' | 'search-page' | 'redirect' | 'not-found';

/** Per-request facts for the log line and the metrics; never anything the request carried but its shape. */
export interface Trace extends RequestTrace {
  route?: Route;
  bytesIn: number;
}

/** Request ids: unique per process start (a random prefix) and cheap (a counter), never the client's. */
const ID_PREFIX = `${WORKER}${Math.random().toString(36).slice(2, 8)}`;
let requestCount = 0;

/** A new request's trace, with its id. */
export const newTrace = (): Trace => ({
  id: `${ID_PREFIX}-${(++requestCount).toString(36)}`,
  bytesIn: 0,
});

/** What the server calls when a request is answered (or its client is gone: `w` undefined). */
export function requestLog(logger: Logger) {
  /** Counts an operation request, and logs one line per request at debug. */
  return function done(
    trace: Trace,
    w: WireResponse | undefined,
    req: http.IncomingMessage,
    ms: number,
  ) {
    const outcome =
      w === undefined
        ? 'ClientGone'
        : (w.errorCode ?? w.headers['X-Error-Code'] ?? (w.status < 400 ? 'ok' : `HTTP${w.status}`));
    if (trace.binding) observeRequest(trace.op ?? 'unknown', trace.binding, outcome, ms / 1000);
    if (w === undefined) {
      logger.info(
        { reqId: trace.id, op: trace.op, binding: trace.binding, ms: Math.round(ms) },
        'request not read in full: the client closed, or its time ran out',
      );
    } else if (logger.isLevelEnabled('debug')) {
      logger.debug(
        {
          reqId: trace.id,
          method: req.method,
          route: trace.route,
          op: trace.op,
          binding: trace.binding,
          status: w.status,
          outcome,
          ms: Math.round(ms * 1000) / 1000,
          bytesIn: trace.bytesIn,
          bytesOut: req.method === 'HEAD' ? 0 : (w.bodyBytes ?? Buffer.byteLength(w.body)),
        },
        'request',
      );
    }
  };
}
