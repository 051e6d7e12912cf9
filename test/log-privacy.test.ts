/**
 * The log of a whole server run holds no personal data or secrets (issue 20; docs/MONITORING.md
 * "Logs"). The server as a user starts it (src/main.ts) at CONTACT_SEARCH_LOG_LEVEL=debug, with an API
 * key. Properties checked:
 * 1. Over imports through ProcessRequest (CSV, UpsertContacts), searches, type-ahead, filters and an
 *    export in all five bindings, failing requests (a bad member, a rejected import, a wrong key) and
 *    SIGTERM, the whole of stdout and stderr holds none of the names, emails, phones, organisations,
 *    query texts, StringOfJSONParameters, the key's secret or the Authorization header sent;
 *    while it does hold a request line for each request, with its binding, outcome and request id.
 * 2. At logLevel warn the same server logs no debug or info line (the start-up lines included).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import type { BindingName } from '../src/service/types.ts';
import { BINDINGS, callIn } from './support/bindings.ts';

const ROOT = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'contacts-log-privacy-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'Sup3r-Secret-Key-Value';
const AUTH = `Basic ${Buffer.from(`ops:${SECRET}`).toString('base64')}`;

/** Every piece of personal data the run sends; none may reach the log. */
const PEOPLE = [
  {
    id: 'lp1',
    first: 'Wilhelmina',
    last: 'Quarrington',
    email: 'wilhelmina.quarrington@privacy-test.example',
    phone: '+44 20 7946 0321',
    org: 'Zephyrine Holdings',
  },
  {
    id: 'lp2',
    first: 'Bartholomew',
    last: 'Xenakis',
    email: 'bart.xenakis@privacy-test.example',
    phone: '+1 (617) 555-0142',
    org: 'Quillfeather Ltd',
  },
  {
    id: 'lp3',
    first: 'Ottoline',
    last: 'Vandersloot',
    email: 'ottoline@vandersloot.example',
    phone: '030 98765432',
    org: 'Marzipan Werke',
  },
  {
    id: 'lp4',
    first: 'Perpetua',
    last: 'Grzybowska',
    email: 'p.grzybowska@privacy-test.example',
    phone: '+48 22 555 77 66',
    org: 'Kwiatuszek',
  },
];
const QUERIES = ['wilhelm', 'xenakis bart', 'vandersloot', 'grzyb', 'quillfeather', '617555'];

async function run(
  level: string,
  exercise: (endpoint: string) => Promise<void>,
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const data = join(dir, level);
  writeFileSync(
    join(dir, `${level}.json`),
    JSON.stringify({
      databases: [{ name: 'Demo', backend: 'sqlite' }],
      keys: [{ id: 'ops', secret: SECRET, scopes: ['read', 'write'], databases: '*' }],
    }),
  );
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      CONTACT_SEARCH_CONFIG: join(dir, `${level}.json`),
      CONTACT_SEARCH_DATA_DIR: data,
      CONTACT_SEARCH_PORT: '0',
      CONTACT_SEARCH_LOG_LEVEL: level,
      CONTACT_SEARCH_WORKERS: '1',
    },
  });
  let stdout = '';
  let stderr = '';
  server.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((done) => server.once('close', (code) => done(code))); // close: stdout and stderr read to their end
  try {
    const endpoint = await new Promise<string>((done, fail) => {
      server.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString();
        const m = /help page: +(\S+)/.exec(stdout);
        if (m) done(m[1]);
      });
      void exited.then((code) => fail(new Error(`server exited with ${code}: ${stderr}`)));
    });
    await exercise(endpoint);
  } finally {
    server.kill('SIGTERM');
  }
  const code = await exited;
  return { stdout, stderr, code };
}

const call = (binding: BindingName, endpoint: string, op: string, params: object, auth = AUTH) =>
  callIn(
    binding,
    endpoint,
    op,
    { StringOfJSONParameters: JSON.stringify(params), DBName: 'Demo', AsType: 'JSON' },
    { Authorization: auth },
  );

