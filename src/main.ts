/**
 * Start-up: config → databases → service → HTTP server; nothing else. With `workers` > 1 this process
 * is a primary that seeds what needs seeding once, then forks the workers that share the port
 * (node:cluster) and starts another when one dies (docs/DESIGN.md "Worker processes").
 * A start-up problem (config, data directory, database, port) is one line naming what to fix and exit
 * code 2, never a stack trace (docs/DEPLOYMENT.md "Start-up and shutdown").
 */
import cluster from 'node:cluster';
import { writeSync } from 'node:fs';
import net from 'node:net';
import type http from 'node:http';
import { loadConfig, perWorker, type Config } from './config.ts';
import { earlyServer, isLoopbackHost } from './http/listen-first.ts';
import { createLogger, logFunction } from './log.ts';

// The rest of the service is imported once the port is open (listen-first.ts): its modules take
// 0.5–1.5 s to load on a 2-core machine, longer than the 1 s a start may keep the port closed.
const rest = () =>
  Promise.all([
    import('./http/server.ts'),
    import('./metrics/cluster.ts'),
    import('./service/index.ts'),
    import('./database/registry.ts'),
    import('./database/start.ts'),
    import('./service/warm-up.ts'),
    import('./database/build-claims.ts'),
    import('./io/idle-trim.ts'),
  ]).then(([server, metrics, service, registry, start, warm, claims, trim]) => ({
    ...server,
    ...metrics,
    ...service,
    ...registry,
    ...start,
    ...warm,
    ...claims,
    ...trim,
  }));

/** The exit code of a start-up problem (a primary reads it from a worker that could not start). */
const CANNOT_START = 2;
/** Set by a primary on a worker it starts in place of one that died: it listens once its databases are loaded. */
const REPLACEMENT = 'CONTACT_SEARCH_REPLACEMENT_WORKER';
/** What a worker tells the primary once its databases are all searchable. */
const READY = 'contact-search:ready';

/**
 * One plain line naming the problem, then exit: what an operator needs, without a stack trace. Plain
 * text, not a JSON log line: a bad config is found before the logger exists, and every start-up
 * problem reads the same way (docs/DEPLOYMENT.md "Start-up and shutdown").
 */
