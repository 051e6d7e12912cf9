/**
 * The port opened before the service's code is loaded (issue 25: the port within 1 s of a start
 * whatever the size). Loading the engine, the bindings and the stores' drivers took 0.5–1.5 s of
 * module start-up on a 2-core machine before the server could listen; this module needs only
 * node:http and the /healthz answer, so src/main.ts listens first and imports the rest after.
 * Until the service is attached, /healthz answers `loading` (503) and every other request waits,
 * unread, to be answered by the service once attached (a "not ready" fault while a database loads)
 * — up to limits.heldRequests of them: each holds a socket and its unread body in the kernel, and a
 * start can take seconds. Past that a request gets its binding's Unavailable fault at once
 * (not-ready.ts, loaded the first time it is needed).
 */
import http from 'node:http';
import { isIP } from 'node:net';
import type { Config } from '../config.ts';
import { health } from './health.ts';

type Limits = Config['limits'];

/** Node checks the header and request timeouts on this interval (30 s by default): a slow client
 * would otherwise hold its connection up to 30 s past its limit. */
export const connectionsCheckMs = (limits: Limits) => Math.min(1000, limits.headerMs);

export function setTimeouts(server: http.Server, limits: Limits) {
  server.headersTimeout = limits.headerMs;
  server.requestTimeout = limits.requestMs;
  server.keepAliveTimeout = 15_000;
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** A host to listen on that is loopback: `localhost` or a loopback IP, never a name like 127.example.com (it may resolve anywhere). */
export function isLoopbackHost(host: string): boolean {
  return host.toLowerCase() === 'localhost' || (isIP(host) !== 0 && isLoopback(host));
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface EarlyServer {
  server: http.Server;
  /** Hands every request, those held so far first, to the service's handler. */
  attach(handler: Handler): void;
}

/** An HTTP server, not listening yet, that is not yet the service's: /healthz says every configured database is loading. */
export function earlyServer(config: Pick<Config, 'databases' | 'limits' | 'module'>): EarlyServer {
  let held: [http.IncomingMessage, http.ServerResponse][] = [];
  let notReady: Promise<typeof import('./not-ready.ts')> | undefined;
  let handler: Handler | undefined;
  const loading = config.databases.map((d) => ({ name: d.name, read: 0 }));
  const checkMs = connectionsCheckMs(config.limits);
  const server = http.createServer({ connectionsCheckingInterval: checkMs }, (req, res) => {
    if (handler) return handler(req, res);
    if (req.url === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      const w = health([], loading);
      res.writeHead(w.status, w.headers);
      res.end(req.method === 'HEAD' ? undefined : w.body);
      return;
    }
    // Callers that gave up hold nothing: they make room before anyone is turned away.
    if (held.length >= config.limits.heldRequests) held = held.filter(([, r]) => !r.destroyed);
    if (held.length < config.limits.heldRequests) {
      held.push([req, res]);
      return;
    }
    (notReady ??= import('./not-ready.ts')).then(
      (m) => {
        if (handler) return handler(req, res); // attached while the module loaded: the service answers
        const w = m.notReady(req.method, req.url, req.headers['content-type'], config.module);
        res.writeHead(w.status, w.headers);
        res.end(req.method === 'HEAD' ? undefined : w.body);
      },
      () => res.destroy(),
    );
  });
  setTimeouts(server, config.limits);
  return {
    server,
    attach(h) {
      handler = h;
      for (const [req, res] of held.splice(0)) if (!res.destroyed) h(req, res);
    },
  };
}