test('1. a whole run at debug: request lines, and no personal data or secret anywhere', async () => {
  const sent: { binding: BindingName; op: string; outcome: string }[] = [];
  const expect = async (
    binding: BindingName,
    op: string,
    params: object,
    outcome: string,
    auth?: string,
  ) => {
    const r = await call(binding, endpoint, op, params, auth);
    assert.equal(
      r.status === 200 ? 'ok' : 'failed',
      outcome === 'ok' ? 'ok' : 'failed',
      `${binding} ${op}: ${r.text.slice(0, 300)}`,
    );
    sent.push({ binding, op, outcome });
    return r.text;
  };
  let endpoint = '';
  const { stdout, stderr, code } = await run('debug', async (e) => {
    endpoint = e;
    const [a, b, ...rest] = PEOPLE;
    const csv = [
      'ContactId,First Name,Last Name,E-mail Address,Business Phone,Company',
      ...[a, b].map((p) => [p.id, p.first, p.last, p.email, `"${p.phone}"`, p.org].join(',')),
    ].join('\n');
    assert.match(
      await expect(
        'json',
        'ProcessRequest',
        { Request: 'ImportContacts', DBName: 'Demo', Format: 'CSV', Content: csv },
        'ok',
      ),
      /Inserted=\\?"2/,
    );
    const records = rest.map((p) => ({
      ContactId: p.id,
      FirstName: p.first,
      LastName: p.last,
      Emails: [p.email],
      Phones: [p.phone],
      Organization: p.org,
    }));
    assert.match(
      await expect(
        'soap11',
        'ProcessRequest',
        { Request: 'UpsertContacts', DBName: 'Demo', Contacts: records },
        'ok',
      ),
      /Inserted=(\\?"|&quot;)2/,
    );
    for (const [i, q] of QUERIES.entries()) {
      const binding = BINDINGS[i % BINDINGS.length];
      const found = await expect(binding, 'GetSearchResults', { Query: q }, 'ok');
      assert.match(found, /\\?"Total\\?":[1-9]/, `${binding} finds ${q}`);
      await expect(
        BINDINGS[(i + 1) % BINDINGS.length],
        'GetPredictiveOptions',
        { Field: 'LastName', Text: q.slice(0, 4) },
        'ok',
      );
    }
    await expect(
      'httppost',
      'GetSearchResults',
      {
        Query: 'grzybowska',
        Filters: [{ Field: 'Organization', Op: 'Eq', Values: ['Kwiatuszek'] }],
      },
      'ok',
    );
    await expect(
      'soap12',
      'ProcessRequest',
      { Request: 'ExportContacts', DBName: 'Demo', Format: 'CSV' },
      'ok',
    );
    await expect('json', 'GetSearchResults', { Querry: 'Quarrington' }, 'UnknownMember');
    const rejected = await expect(
      'httppost',
      'ProcessRequest',
      {
        Request: 'ImportContacts',
        DBName: 'Demo',
        Format: 'CSV',
        Content: `ContactId,First Name,E-mail Address\nlp9,${a.first},not-an-email-${a.last}\n`,
      },
      'ok',
    );
    assert.match(rejected, /Rejected/);
    await expect(
      'httpget',
      'GetSearchResults',
      { Query: b.last },
      'Unauthorized',
      `Basic ${Buffer.from(`ops:wrong-${SECRET}`).toString('base64')}`,
    );
  });
  assert.equal(code, 0, stderr);
  const log = stdout + stderr;

  // The run did log: one request line per operation call, each naming its binding and outcome.
  const lines = stderr
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const requests = lines.filter((l) => l.msg === 'request' && l.route === 'operation');
  assert.equal(requests.length, sent.length, `a line per request: ${stderr}`);
  for (const [i, s] of sent.entries()) {
    const l = requests[i];
    assert.deepEqual([l.level, l.binding, l.op], ['debug', s.binding, s.op], JSON.stringify(l));
    if (s.outcome !== 'ok') assert.equal(l.outcome, s.outcome);
    assert.match(String(l.reqId), /^\w+-\w+$/);
    assert.ok(
      typeof l.ms === 'number' && typeof l.bytesIn === 'number' && typeof l.bytesOut === 'number',
    );
  }
  assert.equal(
    new Set(requests.map((l) => l.reqId)).size,
    requests.length,
    'request ids are unique',
  );

  const forbidden = [
    SECRET,
    AUTH,
    AUTH.slice(6),
    ...QUERIES,
    ...QUERIES.map((q) => q.slice(0, 4)),
    'StringOfJSONParameters',
    'Querry',
  ];
  for (const p of PEOPLE)
    forbidden.push(p.first, p.last, p.email, p.phone, p.phone.replace(/\D/g, ''), p.org);
  // Numbers a line carries (pid, ms, bytes, status) are not text a person typed, and one of them
  // holding "6175" (the digits query's first four) failed a CI run: they are read as 0. Every string
  // value, and any line that is not JSON, is searched as written.
  const text = log
    .split('\n')
    .map((l) => {
      try {
        return JSON.stringify(JSON.parse(l), (_k, v: unknown) => (typeof v === 'number' ? 0 : v));
      } catch {
        return l;
      }
    })
    .join('\n');
  const lower = text.toLowerCase();
  for (const f of forbidden) assert.ok(!lower.includes(f.toLowerCase()), `the log holds "${f}"`);
});

test('2. at warn, no debug or info line is logged', async () => {
  const { stderr, code } = await run('warn', async (endpoint) => {
    for (const b of BINDINGS)
      assert.equal((await call(b, endpoint, 'GetSearchResults', { Query: 'x' })).status, 200);
  });
  assert.equal(code, 0);
  const levels = stderr
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { level: string }).level);
  assert.deepEqual(
    levels.filter((l) => l === 'debug' || l === 'info'),
    [],
  );
});