function cannotStart(err: unknown): never {
  const msg = (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
  writeSync(2, `cannot start: ${msg}\n`);
  process.exit(CANNOT_START);
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  cannotStart(err);
}
// One JSON line per event on stderr (src/log.ts); callers never pass personal data or secrets.
const logger = createLogger({ level: config.logLevel, worker: cluster.worker?.id });
const log = logFunction(logger);
if (config.keys.length === 0 && !config.open && !isLoopbackHost(config.host)) {
  cannotStart(
    `refusing to listen on ${config.host} without API keys; configure keys or set CONTACT_SEARCH_OPEN=1 (CONTRACT §8)`,
  );
}

try {
  if (config.workers > 1 && cluster.isPrimary) await primary();
  else await serve();
} catch (err) {
  cannotStart(err);
}

/** The port taken and let go at once, before the databases are indexed (minutes at 1M): a port in use fails first. */
async function checkPort(): Promise<void> {
  if (config.port === 0 || cluster.isWorker) return;
  const probe = net.createServer();
  await new Promise<void>((done, fail) => {
    probe.once('error', (err) => fail(new Error(listenProblem(err))));
    probe.listen(config.port, config.host, () => probe.close(() => done()));
  });
}

function listenProblem(err: NodeJS.ErrnoException): string {
  const where = `${config.host}:${config.port}`;
  if (err.code === 'EADDRINUSE')
    return `port ${config.port} on ${config.host} is in use by another process; stop it or set port (CONTACT_SEARCH_PORT)`;
  if (err.code === 'EACCES')
    return `no permission to listen on ${where}; use a port above 1023 (CONTACT_SEARCH_PORT)`;
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
    return `${config.host} is not an address of this machine; set host (CONTACT_SEARCH_HOST)`;
  return `cannot listen on ${where}: ${err.code ?? err.message}`;
}

/** Listens on the configured port (a problem is one line, exit 2): the port it took. */
function listen(server: http.Server): Promise<number> {
  const startError = (err: NodeJS.ErrnoException) => cannotStart(listenProblem(err));
  server.once('error', startError);
  return new Promise<number>((done) =>
    server.listen(config.port, config.host, () => {
      server.off('error', startError);
      server.on('error', (err) => log('warn', `server error: ${err.message}`)); // e.g. out of file descriptors: keep serving
      const addr = server.address();
      done(typeof addr === 'object' && addr ? addr.port : config.port);
    }),
  );
}

/**
 * One server process: the whole service, alone or as one of the workers. It listens first, before
 * its own code is loaded and its stores opened, and answers while the databases load
 * (docs/DESIGN.md "Start-up"); a worker that replaces one that died listens once loaded instead,
 * since the others serve meanwhile.
 */
async function serve() {
  const replacement = process.env[REPLACEMENT] === '1';
  const early = replacement ? undefined : earlyServer(config);
  let listening = early && listen(early.server);
  if (listening) await listening; // a port in use fails first
  const {
    createServer,
    joinClusterMetrics,
    createService,
    startDatabases,
    keepWarm,
    trimWhenIdle,
  } = await rest();
  trimWhenIdle(); // the C heap's free pages back to the kernel after each busy spell (io/idle-trim.ts)
  joinClusterMetrics(); // a worker answers the primary's metrics collections even while it indexes
  const info = (msg: string) => log('info', msg);
  const { databases, ready } = await startDatabases(
    config,
    info,
    (msg) => log('warn', msg),
    cluster.isPrimary,
  );
  if (replacement) await ready;
  let stopping = false;
  const service = createService({ databases, limits: config.limits });
  const server = createServer({
    config: { ...config, limits: perWorker(config.limits, config.workers) },
    service,
    logger,
    early,
  });
  listening ??= listen(server);
  // Said once the stores are open: a store that cannot be opened is a start-up problem printed alone.
  if (cluster.isPrimary) announceListening(await listening);
  // A database that cannot be loaded is a start-up problem like an unreadable file: one line, exit 2.
  Promise.all([listening, ready]).then(
    ([port]) => {
      log('info', 'every database is searchable');
      if (cluster.isPrimary) announceReady(port);
      else process.send?.(READY);
      // Served meanwhile: the warm-up yields to requests every few milliseconds (service/warm-up.ts).
      void keepWarm(
        databases,
        config.limits,
        (r, after) =>
          log(
            'info',
            `database ${r.database}: warmed up${after === 'rebuild' ? ' after a rebuild' : ''} with ${r.queries} type-ahead queries in ${r.ms} ms`,
          ),
        { stopped: () => stopping },
      );
    },
    (err: unknown) => {
      if (!stopping) cannotStart(err);
    },
  );

  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    log('info', `${signal}: draining in-flight requests`);
    server.close(async () => {
      await databases.close();
      log('info', 'stopped');
      process.exit(0);
    });
    // Keep-alive connections close as soon as their request is answered (close() alone waits for the client).
    setInterval(() => server.closeIdleConnections(), 50).unref();
    server.closeIdleConnections();
    // In-flight requests get until then (the request budget is longer: a 30 s import is cut short).
    setTimeout(() => {
      log('warn', 'in-flight requests did not finish within 9 s; exiting');
      process.exit(1);
    }, 9_000).unref();
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

async function primary() {
  const { serveClusterMetrics, serveBuildClaims, openStore, seedDatabases } = await rest();
  serveClusterMetrics();
  serveBuildClaims(); // the workers' full builds weighed against the room together
  await checkPort();
  // Every database opened (and closed) once here: a problem is reported once, not by each worker.
  for (const d of config.databases) await (await openStore(d, config.dataDir)).close();
  await seedDatabases(config, (msg) => log('info', msg));
  log('info', `starting ${config.workers} worker processes`);
  let stopping = false;
  const started = new Set<number>(); // workers that listened; a replacement adds its own id
  const loaded = new Set<number>(); // workers whose databases are all searchable
  let port = config.port;
  for (let i = 0; i < config.workers; i++) cluster.fork();
  cluster.on('listening', (w, address) => {
    started.add(w.id);
    port = address.port;
    if (started.size === config.workers) announceListening(port);
  });
  cluster.on('message', (w, msg) => {
    if (msg !== READY) return;
    loaded.add(w.id);
    if (loaded.size === config.workers) announceReady(port); // once: a replacement makes it one more
  });
  cluster.on('exit', (w, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    // One that never listened, or could not load a database after it listened, failed at start (a
    // config or database error it printed): do not loop.
    if (!started.has(w.id) || code === CANNOT_START) {
      if (code !== CANNOT_START)
        log('error', `worker ${w.id} exited before it listened (${signal ?? code}); stopping`);
      stop('start-up failure', CANNOT_START);
      return;
    }
    log('error', `worker ${w.id} exited (${signal ?? code}); starting another`);
    cluster.fork({ [REPLACEMENT]: '1' });
  });
  function stop(why: string, code = 0) {
    if (stopping) return;
    stopping = true;
    log('info', `${why}: stopping the workers`);
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code);
    setTimeout(() => process.exit(code || 1), 15_000).unref();
    if (code) process.exitCode = code;
  }
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** The port is open: requests are answered, those on a database still loading with Unavailable. */
function announceListening(port: number) {
  console.log(
    `Contact Search Service listening on ${config.host}:${port}${config.workers > 1 ? ` (${config.workers} worker processes)` : ''}; loading the databases (GET /healthz says loading until they are searchable)`,
  );
}

/** Every database searchable: the addresses to use (what a person, and the tests, wait for). */
function announceReady(port: number) {
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}/DesktopModules/${config.module}_Common/WebServices`;
  console.log(`Databases loaded; serving:`);
  console.log(`  help page:   ${base}/API.asmx`);
  console.log(`  search page: ${base}/Search.html`);
  console.log(`  WSDL:        ${base}/API.asmx?WSDL`);
}
