/**
 * The LISTEN connection of a PostgreSQL store: it hears other writers' NOTIFYs (the change feed's
 * "moved") and is the store's view of whether PostgreSQL is reachable (/healthz). A lost connection
 * (a restart, a failover, a network cut; a ping that gets no answer) is opened again with capped,
 * jittered exponential backoff; once back, `moved` is true, since what it missed is in the table.
 */
import pg from 'pg';
import { connectionReason } from './connection-errors.ts';
import type { StoreStatus } from '../store.ts';

/** First retry after ~100 ms, doubling, at most ~5 s; each wait is 50–100% of that (nodes do not retry in step). */
export function backoffMs(failures: number, random = Math.random): number {
  const ceiling = Math.min(5000, 100 * 2 ** Math.min(failures, 16));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** A ping this often: a cut network sends no error. */
const PING_EVERY_MS = 5000;
/**
 * A connection that answers no ping in this long is treated as lost. Generous: a busy server answering
 * late is not an outage (it would flip /healthz to 503).
 */
const PING_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 5000;

export type Say = (level: 'info' | 'warn', msg: string) => void;

export interface Listener {
  channel: string;
  /** True once another writer notified (or the connection came back) since the last call. */
  moved(): boolean;
  status(): StoreStatus;
  close(): Promise<void>;
}

export async function listenForChanges(
  url: string,
  schema: string,
  writer: string,
  say: Say,
): Promise<Listener> {
  const channel = `cs_${schema}`.slice(0, 63);
  let moved = false;
  let closed = false;
  let up = false;
  let reason: string | undefined;
  let failures = 0;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;
  const dead = new WeakSet<pg.Client>();

  /** `c` failed: drop it, say so once per outage, and try again later. Called once per client. */
  function lost(c: pg.Client, err: unknown) {
    if (dead.has(c)) return;
    dead.add(c);
    c.end().catch(() => undefined);
    if (current === c) {
      current = undefined;
      clearTimeout(ping);
    }
    reason = connectionReason(err);
    if (up) say('warn', `${reason}; reconnecting`);
    up = false;
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void open().catch(() => undefined);
    }, backoffMs(failures++));
    retry.unref();
  }

  async function open(): Promise<void> {
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      query_timeout: PING_TIMEOUT_MS,
    });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c, new Error('Connection ended')));
    c.on('notification', (n) => {
      if (n.payload !== writer) moved = true;
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${channel}"`);
    } catch (err) {
      lost(c, err);
      throw err;
    }
    if (closed || dead.has(c)) return void (await c.end().catch(() => undefined));
    if (failures > 0) moved = true; // came back: look once at what was missed
    current = c;
    failures = 0;
    if (!up && reason !== undefined)
      say('info', 'PostgreSQL connection back; catching up from the change table');
    up = true;
    reason = undefined;
    const next = () => {
      if (dead.has(c) || closed) return;
      ping = setTimeout(() => {
        c.query('SELECT 1').then(next, (err: unknown) => lost(c, err));
      }, PING_EVERY_MS);
      ping.unref();
    };
    next();
  }

  try {
    await open();
  } catch (err) {
    closed = true; // at start-up a failure is the caller's (the server does not start): no retries
    clearTimeout(retry);
    throw err;
  }
  moved = false;
  return {
    channel,
    moved() {
      const m = moved;
      moved = false;
      return m;
    },
    status: () => (up ? { up } : { up, reason }),
    async close() {
      closed = true;
      clearTimeout(retry);
      clearTimeout(ping);
      const c = current;
      current = undefined;
      if (c) {
        dead.add(c);
        await c.end().catch(() => undefined);
      }
    },
  };
}
