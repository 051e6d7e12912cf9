/**
 * `workers` > 1: the server as a user starts it (`src/main.ts`, CONTACT_SEARCH_WORKERS=2), a real
 * primary with two worker processes sharing one port over one SQLite file.
 * Properties checked:
 * 1. The primary seeds the Demo database once and runs two workers; "listening" is printed once
 *    before the databases are loaded, the URLs once after, when /healthz is ok on both workers.
 *    /metrics, whichever worker takes it, is the whole server's: both workers' series (by worker
 *    label) and every request counted, though node:cluster spread them over both.
 * 2. A write on one connection is seen by reads on fresh connections, which node:cluster hands to
 *    both workers in turn (searches and ProcessRequest's GetContact); so is a delete.
 * 3. A worker that dies is replaced, and the service keeps answering, the write still there.
 * 4. SIGTERM to the primary stops the workers and the primary exits 0.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { eventually } from './cases/store.case.ts';
import { parseExposition } from './support/metrics-text.ts';

const ROOT = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'contacts-workers-'));
writeFileSync(
  join(dir, 'config.json'),
  JSON.stringify({ databases: [{ name: 'Demo', backend: 'sqlite', seedDemo: 300 }] }),
);
let server: ChildProcess;
let out = '';
let endpoint = '';

before(async () => {
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      CONTACT_SEARCH_CONFIG: join(dir, 'config.json'),
      CONTACT_SEARCH_DATA_DIR: dir,
      CONTACT_SEARCH_PORT: '0',
      CONTACT_SEARCH_WORKERS: '2',
    },
  });
  let err = '';
  server.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  endpoint = await new Promise<string>((done, fail) => {
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /help page: +(\S+)/.exec(out);
      if (m) done(m[1]);
    });
    server.once('exit', (code) => fail(new Error(`server exited with ${code}: ${err}`)));
  });
});
after(() => {
  server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** The worker processes: the primary's children. */
const workers = () =>
  readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);

/** A request on a connection of its own (no keep-alive), so that the primary hands each to the next worker. */
function request(
  method: 'GET' | 'POST',
  path: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const req = http.request(
      new URL(path, endpoint),
      { method, agent: false, headers: body ? { 'Content-Type': 'application/json' } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => done({ status: res.statusCode!, text }));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

/** An operation through the JSON binding (`{"d": …}`); AsType JSON, so `d` is the document's text. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the documents' shapes vary by operation
async function call(op: string, params: object): Promise<any> {
  const r = await request(
    'POST',
    `${endpoint}/${op}`,
    JSON.stringify({
      StringOfJSONParameters: JSON.stringify(params),
      DBName: 'Demo',
      AsType: 'JSON',
    }),
  );
  assert.equal(r.status, 200, r.text);
  const d = (JSON.parse(r.text) as { d: string }).d;
  return op === 'ProcessRequest' ? d : JSON.parse(d);
}
const write = (params: object) =>
  call('ProcessRequest', { DBName: 'Demo', ...params }) as Promise<string>;
const found = async (text: string): Promise<string[]> =>
  (await call('GetSearchResults', { Query: text })).Rows.map(
    (x: { ContactId: string }) => x.ContactId,
  );

test('1. a primary and two workers; seeded once, announced once', async () => {
  assert.equal(workers().length, 2);
  assert.equal(out.match(/listening on/g)?.length, 1);
  assert.match(out, /\(2 worker processes\)/);
  // The port opens before the databases are loaded; the addresses are printed once both workers are.
  assert.ok(out.indexOf('listening on') < out.indexOf('help page'), out);
  assert.equal(out.match(/help page/g)?.length, 1);
  for (let i = 0; i < 4; i++) {
    const health = await request('GET', new URL('/healthz', endpoint).href);
    assert.deepEqual([health.status, health.text], [200, 'ok\n'], 'both workers ready');
  }
  for (let i = 0; i < 7; i++) assert.equal((await call('GetSearchResults', {})).Total, 300);
  for (let i = 0; i < 4; i++) {
    // on fresh connections: taken by both workers in turn
    const m = parseExposition((await request('GET', new URL('/metrics', endpoint).href)).text);
    assert.deepEqual(
      m
        .select('contact_search_event_loop_blocks_total')
        .map((s) => s.labels.worker)
        .sort(),
      ['1', '2'],
    );
    assert.deepEqual(
      m
        .select('contact_search_database_contacts', { database: 'Demo' })
        .map((s) => [s.labels.worker, s.value])
        .sort(),
      [
        ['1', 300],
        ['2', 300],
      ],
    );
    assert.equal(m.one('contact_search_workers', { state: 'answered' }), 2);
    assert.equal(
      m.one('contact_search_requests_total', {
        operation: 'GetSearchResults',
        binding: 'json',
        outcome: 'ok',
      }),
      7,
      "both workers' requests, summed",
    );
  }
});

test('2. a write on one connection is seen on every fresh connection after it', async () => {
  assert.deepEqual(await found('Wilhelmina Quarrington'), []);
  assert.match(
    await write({
      Request: 'UpsertContacts',
      Contacts: [
        {
          ContactId: 'wq1',
          FirstName: 'Wilhelmina',
          LastName: 'Quarrington',
          Emails: ['wq@example.org'],
        },
      ],
    }),
    /Inserted="1"/,
  );
  for (let i = 0; i < 4; i++)
    assert.match(
      await write({ Request: 'GetContact', ContactId: 'wq1' }),
      /Quarrington/,
      `ProcessRequest read ${i}`,
    );
  for (let i = 0; i < 8; i++)
    assert.deepEqual(await found('Wilhelmina Quarrington'), ['wq1'], `read ${i}`);
  assert.match(await write({ Request: 'DeleteContacts', ContactIds: ['wq1'] }), /Deleted="1"/);
  for (let i = 0; i < 8; i++)
    assert.deepEqual(await found('Wilhelmina Quarrington'), [], `read ${i} after the delete`);
  await write({
    Request: 'UpsertContacts',
    Contacts: [{ ContactId: 'wq2', FirstName: 'Wilhelmina', LastName: 'Quarrington' }],
  });
});

test('3. a worker that dies is replaced', async () => {
  const [first] = workers();
  process.kill(first, 'SIGKILL');
  assert.ok(
    await eventually(() => workers().length === 2 && !workers().includes(first)),
    'a new worker was started',
  );
  // It indexes before it listens; until then the other answers.
  for (let i = 0; i < 6; i++)
    assert.deepEqual(await found('Wilhelmina Quarrington'), ['wq2'], `read ${i}`);
});

test('4. SIGTERM stops the workers, then the primary exits 0', async () => {
  const children = workers();
  const exited = new Promise<number | null>((done) => server.once('exit', (code) => done(code)));
  server.kill('SIGTERM');
  assert.equal(await exited, 0);
  for (const pid of children) assert.throws(() => process.kill(pid, 0), 'worker gone');
});
