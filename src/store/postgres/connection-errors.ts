/**
 * Which PostgreSQL errors mean "the server cannot be reached now" (a restart, a failover, a cut
 * connection), as opposed to a bug or bad data: those become StoreUnavailable, and the request gets
 * the Unavailable fault instead of Internal. Texts carry the SQLSTATE or socket code only.
 */
import { StoreUnavailable } from '../store.ts';

/**
 * 08… connection exceptions; 57P01–57P03 admin/crash shutdown, cannot connect now (starting up or
 * shutting down); 53300 too many connections; 25006 a read-only server (a standby after a failover).
 */
const SQLSTATE = /^(08...|57P0[123]|53300|25006)$/;
const SOCKET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/** node-postgres says these in words only. */
const WORDS =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended|Query read timeout/i;

export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  if (typeof e?.code === 'string' && (SQLSTATE.test(e.code) || SOCKET.has(e.code))) return true;
  return typeof e?.message === 'string' && WORDS.test(e.message);
}

/** A short reason: "PostgreSQL connection lost (57P01)"; never a host, a password or SQL. */
export function connectionReason(err: unknown): string {
  const code = (err as { code?: unknown } | undefined)?.code;
  const what =
    typeof code === 'string' && (code === 'ECONNREFUSED' || code === '57P03')
      ? 'PostgreSQL is not accepting connections'
      : typeof code === 'string' && code === '25006'
        ? 'PostgreSQL is read-only (a standby)'
        : 'PostgreSQL connection lost';
  const because =
    typeof code === 'string'
      ? code
      : /timeout/i.test(String((err as Error)?.message))
        ? 'timeout'
        : 'closed';
  return `${what} (${because})`;
}

/** Rethrows a connection error as StoreUnavailable, anything else as it is. */
export function unavailableOr(err: unknown, mayHaveCommitted = false): never {
  if (err instanceof StoreUnavailable) throw err;
  if (isConnectionError(err)) throw new StoreUnavailable(connectionReason(err), mayHaveCommitted);
  throw err;
}

/** `work`, with connection errors turned into StoreUnavailable. */
export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    return unavailableOr(err);
  }
}
