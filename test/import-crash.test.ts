/**
 * Atomic imports under a crash (issue "ProcessRequest …"): a real server process is killed with
 * SIGKILL in the middle of a 200,000-row import; after a restart the database opens cleanly and holds
 * all or none of that import, never part of it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'contacts-crash-'));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function start(port: number): Promise<{ child: ChildProcess; endpoint: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      CONTACT_SEARCH_PORT: String(port),
      CONTACT_SEARCH_DATA_DIR: dir,
      CONTACT_SEARCH_CONFIG: join(dir, 'config.json'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolveP, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /help page: +http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m)
        resolveP({
          child,
          endpoint: `http://127.0.0.1:${m[1]}/DesktopModules/ContactSearch_Common/WebServices/API.asmx`,
        });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

async function info(endpoint: string): Promise<number> {
  const r = await fetch(`${endpoint}/ProcessRequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `StringOfJSONParameters=${encodeURIComponent('{"Request":"GetDatabaseInfo","DBName":"Demo"}')}`,
  });
  const text = await r.text();
  const m = /Contacts="(\d+)"/.exec(text);
  assert.ok(m, `GetDatabaseInfo answered ${text}`);
  return Number(m[1]);
}

for (const killAfterMs of [1500, 8000])
  test(
    `SIGKILL ${killAfterMs} ms into a 200,000-row import: all or nothing after restart`,
    { timeout: 120_000 },
    async (t) => {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({ databases: [{ name: 'Demo', backend: 'sqlite', seedDemo: 1000 }] }),
      );
      const first = await start(0);
      const before = await info(first.endpoint);
      const rows = ['ContactId,First Name,Last Name,E-mail Address'];
      for (let i = 0; i < 200_000; i++)
        rows.push(`imp${killAfterMs}-${i},First${i},Last${i},p${i}@example.org`); // new ids each round
      const body = JSON.stringify({
        StringOfJSONParameters: JSON.stringify({
          Request: 'ImportContacts',
          DBName: 'Demo',
          Format: 'CSV',
          Content: rows.join('\n'),
        }),
      });
      const pending = fetch(`${first.endpoint}/ProcessRequest`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      }).catch((e) => e);
      await new Promise((r) => setTimeout(r, killAfterMs)); // early: parsing; later: validating or writing
      first.child.kill('SIGKILL');
      await pending;
      await new Promise((r) =>
        first.child.exitCode !== null || first.child.signalCode
          ? r(null)
          : first.child.on('exit', r),
      );
      const second = await start(0);
      try {
        const count = await info(second.endpoint);
        assert.ok(count === before || count === before + 200_000, `all or nothing, got ${count}`);
        t.diagnostic(
          count === before
            ? 'killed before the commit: none of the import'
            : 'killed after the commit: all of the import',
        );
      } finally {
        second.child.kill('SIGTERM');
      }
    },
  );
