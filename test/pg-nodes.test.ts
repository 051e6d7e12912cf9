/**
 * Two server processes (`src/main.ts`, as an operator starts them: two nodes) over one PostgreSQL
 * database, the real server on 127.0.0.1:5432. Properties checked:
 * 1. A write through one node is searchable through the other within 1 s (the NOTIFY-driven change feed).
 * 2. PostgreSQL restarted (`pg_ctlcluster … restart`) under a light load of searches and writes on both
 *    nodes: both stay alive; every request gets an HTTP answer (a result, or 503 Unavailable, never a
 *    dropped connection or another error); searches answer right throughout; every acknowledged write
 *    is in the database and searchable on both nodes after; /healthz is 200 on both again.
 * 3. After the restart, a write through one is again searchable through the other within 1 s.
 * PostgreSQL is started again at the end even when a test fails.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { dropSchema, PG_URL, pgQuery, pgUnreachable, withPostgres } from './support/pg.ts';

const ROOT = resolve(import.meta.dirname, '..');
const NAME = 'PgNodes';
const schema = `contacts_nodes_${process.pid}`;
const run = promisify(execFile);
const version = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql')[0] : undefined;
const pgctl = (action: 'restart' | 'start') =>
  run('pg_ctlcluster', ['--skip-systemctl-redirect', version!, 'main', action]);

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20)))
    if (await check()) return true;
  return false;
}

interface Node {
  proc: ChildProcess;
  base: string;
  endpoint: string;
  err: string;
}

async function startNode(dir: string, label: string): Promise<Node> {
  const config = join(dir, `${label}.json`);
  writeFileSync(
    config,
    JSON.stringify({ databases: [{ name: NAME, backend: 'postgres', url: PG_URL, schema }] }),
  );
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      CONTACT_SEARCH_CONFIG: config,
      CONTACT_SEARCH_DATA_DIR: dir,
      CONTACT_SEARCH_PORT: '0',
      CONTACT_SEARCH_HOST: '127.0.0.1',
    },
  });
  const node = { proc, base: '', endpoint: '', err: '' };
  proc.stderr!.on('data', (d: Buffer) => {
    node.err += d.toString();
  });
  node.endpoint = await new Promise<string>((done, fail) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /help page: +(\S+)/.exec(out);
      if (m) done(m[1]);
    });
    proc.once('exit', (code) => fail(new Error(`node ${label} exited with ${code}: ${node.err}`)));
  });
  node.base = new URL(node.endpoint).origin;
  return node;
}

type Outcome = 'ok' | 'unavailable' | 'other' | 'dropped';

/** One operation through the JSON binding; what came back, classified. */
async function call(
  node: Node,
  op: string,
  p: object,
): Promise<{ outcome: Outcome; d?: string; detail: string }> {
  let r: Response;
  try {
    r = await fetch(`${node.endpoint}/${op}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        StringOfJSONParameters: JSON.stringify(p),
        DBName: NAME,
        AsType: 'JSON',
      }),
      signal: AbortSignal.timeout(40_000),
    });
  } catch (e) {
    return { outcome: 'dropped', detail: String(e) };
  }
  const text = await r.text();
  if (r.status === 200)
    return { outcome: 'ok', d: (JSON.parse(text) as { d: string }).d, detail: text };
  if (r.status === 503 && (JSON.parse(text) as { Code?: string }).Code === 'Unavailable')
    return { outcome: 'unavailable', detail: text };
  return { outcome: 'other', detail: `${r.status} ${text}` };
}

const ids = (d: string) =>
  (JSON.parse(d) as { Rows: { ContactId: string }[] }).Rows.map((x) => x.ContactId).sort();
async function search(node: Node, query: string): Promise<string[] | undefined> {
  const r = await call(node, 'GetSearchResults', { Query: query, PageSize: 500 });
  return r.outcome === 'ok' ? ids(r.d!) : undefined;
}
const upsert = (node: Node, id: string, first: string, last: string) =>
  call(node, 'ProcessRequest', {
    Request: 'UpsertContacts',
    DBName: NAME,
    Contacts: [{ ContactId: id, FirstName: first, LastName: last }],
  });

/** Written through `from`, then asked of `to` until it answers: true when it did within 1 s. */
async function seenAcross(from: Node, to: Node, id: string, last: string): Promise<boolean> {
  const w = await upsert(from, id, 'Crossing', last);
  assert.equal(w.outcome, 'ok', w.detail);
  return until(async () => (await search(to, last))?.includes(id) === true, 1000);
}

await withPostgres('two nodes over one PostgreSQL database', () => {
  if (!version) {
    test(
      'two nodes over one PostgreSQL database',
      { skip: process.env.CI ? false : 'pg_ctlcluster not found' },
      () => {
        throw new Error(
          'pg_ctlcluster not found: the restart test needs a local PostgreSQL cluster',
        );
      },
    );
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'contacts-pgnodes-'));
  let a: Node;
  let b: Node;
  before(async () => {
    await dropSchema(schema);
    a = await startNode(dir, 'a');
    b = await startNode(dir, 'b');
  });
  after(async () => {
    // Whatever happened, PostgreSQL runs again for the other tests on the machine.
    if (await pgUnreachable()) await pgctl('start').catch(() => undefined);
    for (const n of [a, b]) n?.proc.kill('SIGKILL');
    await until(async () => !(await pgUnreachable()), 30_000);
    await dropSchema(schema).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  test('1. a write through one node is searchable through the other within 1 s', async () => {
    assert.ok(await seenAcross(a, b, 'x1', 'Quenneville'), "b finds a's write");
    assert.ok(await seenAcross(b, a, 'x2', 'Ravensworth'), "a finds b's write");
  });

  test('2. PostgreSQL restarted under load: nodes alive, every request answered, acknowledged writes present', async (t) => {
    assert.equal((await upsert(a, 's1', 'Seeded', 'Steadfast')).outcome, 'ok');
    const outcomes: Record<Outcome, number> = { ok: 0, unavailable: 0, other: 0, dropped: 0 };
    const problems: string[] = [];
    const acked: string[] = [];
    let loading = true;
    async function load(node: Node, label: string) {
      for (let n = 0; loading; n++) {
        const id = `w-${label}-${n}`;
        const w = await upsert(node, id, 'Loaded', 'Restartwrite');
        outcomes[w.outcome]++;
        if (w.outcome === 'ok') acked.push(id);
        if (w.outcome === 'other' || w.outcome === 'dropped')
          problems.push(`${label} write: ${w.detail}`);
        const s = await call(node, 'GetSearchResults', { Query: 'steadfast' });
        outcomes[s.outcome]++;
        if (s.outcome === 'ok' && ids(s.d!).join() !== 's1')
          problems.push(`${label} search answered ${s.d}`);
        if (s.outcome !== 'ok') problems.push(`${label} search: ${s.outcome} ${s.detail}`); // the index answers searches throughout
        await new Promise((r) => setTimeout(r, 40));
      }
    }
    const loads = [load(a, 'a'), load(b, 'b')];
    try {
      await new Promise((r) => setTimeout(r, 500));
      await pgctl('restart');
      const healthy = async (n: Node) =>
        (await fetch(`${n.base}/healthz`).catch(() => undefined))?.status === 200;
      assert.ok(
        await until(async () => (await healthy(a)) && (await healthy(b)), 30_000),
        '/healthz 200 on both again',
      );
      await new Promise((r) => setTimeout(r, 1000)); // some load after recovery too
    } finally {
      loading = false;
      await Promise.all(loads);
    }
    for (const n of [a, b])
      assert.deepEqual(
        [n.proc.exitCode, n.proc.signalCode],
        [null, null],
        `node alive: ${n.err.slice(-2000)}`,
      );
    assert.deepEqual(problems, []);
    assert.equal(outcomes.other + outcomes.dropped, 0);
    assert.ok(outcomes.ok > 0, JSON.stringify(outcomes));
    const stored = new Set(
      (
        await pgQuery(`SELECT contact_id FROM "${schema}".contacts WHERE contact_id LIKE 'w-%'`)
      ).rows.map((r: { contact_id: string }) => r.contact_id),
    );
    assert.deepEqual(
      acked.filter((id) => !stored.has(id)),
      [],
      'every acknowledged write is in the database',
    );
    for (const n of [a, b]) {
      assert.ok(
        await until(async () => {
          const found = new Set(await search(n, 'restartwrite'));
          return acked.every((id) => found.has(id));
        }, 5000),
        'every acknowledged write is searchable on both nodes',
      );
    }
    t.diagnostic(
      `load during the restart: ${JSON.stringify(outcomes)}, ${acked.length} writes acknowledged`,
    );
  });

  test('3. after the restart, a write through one node is again searchable through the other within 1 s', async () => {
    assert.ok(await seenAcross(a, b, 'x3', 'Thistlewood'), "b finds a's write");
    assert.ok(await seenAcross(b, a, 'x4', 'Umberleigh'), "a finds b's write");
  });
});
