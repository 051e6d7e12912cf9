/**
 * The real server (`src/main.ts`) in a child process over a temp data folder, for the hostile suites.
 * Apart from the test's client on purpose: the client's own work (building and encoding multi-MiB
 * bodies, its garbage) would otherwise run on the event loop the server's watchdog measures, and a
 * server that runs out of heap fails the test instead of killing the test runner.
 */
import { RUN_TS } from '../../src/boot/run-ts.ts';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { send } from './attack.ts';

export interface ChildService {
  base: string;
  endpoint: string;
  dir: string;
  /** The server's JSON log lines so far (stderr), parsed. */
  logged(): { level: string; msg: string; [field: string]: unknown }[];
  close(): void;
}

/** Starts the server with `config` (host, port and dataDir filled in) and waits until /healthz says ok. */
export async function startChildService(
  config: Record<string, unknown>,
  nodeArgs: string[] = [],
): Promise<ChildService> {
  const dir = mkdtempSync(join(tmpdir(), 'contacts-child-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ host: '127.0.0.1', port: 0, dataDir: dir, ...config }));
  const child = spawn(process.execPath, [...nodeArgs, ...RUN_TS, 'src/main.ts'], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: { ...process.env, CONTACT_SEARCH_CONFIG: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const close = () => {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const base = await new Promise<string>((ok, fail) => {
      const found = () => {
        const m = /help page: +http:\/\/([^/\s]+):(\d+)\//.exec(out);
        if (m) ok(`http://${m[1]}:${m[2]}`);
      };
      child.stdout.on('data', found);
      child.on('exit', (code) =>
        fail(new Error(`the server exited (${code}) before it listened: ${stderr}`)),
      );
    });
    while ((await send(`${base}/healthz`)).status !== 200) {
      await new Promise((r) => setTimeout(r, 100));
    }
    return {
      base,
      endpoint: `${base}/DesktopModules/ContactSearch_Common/WebServices/API.asmx`,
      dir,
      logged: () =>
        stderr
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { level: string; msg: string }),
      close,
    };
  } catch (err) {
    close();
    throw err;
  }
}
