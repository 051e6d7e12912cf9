import assert from 'node:assert/strict';
import { mkdtempSync, readlinkSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { watchWal } from './wal-header.ts';

/** The descriptors this process holds on `path`. */
const descriptorsOn = (path: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;

test('the wal-index header moves with every commit, from any connection, and only then', () => {
  const dir = mkdtempSync(join(tmpdir(), 'contacts-wal-'));
  try {
    const file = join(dir, 'x.db');
    const writer = new Database(file);
    writer.pragma('journal_mode = WAL');
    writer.exec('CREATE TABLE t (v INTEGER)');
    assert.equal(watchWal(join(dir, 'missing.db')), undefined, 'no -shm: the caller falls back');
    const a = watchWal(file)!;
    const b = watchWal(file)!;
    assert.equal(a.moved(), true, 'the first call sets the baseline');
    assert.equal(a.moved(), false);
    writer.prepare('SELECT count(*) FROM t').get();
    assert.equal(a.moved(), false, 'a read is not a commit');
    writer.prepare('INSERT INTO t VALUES (1)').run();
    assert.equal(a.moved(), true);
    assert.equal(a.moved(), false);
    writer.exec('BEGIN; INSERT INTO t VALUES (2); ROLLBACK');
    assert.equal(a.moved(), false, 'a rolled-back transaction is not a commit');
    const other = new Database(file);
    other.prepare('INSERT INTO t VALUES (3)').run();
    assert.equal(a.moved(), true, 'another connection committed');
    other.close();
    b.moved();
    assert.equal(descriptorsOn(`${file}-shm`) >= 1, true);
    const before = descriptorsOn(`${file}-shm`);
    a.close();
    a.close(); // twice is harmless
    assert.equal(
      descriptorsOn(`${file}-shm`),
      before,
      'the descriptor stays while another watch uses it',
    );
    writer.prepare('INSERT INTO t VALUES (4)').run();
    assert.equal(b.moved(), true, 'and still reads');
    b.close();
    assert.equal(descriptorsOn(`${file}-shm`), before - 1, 'closed with the last watch');
    writer.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
