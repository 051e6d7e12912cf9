/**
 * Start-up problems, each with the real server process (`src/main.ts`). Properties checked:
 * 1. No API keys and a non-loopback address (a host name that only starts with 127. is none): refuses
 *    to start, unless told to run open (CONTRACT §8).
 * 2. Every start-up problem — port in use (one process, and a primary with workers), a config file
 *    that cannot be read or is not valid, a data directory that cannot be written, PostgreSQL that
 *    cannot be reached — prints exactly one plain-text line naming what to fix, no stack trace, and exits 2.
 * 3. So does a PostgreSQL schema of a newer version (skipped by name without PostgreSQL; fails under CI).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { isLoopbackHost } from '../src/http/listen-first.ts';
import { dropSchema, PG_URL, pgQuery, withPostgres } from './support/pg.ts';

const dir = mkdtempSync(join(tmpdir(), 'contacts-start-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function start(env: Record<string, string>, config?: object | string) {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  if (config !== undefined)
    writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config));
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: resolve(import.meta.dirname, '..'),
    timeout: 30_000,
    encoding: 'utf8',
    env: {
      ...process.env,
      CONTACT_SEARCH_PORT: '0',
      CONTACT_SEARCH_DATA_DIR: dir,
      ...(config !== undefined ? { CONTACT_SEARCH_CONFIG: file } : {}),
      ...env,
    },
  });
}

/**
 * Exit code 2, and stderr is one plain-text line `cannot start: …` matching `what` (not a JSON log
 * line: it is for a person), without a stack frame; nothing on stdout.
 */
function cannotStart(r: ReturnType<typeof start>, what: RegExp) {
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  assert.equal(r.status, 2, r.stderr);
  assert.equal(lines.length, 1, `one line: ${r.stderr}`);
  assert.match(lines[0], /^cannot start: /);
  assert.match(lines[0], what);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
  assert.equal(r.stdout, '');
}

const sqliteOnly = { databases: [{ name: 'Demo', backend: 'sqlite' }] };

// First: the spawnSync calls of the tests below block the event loop, and with it this check's connection.
await withPostgres('3. a PostgreSQL schema of a newer version', () => {
  const schema = `contacts_future_${process.pid}`;
  test('3. a PostgreSQL schema of a newer version', async () => {
    await dropSchema(schema);
    try {
      await pgQuery(`CREATE SCHEMA "${schema}"`);
      await pgQuery(`CREATE TABLE "${schema}".schema_version (version integer NOT NULL)`);
      await pgQuery(`INSERT INTO "${schema}".schema_version VALUES (99)`);
      cannotStart(
        start({}, { databases: [{ name: 'Pg', backend: 'postgres', url: PG_URL, schema }] }),
        new RegExp(
          `database "Pg": PostgreSQL schema "${schema}" has schema version 99; this build reads up to 1: run a newer build, or configure another schema`,
        ),
      );
    } finally {
      await dropSchema(schema);
    }
  });
});

test('1. refuses 0.0.0.0 without keys, and says how to fix it', () => {
  cannotStart(
    start({ CONTACT_SEARCH_HOST: '0.0.0.0' }),
    /refusing to listen on 0\.0\.0\.0 without API keys.*CONTACT_SEARCH_OPEN=1/,
  );
});

test('2a. port in use: one line naming the port, for one process and for a primary with workers', async () => {
  const taken = net.createServer();
  await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
  const port = String((taken.address() as net.AddressInfo).port);
  try {
    cannotStart(
      start({ CONTACT_SEARCH_PORT: port }, sqliteOnly),
      new RegExp(`cannot start: port ${port} on 127\\.0\\.0\\.1 is in use.*CONTACT_SEARCH_PORT`),
    );
    cannotStart(
      start({ CONTACT_SEARCH_PORT: port, CONTACT_SEARCH_WORKERS: '2' }, sqliteOnly),
      new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use`),
    );
  } finally {
    taken.close();
  }
});

test('2b. a config file that cannot be read, is not JSON, or holds a bad value', () => {
  cannotStart(
    start({ CONTACT_SEARCH_CONFIG: join(dir, 'missing.json') }),
    /cannot read the config file .*missing\.json \(ENOENT\); check CONTACT_SEARCH_CONFIG/,
  );
  cannotStart(start({}, '{ "port": '), /the config file .* is not valid JSON/);
  cannotStart(start({}, '[1, 2]'), /the config file .* must hold a JSON object/);
  cannotStart(start({}, { workers: 0 }), /workers must be a whole number/);
  cannotStart(
    start({}, { limits: { warmUpQueries: -1 } }),
    /limits\.warmUpQueries must be a whole number 0–100000, got "-1"/,
  );
  cannotStart(
    start({}, { databases: [{ name: 'Demo', backend: 'mysql' }] }),
    /database "Demo": backend must be "sqlite" or "postgres"/,
  );
});

test('2c. a data directory that cannot be written', () => {
  const file = join(dir, 'a-file');
  writeFileSync(file, '');
  cannotStart(
    start({ CONTACT_SEARCH_DATA_DIR: join(file, 'data') }, sqliteOnly),
    /database "Demo": cannot write the directory .*a-file\/data \(ENOTDIR\); make dataDir \(CONTACT_SEARCH_DATA_DIR\)/,
  );
});

test('2d. PostgreSQL that cannot be reached, for one process and for a primary with workers', () => {
  const config = {
    databases: [
      { name: 'Pg', backend: 'postgres', url: 'postgres://postgres:secret@127.0.0.1:1/test' },
    ],
  };
  const r = start({}, config);
  cannotStart(
    r,
    /database "Pg": PostgreSQL is not accepting connections \(ECONNREFUSED\) at 127\.0\.0\.1:1\/test; check that PostgreSQL runs/,
  );
  assert.doesNotMatch(r.stderr, /secret/, 'the password is not printed');
  cannotStart(
    start({ CONTACT_SEARCH_WORKERS: '2' }, config),
    /database "Pg": PostgreSQL is not accepting connections/,
  );
});

test('1b. a host name that starts with 127. is no loopback address: refused without keys', () => {
  cannotStart(
    start({ CONTACT_SEARCH_HOST: '127.example.com' }),
    /refusing to listen on 127\.example\.com without API keys/,
  );
});

test('loopback hosts: localhost and loopback IPs only', () => {
  for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])
    assert.equal(isLoopbackHost(h), true, h);
  for (const h of [
    '127.example.com',
    '127.0.0.1.nip.io',
    '0.0.0.0',
    '::',
    '10.0.0.1',
    'example.com',
  ])
    assert.equal(isLoopbackHost(h), false, h);
});
