/**
 * The answer to a request the starting server does not hold (listen-first.ts: more requests came in
 * than limits.heldRequests before the service's code had loaded): the Unavailable fault of the
 * binding the request is for, as a database still loading answers, with Retry-After. Its body is
 * left unread, so the connection closes after it. Loaded only when first needed: listen-first.ts
 * must stay light enough to open the port at once.
 */
import { fail } from '../errors.ts';
import { endpointBinding, operationBinding } from '../protocol/select.ts';
import type { WireResponse } from '../protocol/wire.ts';
import { CACHE_NOT_RAN, CONTENT_TYPE } from '../protocol/constants.ts';
import { closing } from './early-answers.ts';
import { endpointPaths } from './endpoint-path.ts';

const MESSAGE =
  'The service is starting and holds as many waiting requests as it may (limits.heldRequests); retry in a second.';

export function notReady(
  method: string | undefined,
  url: string | undefined,
  contentType: string | undefined,
  module: string,
): WireResponse {
  const endpoint = endpointPaths(module).endpoint.toLowerCase();
  const path = (url ?? '/').split('?')[0].toLowerCase();
  const err = fail('Unavailable', MESSAGE);
  let w: WireResponse;
  if (path === endpoint && method === 'POST') w = endpointBinding(contentType).early(err);
  else if (path.startsWith(`${endpoint}/`) && (method === 'GET' || method === 'POST'))
    w = operationBinding(method, contentType).early(err);
  else
    w = {
      status: 503,
      headers: { 'Content-Type': CONTENT_TYPE.text, 'Cache-Control': CACHE_NOT_RAN },
      body: `${MESSAGE}\n`,
    };
  // A binding answers Unavailable with 503 or 500 (SOAP faults): the caller may retry either way.
  return closing({ ...w, headers: { ...w.headers, 'Retry-After': '1' } });
}
