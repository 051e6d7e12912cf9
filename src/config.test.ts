import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_LIMITS, loadConfig, perWorker } from './config.ts';

const load = (env: Record<string, string>) => loadConfig(env, '/nonexistent');

test('workers: 1 by default, a number, or auto (one per core); anything else names the setting', () => {
  assert.equal(load({}).workers, 1);
  assert.equal(load({ CONTACT_SEARCH_WORKERS: '3' }).workers, 3);
  assert.equal(load({ CONTACT_SEARCH_WORKERS: 'auto' }).workers, availableParallelism());
  for (const bad of ['0', '1.5', 'two', '65'])
    assert.throws(() => load({ CONTACT_SEARCH_WORKERS: bad }), /workers must be/);
});

test('workers in a config file: a number or "auto", as in the environment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'contacts-config-'));
  try {
    const file = (workers: unknown) => {
      writeFileSync(join(dir, 'contact-search.json'), JSON.stringify({ workers }));
      return loadConfig({}, dir);
    };
    assert.equal(file('auto').workers, availableParallelism());
    assert.equal(file(2).workers, 2);
    assert.throws(() => file('many'), /workers must be/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('logLevel: debug, info, warn or error, from the environment or a config file; info by default', () => {
  assert.equal(load({}).logLevel, 'info');
  for (const level of ['debug', 'info', 'warn', 'error'])
    assert.equal(load({ CONTACT_SEARCH_LOG_LEVEL: level }).logLevel, level);
  for (const bad of ['verbose', 'trace', 'INFO', 'silent'])
    assert.throws(
      () => load({ CONTACT_SEARCH_LOG_LEVEL: bad }),
      /logLevel must be debug, info, warn, error/,
    );
  const dir = mkdtempSync(join(tmpdir(), 'contacts-config-'));
  try {
    writeFileSync(join(dir, 'contact-search.json'), JSON.stringify({ logLevel: 'debug' }));
    assert.equal(loadConfig({}, dir).logLevel, 'debug');
    writeFileSync(join(dir, 'contact-search.json'), JSON.stringify({ logLevel: 'loud' }));
    assert.throws(() => loadConfig({}, dir), /logLevel must be/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('perWorker: each worker gets an equal share of every rate and burst, so together they keep the limit', () => {
  assert.equal(perWorker(DEFAULT_LIMITS, 1), DEFAULT_LIMITS);
  const two = perWorker(
    {
      ...DEFAULT_LIMITS,
      keyRequestsPerSecond: 100,
      keyBurst: 201,
      ipRequestsPerSecond: 0.01,
      ipBurst: 1,
    },
    2,
  );
  assert.deepEqual(
    [two.keyRequestsPerSecond, two.keyBurst, two.ipRequestsPerSecond, two.ipBurst],
    [50, 100, 0.005, 1],
  );
  assert.equal(two.bodyBytes, DEFAULT_LIMITS.bodyBytes, 'sizes are per request: unchanged');
});
