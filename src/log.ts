/**
 * The service's log: pino, one JSON object a line on stderr (docs/MONITORING.md "Logs").
 * What may be logged: operation names, bindings, statuses, error codes, durations, sizes, request
 * ids, database names and counts. Never contact data, query text, StringOfJSONParameters, API keys,
 * Authorization headers, client addresses or URLs as sent (a test searches a whole run's log for them).
 */
import pino from 'pino';

export type Logger = pino.Logger;

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The (level, message, fields) form the start-up code and the watchdog use. */
export type Log = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => void;

export interface LoggerOptions {
  level: LogLevel;
  /** node:cluster's worker id, on every line of a worker process. */
  worker?: number;
  /** stderr by default; tests pass a stream to read what was logged. */
  destination?: pino.DestinationStream;
}

export function createLogger({ level, worker, destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid, ...(worker ? { worker } : {}) },
      timestamp: pino.stdTimeFunctions.isoTime,
      // The level's name, not pino's number: what the lines said before pino, and what people grep for.
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ dest: 2, sync: true }),
  ); // sync: a line written just before an exit is not lost
}

/** Logs nothing: the default where no logger is passed (tests, tools). */
export const silentLogger: Logger = pino({ level: 'silent' });

export function logFunction(logger: Logger): Log {
  return (level, msg, fields) => logger[level](fields ?? {}, msg);
}

/**
 * An unexpected error, for the log: its class, code and stack frames, but not its message, which
 * can quote what the request sent (JSON.parse's does) and so personal data.
 */
export function errorFields(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { errorType: typeof err };
  const code = (err as { code?: unknown }).code;
  const frames = (err.stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at /.test(l))
    .slice(0, 8)
    .map((l) => l.trim());
  return {
    errorType: err.name,
    ...(typeof code === 'string' || typeof code === 'number' ? { errorCode: code } : {}),
    stack: frames,
  };
}
