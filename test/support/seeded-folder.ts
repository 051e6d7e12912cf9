/**
 * A temporary data folder whose config seeds the Demo database at start (`seedDemo` generated
 * contacts), and the real server started over it as a user starts it (node `args`: the sources
 * through tsx or the compiled tree), its stdout piped; after the file's tests every server started
 * is killed and the folder removed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..', '..');

export function seededFolder(name: string, seedDemo: number) {
  const dir = mkdtempSync(join(tmpdir(), `contacts-${name}-`));
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ databases: [{ name: 'Demo', backend: 'sqlite', seedDemo }] }),
  );
  const servers: ChildProcess[] = [];
  after(() => {
    for (const server of servers) server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  const startServer = (args: readonly string[], workers = 1): ChildProcess => {
    const server = spawn(process.execPath, args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        CONTACT_SEARCH_CONFIG: join(dir, 'config.json'),
        CONTACT_SEARCH_DATA_DIR: dir,
        CONTACT_SEARCH_PORT: '0',
        CONTACT_SEARCH_LOG_LEVEL: 'warn',
        CONTACT_SEARCH_WORKERS: String(workers),
      },
    });
    servers.push(server);
    return server;
  };
  return { dir, startServer };
}
