/** The shared store suite against a real SQLite file in a temporary folder. */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { applyChange } from '../src/store/store.ts';
import { contact, eventually, storeCases } from './cases/store.case.ts';
import { watchWal } from '../src/store/sqlite/wal-header.ts';
import { generateContacts } from '../src/demo/generate.ts';

const dir = mkdtempSync(join(tmpdir(), 'contacts-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
let file = '';
storeCases(
  'sqlite',
  async () => {
    file = join(dir, `t${n++}.db`);
    return openSqliteStore(file);
  },
  async () => openSqliteStore(file),
);

test("sqlite: a write waiting for another connection's write lock lets the event loop run, then lands", async () => {
  const lockFile = join(dir, 'lock.db');
  const a = openSqliteStore(lockFile);
  const b = openSqliteStore(lockFile); // as another worker process or the import CLI
  const held = await a.begin();
  await held.put([contact('a1', 'Ann', 'Lee')]);
  const t0 = performance.now();
  const waiting = applyChange(b, { upsert: [contact('b1', 'Bob', 'Ray')] });
  const tick = await new Promise<number>((done) =>
    setTimeout(() => done(performance.now() - t0), 20),
  );
  assert.ok(tick < 1000, `a 20 ms timer fired after ${Math.round(tick)} ms`);
  await held.commit();
  await waiting;
  assert.deepEqual((await b.get(['a1', 'b1'])).map((c) => c.ContactId).sort(), ['a1', 'b1']);
  await a.close();
  await b.close();
});

test('sqlite: opening an existing database writes nothing to it (benchmarks open shared databases only to read)', async () => {
  const readOnly = join(dir, 'read-only.db');
  const first = openSqliteStore(readOnly);
  await applyChange(first, { upsert: [contact('r1', 'Ann', 'Lee')] });
  await first.close(); // checkpoints: the WAL is folded into the file and removed
  const again = openSqliteStore(readOnly);
  assert.equal((await again.get(['r1']))[0]?.ContactId, 'r1');
  // Any page written since the open sits in the WAL until the close.
  assert.equal(statSync(`${readOnly}-wal`).size, 0);
  await again.close();
});

test('sqlite: a big commit is checkpointed on a worker thread afterwards, not inside the COMMIT', async () => {
  const file = join(dir, 'checkpoint.db');
  const store = openSqliteStore(file);
  const wal = watchWal(file)!;
  const many = [...generateContacts({ count: 8000, seed: 3 })].flat();
  await applyChange(store, { upsert: many });
  const behind = wal.framesBehind();
  assert.ok(behind >= 1000, `the COMMIT left the WAL to the worker (${behind} frames behind)`);
  assert.ok(await eventually(() => wal.framesBehind() < behind), 'then the worker copied it');
  // A small commit after it starts no checkpoint (nothing much behind): the store closes at once.
  await applyChange(store, { upsert: [contact('small', 'Sam', 'Small')] });
  assert.ok(wal.framesBehind() < 1000);
  await store.close();
  wal.close();
});
