/**
 * SIGTERM on the real server process (`src/main.ts`, one process). Properties checked:
 * 1. A request in flight when SIGTERM arrives (its body half sent, on a keep-alive connection) is
 *    answered in full and right; a new connection after SIGTERM is refused; the process then exits 0
 *    (not the drain limit's exit 1).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';

const dir = mkdtempSync(join(tmpdir(), 'contacts-shutdown-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('1. SIGTERM: the in-flight request is answered, new connections are refused, exit 0', async () => {
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ databases: [{ name: 'Demo', backend: 'sqlite', seedDemo: 40 }] }),
  );
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: resolve(import.meta.dirname, '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      CONTACT_SEARCH_CONFIG: join(dir, 'config.json'),
      CONTACT_SEARCH_DATA_DIR: dir,
      CONTACT_SEARCH_PORT: '0',
    },
  });
  const exited = new Promise<number | null>((done) => server.once('exit', (code) => done(code)));
  try {
    let err = '';
    server.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const endpoint = await new Promise<string>((done, fail) => {
      let out = '';
      server.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /help page: +(\S+)/.exec(out);
        if (m) done(m[1]);
      });
      server.once('exit', (code) => fail(new Error(`exited ${code}: ${err}`)));
    });

    const body = JSON.stringify({ StringOfJSONParameters: '{}', DBName: 'Demo', AsType: 'JSON' });
    const agent = new http.Agent({ keepAlive: true });
    const req = http.request(`${endpoint}/GetSearchResults`, {
      method: 'POST',
      agent,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    });
    const answered = new Promise<{ status: number; text: string }>((done, fail) => {
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => done({ status: res.statusCode!, text }));
      });
      req.on('error', fail);
    });
    req.write(body.slice(0, 10)); // in flight: the server is reading its body
    await new Promise((r) => setTimeout(r, 200));

    server.kill('SIGTERM');
    for (let i = 0; i < 500 && !/SIGTERM: draining/.test(err); i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.match(err, /SIGTERM: draining/);
    const fresh = await fetch(new URL('/healthz', endpoint)).then(
      (r) => `answered ${r.status}`,
      (e: Error & { cause?: { code?: string } }) => e.cause?.code ?? e.message,
    );
    assert.equal(fresh, 'ECONNREFUSED', 'no new connection after SIGTERM');

    req.end(body.slice(10));
    const r = await answered;
    assert.equal(r.status, 200, r.text);
    assert.equal(
      JSON.parse((JSON.parse(r.text) as { d: string }).d).Total,
      40,
      'the in-flight search answered in full',
    );
    assert.equal(await exited, 0, err); // the client keeps its keep-alive connection: the server closes it
    agent.destroy();
  } finally {
    server.kill('SIGKILL');
  }
});
