/** Start-up rules (CONTRACT §8): no API keys and a non-loopback address → refuse to start, unless told to run open. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { isLoopbackHost } from '../src/http/server.ts';

test('refuses 0.0.0.0 without keys, and says how to fix it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'contacts-start-'));
  try {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: resolve(import.meta.dirname, '..'), timeout: 30_000, encoding: 'utf8',
      env: { ...process.env, CONTACT_SEARCH_HOST: '0.0.0.0', CONTACT_SEARCH_PORT: '0', CONTACT_SEARCH_DATA_DIR: dir },
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /refusing to listen on 0\.0\.0\.0 without API keys.*CONTACT_SEARCH_OPEN=1/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a host name that starts with 127. is no loopback address: refused without keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'contacts-start-'));
  try {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: resolve(import.meta.dirname, '..'), timeout: 30_000, encoding: 'utf8',
      env: { ...process.env, CONTACT_SEARCH_HOST: '127.example.com', CONTACT_SEARCH_PORT: '0', CONTACT_SEARCH_DATA_DIR: dir },
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /refusing to listen on 127\.example\.com without API keys/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('loopback hosts: localhost and loopback IPs only', () => {
  for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) assert.equal(isLoopbackHost(h), true, h);
  for (const h of ['127.example.com', '127.0.0.1.nip.io', '0.0.0.0', '::', '10.0.0.1', 'example.com']) assert.equal(isLoopbackHost(h), false, h);
});
