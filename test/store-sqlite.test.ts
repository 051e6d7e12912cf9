/** The shared store suite against a real SQLite file in a temporary folder. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { applyChange, FEED_KEEP, FEED_LIST_MAX } from '../src/store/store.ts';
import { contact, eventually, storeCases } from './cases/store.case.ts';
import { watchWal } from '../src/store/sqlite/wal-header.ts';
import { generateContacts } from '../src/demo/generate.ts';
import Database from 'better-sqlite3';
import { getPriority } from 'node:os';
import { BACKGROUND_NICE } from '../src/nicer.mjs';
import { niceByThread, niceOfNewThreads } from './support/thread-nice.ts';

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

/** The WAL file's salts (header bytes 16-23): SQLite draws new ones each time it starts the WAL again. */
function walSalts(f: string): string {
  const fd = openSync(`${f}-wal`, 'r');
  try {
    const b = Buffer.alloc(8);
    readSync(fd, b, 0, 8, 16);
    return b.toString('hex');
  } finally {
    closeSync(fd);
  }
}

test("sqlite: a checkpoint that copied every frame starts the WAL again on its worker, so the store's next write appends (the new header's fsync off the event loop)", async () => {
  const f = join(dir, 'restart.db');
  const store = openSqliteStore(f);
  const wal = watchWal(f)!;
  await applyChange(store, { upsert: [...generateContacts({ count: 8000, seed: 4 })].flat() });
  const written = walSalts(f);
  // The new salts reach the WAL file with the worker's frame, before its commit reaches the
  // wal-index (mxFrame): wait for both, or a look in between reads a restarted WAL with no frame.
  assert.ok(
    await eventually(() => walSalts(f) !== written && wal.framesBehind() >= 1),
    "the worker started the WAL again after its checkpoint, and the WAL holds the worker's frame: not to be restarted",
  );
  const restarted = walSalts(f);
  await applyChange(store, { upsert: [contact('next', 'Nia', 'Next')] });
  assert.equal(walSalts(f), restarted, "the store's next write appended to it");
  assert.equal((await store.get(['next']))[0]?.ContactId, 'next');
  assert.equal(await store.count(), 8001);
  await store.close();
  wal.close();
  const raw = new Database(f, { readonly: true });
  assert.equal(raw.pragma('user_version', { simple: true }), 3, 'the schema version as it was');
  raw.close();
});

test("sqlite: a store's first write since it opened finds the WAL started by a worker (its first frame the worker's one-page commit)", async () => {
  const f = join(dir, 'first-write.db');
  const made = openSqliteStore(f);
  await applyChange(made, { upsert: [contact('f1', 'Fay', 'First')] });
  await made.close(); // the last connection: the WAL folded into the file and removed
  const store = openSqliteStore(f);
  await applyChange(store, { upsert: [contact('f2', 'Finn', 'Second')] });
  const fd = openSync(`${f}-wal`, 'r');
  const frame = Buffer.alloc(8);
  readSync(fd, frame, 0, 8, 32); // the first frame's header: page number, then the size after a commit (0: none)
  closeSync(fd);
  assert.equal(frame.readUInt32BE(0), 1, 'page 1, the schema version written as it was');
  assert.ok(frame.readUInt32BE(4) > 0, 'a commit of its own, before the store wrote');
  assert.deepEqual((await store.get(['f1', 'f2'])).map((c) => c.ContactId).sort(), ['f1', 'f2']);
  await store.close();
});

