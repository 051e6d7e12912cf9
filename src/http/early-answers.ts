/**
 * Answers the HTTP front gives before any binding runs: HTML pages, 401/429, a busy 503, and the
 * `Connection: close` an answer needs when the body was not read to its end.
 */
import type { ServiceError } from '../errors.ts';
import { CACHE_NOT_RAN, CONTENT_TYPE } from '../protocol/constants.ts';
import type { WireResponse } from '../protocol/wire.ts';

export function html(status: number, body: string, cache = CACHE_NOT_RAN): WireResponse {
  return { status, headers: { 'Content-Type': CONTENT_TYPE.html, 'Cache-Control': cache }, body };
}

/** 401 with a Basic challenge, or 429 with Retry-After: answered before any binding runs. */
export function unauthorized(err: ServiceError & { retryAfter?: number }): WireResponse {
  const headers: Record<string, string> = {
    'Content-Type': CONTENT_TYPE.text,
    'Cache-Control': CACHE_NOT_RAN,
  };
  if (err.code === 'TooManyRequests') headers['Retry-After'] = String(err.retryAfter ?? 1);
  else headers['WWW-Authenticate'] = 'Basic realm="Contact Search", charset="UTF-8"';
  return { status: err.httpStatus, headers, body: `${err.message}\n`, errorCode: err.code };
}

/** An answer given before the request's body was read to its end: the connection cannot carry another request. */
export function closing(w: WireResponse): WireResponse {
  return { ...w, headers: { ...w.headers, Connection: 'close' } };
}

/** 503 when the in-flight body budget stayed full (inflight-bodies.ts). */
export function serviceBusy(): WireResponse {
  return {
    status: 503,
    headers: {
      'Content-Type': CONTENT_TYPE.text,
      'Cache-Control': CACHE_NOT_RAN,
      'Retry-After': '1',
      Connection: 'close',
    },
    body: 'The server is receiving as many large request bodies as it can hold at once (limits.inflightBodyBytes); retry in a second.\n',
  };
}
