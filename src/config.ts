/**
 * Configuration (CONTRACT.md §2): defaults that work on a laptop, overridden by a JSON config file
 * (CONTACT_SEARCH_CONFIG, or ./contact-search.json when present), then by environment variables.
 */
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { LOG_LEVELS, type LogLevel } from './log.ts';

export interface DatabaseConfig {
  /** The DBName clients send (matched case-insensitively). */
  name: string;
  backend: 'sqlite' | 'postgres';
  /** sqlite: file path (default `<dataDir>/<name>.db`). */
  file?: string;
  /** postgres: connection string, and schema (default `contacts_<name>`). */
  url?: string;
  schema?: string;
  /** Fill an empty database with this many generated demo contacts on first start. */
  seedDemo?: number;
}

export interface Limits {
  bodyBytes: number;
  processRequestBodyBytes: number;
  jsonDepth: number;
  textChars: number;
  limit: number;
  pageSize: number;
  filters: number;
  valuesPerFilter: number;
  requestMs: number;
  /** A client must send its request headers within this (slow clients cannot hold connections). */
  headerMs: number;
  queryStringChars: number;
  /** Per API key: sustained requests per second and burst (only when keys are configured). */
  keyRequestsPerSecond: number;
  keyBurst: number;
  /** Without keys, per non-loopback client address (IPv6 per /64): requests per second and burst. */
  ipRequestsPerSecond: number;
  ipBurst: number;
  /** Most client addresses tracked at once; beyond it the least recently seen are forgotten. */
  ipBuckets: number;
  /** The event loop watchdog logs a warning when the loop was blocked longer than this. */
  eventLoopBlockMs: number;
  /** Read results kept for repeated requests (src/service/result-cache.ts); 0 turns the cache off. */
  resultCacheEntries: number;
  /** Characters those results may hold together (their encoded bytes per binding come on top: docs/DESIGN.md). */
  resultCacheChars: number;
  /** Keep a result (and a decoded SOAP envelope) only when it is asked for a second time: distinct traffic leaves no garbage behind (src/seen-before.ts). */
  resultCacheOnRepeat: boolean;
  /** Request-body bytes held at once across all requests (the first 64 KiB of each body are not counted). */
  inflightBodyBytes: number;
  /** How long a body waits for room in that budget before it is answered 503. */
  inflightBodyWaitMs: number;
  /**
   * Requests a starting server holds, unread, until its code has loaded (http/listen-first.ts); past
   * it a request gets its binding's Unavailable fault at once.
   */
  heldRequests: number;
  /**
   * Type-ahead queries each server process answers itself once its databases are searchable (and
   * again after a full rebuild), per database, in slices between requests (service/warm-up.ts); 0
   * turns the warm-up off.
   */
  warmUpQueries: number;
}

export interface ApiKeyConfig {
  id: string;
  /** Plain secret, or `sha256:<hex>` of it. */
  secret: string;
  scopes: ('read' | 'write')[];
  databases: string[] | '*';
}

export interface Config {
  host: string;
  port: number;
  /** `<module>` of the endpoint path. */
  module: string;
  /** `{namespace_base}` of the XML namespaces and SOAP actions. */
  nsBase: string;
  dataDir: string;
  databases: DatabaseConfig[];
  limits: Limits;
  keys: ApiKeyConfig[];
  /** Listen on a non-loopback address without keys (CONTRACT §8). */
  open: boolean;
  /**
   * Origins (`https://host[:port]`) of web pages served elsewhere that may send writes from a browser;
   * `*` for any. Other pages' writes are refused (docs/SECURITY.md "Browser writes").
   */
  allowedOrigins: string[];
  /** The least severe level logged; debug adds one line per request (docs/MONITORING.md "Logs"). */
  logLevel: LogLevel;
  /**
   * Server processes sharing the port (node:cluster). Each holds its own index (~0.95 GB at 1M
   * contacts) and sees the others' writes through the change feed; 1 runs no primary at all.
   */
  workers: number;
}

export const DEFAULT_LIMITS: Limits = {
  bodyBytes: 1024 * 1024,
  processRequestBodyBytes: 64 * 1024 * 1024,
  jsonDepth: 32,
  textChars: 256,
  limit: 50,
  pageSize: 500,
  filters: 32,
  valuesPerFilter: 1000,
  requestMs: 30_000,
  headerMs: 10_000,
  queryStringChars: 2048,
  keyRequestsPerSecond: 100,
  keyBurst: 200,
  ipRequestsPerSecond: 100,
  ipBurst: 200,
  ipBuckets: 100_000,
  eventLoopBlockMs: 1000,
  resultCacheEntries: 4096,
  resultCacheChars: 8 * 1024 * 1024,
  resultCacheOnRepeat: true,
  inflightBodyBytes: 256 * 1024 * 1024,
  inflightBodyWaitMs: 2000,
  heldRequests: 1000,
  warmUpQueries: 2000,
};

export function defaultConfig(): Config {
  return {
    host: '127.0.0.1',
    port: 8080,
    module: 'ContactSearch',
    nsBase: 'tempuri.org',
    dataDir: 'data',
    databases: [{ name: 'Demo', backend: 'sqlite', seedDemo: 10_000 }],
    limits: { ...DEFAULT_LIMITS },
    keys: [],
    open: false,
    allowedOrigins: [],
    logLevel: 'info',
    workers: 1,
  };
}

