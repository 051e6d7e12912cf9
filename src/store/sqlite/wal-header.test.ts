import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readlinkSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { FILE_MAP } from '../../io/file-map.ts';
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

/** Mappings of `path` in this process. */
const mappingsOf = (path: string) =>
  readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .filter((l) => l.endsWith(` ${path}`)).length;

// Read through a shared mapping of the -shm where the addon is built (Linux: file-map.test.ts
// checks it is), by pread otherwise: both ways here.
for (const mapped of FILE_MAP.built ? [true, false] : [false])
  test(`the wal-index header moves with every commit, from any connection, and only then (${mapped ? 'mapped' : 'pread'})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'contacts-wal-'));
    const enabled = FILE_MAP.enabled;
    FILE_MAP.enabled = mapped;
    try {
      const file = join(dir, 'x.db');
      const writer = new Database(file);
      writer.pragma('journal_mode = WAL');
      writer.exec('CREATE TABLE t (v INTEGER)');
      assert.equal(watchWal(join(dir, 'missing.db')), undefined, 'no -shm: the caller falls back');
      const a = watchWal(file)!;
      const b = watchWal(file)!;
      assert.equal(
        mappingsOf(`${file}-shm`),
        mapped ? 2 : 1,
        'SQLite maps it once; a mapped watch once more, for both watches',
      );
      const frames = a.framesBehind();
      writer.prepare('INSERT INTO t VALUES (0)').run();
      assert.equal(a.framesBehind(), frames + 1, 'a commit is a frame more in the WAL');
      writer.pragma('wal_checkpoint(PASSIVE)');
      assert.equal(a.framesBehind(), 0, 'a checkpoint copied them all');
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
      FILE_MAP.enabled = enabled;
      rmSync(dir, { recursive: true, force: true });
    }
  });