/** A file as builds before the kept count made it: the three tables, `rows` contacts, no count table. */
function olderFile(name: string, rows: number): string {
  const f = join(dir, name);
  const db = new Database(f);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE contacts (contact_id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL) WITHOUT ROWID;
           CREATE TABLE saved_searches (name_key TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL);
           CREATE TABLE changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, writer TEXT NOT NULL, kind TEXT NOT NULL, key TEXT);
           PRAGMA user_version = 2;`);
  const put = db.prepare('INSERT INTO contacts (contact_id, doc) VALUES (?, ?)');
  for (let i = 0; i < rows; i++) put.run(`o${i}`, JSON.stringify(contact(`o${i}`, 'Old', `O${i}`)));
  db.close();
  return f;
}

test('sqlite: count reads the kept count, not the table; a file of schema version 2 is counted once, by its first count (on a worker thread)', async () => {
  const f = olderFile('older.db', 5);
  const s = openSqliteStore(f);
  assert.equal(await s.count(), 5);
  await applyChange(s, {
    upsert: [contact('n1', 'New', 'One'), contact('o3', 'Old', 'Again')],
    delete: ['o0', 'o1', 'never'],
  });
  assert.equal(await s.count(), 4);
  await s.close();
  const raw = new Database(f);
  assert.equal(raw.pragma('user_version', { simple: true }), 3, 'an older build refuses it now');
  assert.equal(raw.prepare('SELECT count(*) FROM contacts').pluck().get(), 4);
  raw.exec('UPDATE contact_count SET n = 42'); // what count answers is this row: no contact page read
  raw.close();
  const again = openSqliteStore(f);
  assert.equal(await again.count(), 42);
  await again.close();
});

test("sqlite: while another process holds the write lock the count is read, not kept; once added, the first connection's writes move it", async () => {
  const f = olderFile('older-locked.db', 3);
  const writer = new Database(f); // an older build's import, say
  writer.exec('BEGIN IMMEDIATE');
  writer.prepare('INSERT INTO contacts (contact_id, doc) VALUES (?, ?)').run('w1', '{}');
  const t0 = performance.now();
  const s = openSqliteStore(f);
  assert.ok(performance.now() - t0 < 2000, 'the open did not wait for busy_timeout');
  const other = openSqliteStore(f); // another worker process, also while the lock is held
  assert.equal(await s.count(), 3, 'counted without the lock: the uncommitted row is not counted');
  const v = new Database(f, { readonly: true });
  assert.equal(v.pragma('user_version', { simple: true }), 2, 'not added: the lock was held');
  v.close();
  writer.exec('COMMIT');
  writer.close();
  assert.equal(await other.count(), 4, 'the kept count added and counted here');
  await applyChange(s, { upsert: [contact('s1', 'Sue', 'Ess')], delete: ['o0'] });
  await applyChange(s, { upsert: [contact('s2', 'Sam', 'Ess')] });
  assert.equal(await other.count(), 5, "the first connection's writes moved it");
  assert.equal(await s.count(), 5);
  await s.close();
  await other.close();
  const check = new Database(f, { readonly: true });
  assert.equal(check.prepare('SELECT count(*) FROM contacts').pluck().get(), 5);
  check.close();
});

test("sqlite: writes are on the store's write thread: a read while its transaction is open sees only what is committed, and the commit is seen at once", async () => {
  const f = join(dir, 'write-thread.db');
  const s = openSqliteStore(f);
  await applyChange(s, { upsert: [contact('w1', 'Wes', 'One')] });
  const tx = await s.begin();
  await tx.put([contact('w2', 'Wil', 'Two'), contact('w1', 'Wesley', 'One')]);
  await tx.delete(['w1']);
  await tx.put([contact('w1', 'Wes', 'Again')]);
  // The reads are on another connection: the open transaction is not theirs.
  assert.deepEqual(
    (await s.get(['w1', 'w2'])).map((c) => [c.ContactId, c.LastName]),
    [['w1', 'One']],
  );
  assert.equal(await s.count(), 1);
  await tx.commit();
  assert.deepEqual((await s.get(['w1', 'w2'])).map((c) => [c.ContactId, c.LastName]).sort(), [
    ['w1', 'Again'],
    ['w2', 'Two'],
  ]);
  assert.equal(
    await s.count(),
    2,
    'the kept count moved by the thread: +1 new, w1 deleted and put again',
  );
  await s.close();
});

test('sqlite: the write thread runs BACKGROUND_NICE nicer than the thread that answers searches (Linux: per thread)', async () => {
  const s = openSqliteStore(join(dir, 'nice.db'));
  await s.count();
  const before = niceByThread();
  const tx = await s.begin(); // the thread starts at the store's first write
  await tx.put([contact('n1', 'Nia', 'Nice')]);
  const want = String(Math.min(19, getPriority() + BACKGROUND_NICE));
  // The threads started by the write: the write thread among them (node may start others of its own).
  assert.ok(niceOfNewThreads(before).includes(want), `a new thread at nice ${want}`);
  assert.equal(
    niceByThread().values().next().value,
    String(getPriority()),
    'the main thread keeps its own',
  );
  await tx.commit();
  await s.close();
});

test('sqlite: an idle write thread ends (no call waiting, no transaction open) and the next write starts another; a transaction open past the idle time keeps its thread', async () => {
  const f = join(dir, 'idle-ends.db');
  const s = openSqliteStore(f, { writeIdleMs: 50 });
  await s.count();
  const want = String(Math.min(19, getPriority() + BACKGROUND_NICE));
  const before = niceByThread();
  const writeThreads = () => niceOfNewThreads(before).filter((n) => n === want).length;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  // A transaction left open for four idle times: its thread stays, and its rows commit.
  const tx = await s.begin();
  await tx.put([contact('i1', 'Ivo', 'Idle')]);
  await pause(200);
  assert.equal(writeThreads(), 1, 'the open transaction kept its write thread');
  await tx.put([contact('i2', 'Ina', 'Idle')]);
  await tx.commit();
  assert.ok(await eventually(() => writeThreads() === 0), 'the write thread ended once idle');
  // The next write on a thread of its own; both writes are in the file.
  await applyChange(s, { upsert: [contact('i3', 'Ida', 'Idle')] });
  const check = new Database(f, { readonly: true });
  assert.deepEqual(
    check
      .prepare("SELECT contact_id FROM contacts WHERE contact_id LIKE 'i%' ORDER BY 1")
      .pluck()
      .all(),
    ['i1', 'i2', 'i3'],
  );
  check.close();
  assert.ok(
    await eventually(() => writeThreads() === 0),
    'the second write thread ended once idle',
  );
  await s.close();
});

test('sqlite: an idle write thread keeps no process alive (a script that writes and never closes its store ends)', async () => {
  const f = join(dir, 'idle-thread.db');
  const script = `import { openSqliteStore } from ${JSON.stringify(new URL('../src/store/sqlite/sqlite-store.ts', import.meta.url).href)};