/** Environment variables, each documented in README.md. */
const ENV: Record<string, (c: Config, v: string) => void> = {
  CONTACT_SEARCH_HOST: (c, v) => {
    c.host = v;
  },
  CONTACT_SEARCH_PORT: (c, v) => {
    c.port = toPort(v);
  },
  CONTACT_SEARCH_MODULE: (c, v) => {
    c.module = v;
  },
  CONTACT_SEARCH_NS_BASE: (c, v) => {
    c.nsBase = v;
  },
  CONTACT_SEARCH_DATA_DIR: (c, v) => {
    c.dataDir = v;
  },
  CONTACT_SEARCH_OPEN: (c, v) => {
    c.open = v === '1' || v.toLowerCase() === 'true';
  },
  /** Comma-separated origins, replacing the config file's list. */
  CONTACT_SEARCH_ALLOWED_ORIGINS: (c, v) => {
    c.allowedOrigins = v
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean);
  },
  CONTACT_SEARCH_LOG_LEVEL: (c, v) => {
    c.logLevel = v as LogLevel;
  },
  /** A number of processes, or `auto`: one per core. */
  CONTACT_SEARCH_WORKERS: (c, v) => {
    c.workers = workersOf(v);
  },
  /** Extra PostgreSQL database: `NAME=postgres://…` (schema defaults to contacts_<name>). */
  CONTACT_SEARCH_PG_DATABASE: (c, v) => {
    const i = v.indexOf('=');
    if (i < 1) throw new Error('CONTACT_SEARCH_PG_DATABASE must be NAME=postgres://…');
    c.databases.push({ name: v.slice(0, i), backend: 'postgres', url: v.slice(i + 1) });
  },
};

/** `auto` is one worker per core; a config file may say it too. */
const workersOf = (v: unknown) =>
  v === 'auto' ? availableParallelism() : typeof v === 'string' ? Number(v) : (v as number);

function toPort(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`port must be 0–65535, got "${v}"`);
  return n;
}

/** scheme://host[:port] and nothing more, as browsers send it in Origin. */
function isOrigin(o: string): boolean {
  try {
    const u = new URL(o);
    return (
      u.origin !== 'null' &&
      u.pathname === '/' &&
      !u.search &&
      !u.hash &&
      !u.username &&
      !u.password
    );
  } catch {
    return false;
  }
}

export const DBNAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const c = defaultConfig();
  const file =
    env.CONTACT_SEARCH_CONFIG ??
    (existsSync(resolve(cwd, 'contact-search.json')) ? 'contact-search.json' : undefined);
  if (file) {
    const fromFile = readConfigFile(resolve(cwd, file));
    Object.assign(c, { ...fromFile, limits: { ...c.limits, ...(fromFile.limits ?? {}) } });
    c.workers = workersOf(c.workers);
  }
  for (const [name, apply] of Object.entries(ENV)) {
    const v = env[name];
    if (v !== undefined && v !== '') apply(c, v);
  }
  if (!(LOG_LEVELS as readonly string[]).includes(c.logLevel))
    throw new Error(`logLevel must be ${LOG_LEVELS.join(', ')}, got "${c.logLevel}"`);
  if (!Number.isInteger(c.workers) || c.workers < 1 || c.workers > 64)
    throw new Error(`workers must be a whole number 1–64 or "auto", got "${c.workers}"`);
  if (!Number.isInteger(c.port) || c.port < 0 || c.port > 65535)
    throw new Error(`port must be 0–65535, got "${c.port}"`);
  const warm = c.limits.warmUpQueries;
  if (!Number.isInteger(warm) || warm < 0 || warm > 100_000)
    throw new Error(`limits.warmUpQueries must be a whole number 0–100000, got "${warm}"`);
  if (!Array.isArray(c.databases) || c.databases.length === 0)
    throw new Error('databases must be a non-empty list of { "name", "backend" }');
  for (const o of c.allowedOrigins) {
    if (o !== '*' && !isOrigin(o))
      throw new Error(
        `allowedOrigins: "${o}" is not an origin; write scheme://host[:port], e.g. https://intranet.example.com`,
      );
  }
  for (const d of c.databases) {
    if (!DBNAME_PATTERN.test(d?.name))
      throw new Error(`database name "${d?.name}" must be 1–64 of A–Z a–z 0–9 _ -`);
    if (d.backend !== 'sqlite' && d.backend !== 'postgres')
      throw new Error(
        `database "${d.name}": backend must be "sqlite" or "postgres", got "${d.backend}"`,
      );
  }
  return c;
}

/** The config file as an object; a file that cannot be read or is not a JSON object says so, naming the file. */
function readConfigFile(path: string): Partial<Config> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(
      `cannot read the config file ${path} (${(err as { code?: string }).code ?? String(err)}); check CONTACT_SEARCH_CONFIG`,
      { cause: err },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`the config file ${path} is not valid JSON: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error(`the config file ${path} must hold a JSON object`);
  return parsed as Partial<Config>;
}

/**
 * Each worker process keeps its own rate-limit buckets: it gets an equal share of every rate and burst
 * (a burst of at least 1), so one caller across all of them is held to the configured limit or below.
 */
export function perWorker(limits: Limits, workers: number): Limits {
  if (workers <= 1) return limits;
  const burst = (n: number) => Math.max(1, Math.floor(n / workers));
  return {
    ...limits,
    keyRequestsPerSecond: limits.keyRequestsPerSecond / workers,
    keyBurst: burst(limits.keyBurst),
    ipRequestsPerSecond: limits.ipRequestsPerSecond / workers,
    ipBurst: burst(limits.ipBurst),
  };
}
