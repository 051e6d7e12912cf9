/**
 * The registry of a starting server (src/database/start.ts, docs/DESIGN.md "Start-up"), in-process.
 * Properties checked:
 * 1. `startDatabases` returns once the stores are open, every database `loading` (it seeds 2,000
 *    contacts first, which lets the event loop through, so nothing is loaded when it returns):
 *    `loading()` names it, `find` gives nothing, `get` throws Unavailable with a Retry-After, a name
 *    not configured is still UnknownDatabase, and `names()` lists it.
 * 2. Once `ready` resolves: nothing loading, `get` and `find` give the database with its contacts.
 * 3. A store that cannot be opened throws from `startDatabases` itself (before a server would listen).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { defaultConfig, type Config } from '../src/config.ts';
import { startDatabases } from '../src/database/start.ts';
import { ServiceError } from '../src/errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'contacts-states-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const config = (dataDir: string): Config => ({
  ...defaultConfig(),
  dataDir,
  databases: [{ name: 'Demo', backend: 'sqlite', seedDemo: 2_000 }],
});
const code = (work: () => unknown) => {
  try {
    work();
  } catch (e) {
    assert.ok(e instanceof ServiceError, String(e));
    return { code: e.code, retryAfter: (e as { retryAfter?: number }).retryAfter };
  }
  return undefined;
};

test('1–2. loading, then ready', async () => {
  const { databases, ready } = await startDatabases(config(dir));
  try {
    assert.deepEqual(databases.names(), ['Demo']);
    assert.deepEqual(
      databases.loading().map((d) => d.name),
      ['Demo'],
    );
    assert.equal(databases.find('demo'), undefined);
    const loading = code(() => databases.get('DEMO'));
    assert.equal(loading?.code, 'Unavailable');
    assert.ok((loading?.retryAfter ?? 0) > 0);
    assert.equal(code(() => databases.get('Nope'))?.code, 'UnknownDatabase');

    await ready;
    assert.deepEqual(databases.loading(), []);
    assert.equal(databases.get('demo').size, 2_000);
    assert.equal(databases.find('Demo')?.name, 'Demo');
    assert.deepEqual(databases.down(), []);
  } finally {
    await databases.close();
  }
});

test('3. a store that cannot be opened fails the start itself', async () => {
  // A file where the data directory should be: no one (root included) can make a directory there.
  const blocked = join(dir, 'blocked');
  writeFileSync(blocked, '');
  await assert.rejects(startDatabases(config(join(blocked, 'data'))), /cannot write the directory/);
});
