/**
 * A SQLite file locked by another writer (a worker process, the import CLI): here a second
 * better-sqlite3 connection holding a write transaction. Properties checked:
 * 1. A write that finds the lock taken waits for it (on timers: searches keep answering meanwhile)
 *    and goes through once the other commits; both writes are there.
 * 2. Held past the wait (the request's time budget): the write fails Unavailable, nothing of it is
 *    written or indexed, and the same write passes once the lock is free.
 */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ServiceError } from '../src/errors.ts';
import { openDatabase } from '../src/database/registry.ts';
import { contact } from './cases/store.case.ts';

const dir = mkdtempSync(join(tmpdir(), 'contacts-busy-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The ids in the file, read on a connection of its own. */
function stored(file: string): string[] {
  const reader = new Database(file, { readonly: true });
  try {
    return reader
      .prepare('SELECT contact_id FROM contacts ORDER BY contact_id')
      .pluck()
      .all() as string[];
  } finally {
    reader.close();
  }
}

/** Another connection takes the write lock, writes a row (no feed row: the index is not told), and commits after `ms`. */
function holdWriteLock(file: string, ms: number, id: string): Promise<void> {
  const other = new Database(file);
  other.exec('BEGIN IMMEDIATE');
  other
    .prepare('INSERT INTO contacts (contact_id, doc) VALUES (?, ?)')
    .run(id, JSON.stringify(contact(id, 'Other', 'Writer')));
  return new Promise((done) =>
    setTimeout(() => {
      other.exec('COMMIT');
      other.close();
      done();
    }, ms),
  );
}

test("1. a write waits for another writer's lock, searches answer meanwhile, then it goes through", async () => {
  const db = await openDatabase(
    { name: 'Busy', backend: 'sqlite' },
    dir,
    () => {},
    () => {},
    true,
    5000,
  );
  try {
    await db.write({ upsert: [contact('b0', 'Before', 'Lock')] });
    const released = holdWriteLock(join(dir, 'Busy.db'), 300, 'other1');
    let settled = false;
    const writing = db.write({ upsert: [contact('b1', 'Blocked', 'Writer')] }).finally(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(settled, false, 'still waiting for the lock');
    assert.equal(db.get('b0')?.LastName, 'Lock', 'the index answers while the write waits');
    assert.deepEqual(await writing, { inserted: 1, updated: 0, deleted: 0 });
    await released;
    assert.equal(db.get('b1')?.FirstName, 'Blocked');
    assert.deepEqual(
      stored(join(dir, 'Busy.db')),
      ['b0', 'b1', 'other1'],
      'both writes are in the file',
    );
  } finally {
    await db.close();
  }
});

test('2. held past the wait: Unavailable, nothing written; the same write passes once the lock is free', async () => {
  const db = await openDatabase(
    { name: 'Held', backend: 'sqlite' },
    dir,
    () => {},
    () => {},
    true,
    150,
  );
  try {
    // A first write starts the store's write thread; under load that start can outlast the lock,
    // so the thread is running before the other writer takes it.
    await db.write({ upsert: [contact('h0', 'Warm', 'Thread')] });
    const released = holdWriteLock(join(dir, 'Held.db'), 600, 'other2');
    const err = await db.write({ upsert: [contact('h1', 'Held', 'Back')] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof ServiceError, `a ServiceError, got ${String(err)}`);
    assert.equal(err.code, 'Unavailable');
    assert.equal(db.get('h1'), undefined, 'not indexed');
    await released;
    assert.deepEqual(
      stored(join(dir, 'Held.db')),
      ['h0', 'other2'],
      "not written; the warm-up's and the other writer's rows are",
    );
    assert.deepEqual(await db.write({ upsert: [contact('h1', 'Held', 'Back')] }), {
      inserted: 1,
      updated: 0,
      deleted: 0,
    });
  } finally {
    await db.close();
  }
});
