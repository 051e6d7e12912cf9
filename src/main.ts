/** Start-up: config → databases → service → HTTP server; nothing else. */
import { loadConfig } from './config.ts';
import { createServer, type Log } from './http/server.ts';
import { createService } from './service/index.ts';
import { openDatabases } from './store/registry.ts';

const log: Log = (level, msg, fields) => {
  // Structured, one JSON line per event; callers never pass personal data or secrets.
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
};

const config = loadConfig();
if (config.keys.length === 0 && !config.open && !isLoopbackHost(config.host)) {
  log('error', `refusing to listen on ${config.host} without API keys; configure keys or set CONTACT_SEARCH_OPEN=1 (CONTRACT §8)`);
  process.exit(2);
}

const databases = await openDatabases(config, (msg) => log('info', msg));
const service = createService({ databases, limits: config.limits });
const server = createServer({ config, service, log });

server.listen(config.port, config.host, () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}/DesktopModules/${config.module}_Common/WebServices`;
  console.log(`Contact Search Service listening on ${config.host}:${port}`);
  console.log(`  help page:   ${base}/API.asmx`);
  console.log(`  search page: ${base}/Search.html`);
  console.log(`  WSDL:        ${base}/API.asmx?WSDL`);
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

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