import { applyChange } from ${JSON.stringify(new URL('../src/store/store.ts', import.meta.url).href)};
const s = openSqliteStore(${JSON.stringify(f)});
await applyChange(s, { upsert: [{ ContactId: 'idle', FirstName: 'Ida', LastName: 'Idle' }] });
console.log('written');`;
  const file = join(dir, 'idle-thread.mjs');
  writeFileSync(file, script);
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(killer);
  assert.equal(signal, null, 'the script ended by itself, not killed after waiting 60 s');
  assert.equal(code, 0);
  assert.equal(out.trim(), 'written');
  const check = new Database(f, { readonly: true });
  assert.equal(
    check.prepare("SELECT count(*) FROM contacts WHERE contact_id = 'idle'").pluck().get(),
    1,
  );
  check.close();
});

test('sqlite: the change feed keeps its newest FEED_KEEP rows, the older pruned by the write that passes them', async () => {
  const f = join(dir, 'feed-keep.db');
  const s = openSqliteStore(f);
  const writes = Math.ceil(FEED_KEEP / FEED_LIST_MAX) + 1;
  for (let w = 0; w < writes; w++)
    // Deletes of ids no contact has: a feed row each (listed one by one up to FEED_LIST_MAX), no contact row.
    await applyChange(s, {
      delete: Array.from({ length: FEED_LIST_MAX }, (_, i) => `gone-${w}-${i}`),
    });
  await s.close();
  const raw = new Database(f, { readonly: true });
  const { n, lo, hi } = raw
    .prepare('SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM changes')
    .get() as { n: number; lo: number; hi: number };
  raw.close();
  assert.equal(hi, writes * FEED_LIST_MAX, 'every row was written');
  assert.equal(n, FEED_KEEP);
  assert.equal(lo, hi - FEED_KEEP + 1);
});
