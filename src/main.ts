/**
 * Start-up: config → databases → service → HTTP server; nothing else. With `workers` > 1 this process
 * is a primary that seeds what needs seeding once, then forks the workers that share the port
 * (node:cluster) and starts another when one dies (docs/DESIGN.md "Worker processes").
 */
import cluster from 'node:cluster';
import { loadConfig, perWorker } from './config.ts';
import { createServer, isLoopbackHost } from './http/server.ts';
import { createLogger, logFunction } from './log.ts';
import { joinClusterMetrics, serveClusterMetrics } from './metrics/cluster.ts';
import { createService } from './service/index.ts';
import { openDatabases, seedDatabases } from './store/registry.ts';

const config = loadConfig();
// One JSON line per event on stderr (src/log.ts); callers never pass personal data or secrets.
const logger = createLogger({ level: config.logLevel, worker: cluster.worker?.id });
const log = logFunction(logger);
if (config.keys.length === 0 && !config.open && !isLoopbackHost(config.host)) {
  log('error', `refusing to listen on ${config.host} without API keys; configure keys or set CONTACT_SEARCH_OPEN=1 (CONTRACT §8)`);
  process.exit(2);
}

if (config.workers > 1 && cluster.isPrimary) await primary();
else await serve();

/** One server process: the whole service, alone or as one of the workers. */
async function serve() {
  joinClusterMetrics(); // a worker answers the primary's metrics collections even while it indexes
  const info = (msg: string) => log('info', msg);
  const databases = await openDatabases(config, info, (msg) => log('warn', msg), cluster.isPrimary);
  const service = createService({ databases, limits: config.limits });
  const server = createServer({ config: { ...config, limits: perWorker(config.limits, config.workers) }, service, logger });

  server.listen(config.port, config.host, () => {
    const addr = server.address();
    if (cluster.isPrimary) announce(typeof addr === 'object' && addr ? addr.port : config.port);
  });

  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    log('info', `${signal}: draining in-flight requests`);
    server.close(async () => {
      await databases.close();
      log('info', 'stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

async function primary() {
  serveClusterMetrics();
  await seedDatabases(config, (msg) => log('info', msg));
  log('info', `starting ${config.workers} worker processes`);
  let stopping = false;
  const started = new Set<number>(); // workers that listened; a replacement adds its own id
  for (let i = 0; i < config.workers; i++) cluster.fork();
  cluster.on('listening', (w, address) => {
    started.add(w.id);
    if (started.size === config.workers) announce(address.port);
  });
  cluster.on('exit', (w, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    // One that never listened failed at start (a config or database error it logged): do not loop.
    if (!started.has(w.id)) {
      log('error', `worker ${w.id} exited before it listened (${signal ?? code}); stopping`);
      stop('start-up failure', 1);
      return;
    }
    log('error', `worker ${w.id} exited (${signal ?? code}); starting another`);
    cluster.fork();
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

function announce(port: number) {
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}/DesktopModules/${config.module}_Common/WebServices`;
  console.log(`Contact Search Service listening on ${config.host}:${port}${config.workers > 1 ? ` (${config.workers} worker processes)` : ''}`);
  console.log(`  help page:   ${base}/API.asmx`);
  console.log(`  search page: ${base}/Search.html`);
  console.log(`  WSDL:        ${base}/API.asmx?WSDL`);
}
