/**
 * A compaction put off while memory is short (src/database/rebuilds.ts, memory-room.ts): a node
 * under a memory limit too small for the build behind an import must not be killed mid-build and
 * restarted into the same build. Workers used from any size (BUILD_WORKER.minContacts = 0), the
 * room given by BUILD_WORKER.room. Checked:
 * 1. memoryRoom reads cgroup v1 (a host's path, a container's root), v2 (the tightest memory.max up
 *    the tree, page cache not charged), no limit (the machine's MemAvailable), and takes the tighter.
 * 2. Short of room, a big write's segment goes in and the full build behind it does not run: one
 *    warning naming the need, `compactionDeferred` in the stats; a second big write: still none, no
 *    second warning; answers as a fresh build of the store throughout. With room again, the recheck
 *    runs the build: segments taken in, the stats clear.
 * 3. A restart while short (its snapshot older than the imports): it opens, catches up as a
 *    segment, puts the compaction off, and holds what the store holds: no build it could die in.
 * 4. A Replace is built whatever the room (what the index holds must change), and so is a first
 *    build; each says first that it may not fit.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { IndexedContactDatabase } from '../src/database/contact-database.ts';
import { memoryRoom, type MemoryRoom } from '../src/database/memory-room.ts';
import { BUILD_WORKER } from '../src/database/worker-build.ts';
import { generateContacts } from '../src/demo/generate.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { applyChange } from '../src/store/store.ts';
import { roomTests } from './support/build-room.ts';
import { answersAsFresh, bigChange, sameAsStore, until } from './support/segment-checks.ts';

const dir = roomTests('contacts-room-');

const MB = 1 << 20;
const SHORT: MemoryRoom = { bytes: 1 * MB, bound: 'cgroup', limit: 512 * MB };
const PLENTY: MemoryRoom = { bytes: 64 * 1024 * MB, bound: 'machine', limit: 64 * 1024 * MB };

const { base: BASE, upsert } = bigChange(41, 'Roomy');
const BIG = { upsert, delete: BASE.slice(150, 250).map((c) => c.ContactId) };
const MORE = [...generateContacts({ count: 1300, seed: 42, startAt: 9001 })].flat();
const QUERIES = ['a', 'ma', 'jo', 'roomy', 'roomy1 a', 'smiht', '555', 'gmail'];

/** A fake kernel: the files given, nothing else. */
const files =
  (f: Record<string, string>) =>
  (p: string): string | undefined =>
    f[p];
const MEMINFO = 'MemTotal:       25000000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\n';

test('1. memoryRoom: cgroup v1 and v2 limits less their anonymous memory, else the machine, the tighter of both', () => {
  const v1stat = (limit: number) =>
    `cache 999\nrss 1\nhierarchical_memory_limit ${limit}\ntotal_cache 7000000\ntotal_rss 300000000\ntotal_shmem 20000000\n`;
  // A host: the group's own path under the v1 mount.
  assert.deepEqual(
    memoryRoom(
      files({
        '/proc/meminfo': MEMINFO,
        '/proc/self/cgroup': '5:cpu:/\n4:memory:/system.slice/cs.service\n0::/\n',
        '/sys/fs/cgroup/memory/system.slice/cs.service/memory.stat': v1stat(1 << 30),
      }),
    ),
    { bytes: (1 << 30) - 320000000, bound: 'cgroup', limit: 1 << 30 },
  );
  // A container: the path is the host's, the mount its own group.
  assert.deepEqual(
    memoryRoom(
      files({
        '/proc/meminfo': MEMINFO,
        '/proc/self/cgroup': '4:cpuacct,memory:/docker/abc\n',
        '/sys/fs/cgroup/memory/memory.stat': v1stat(800 * MB),
      }),
    ),
    { bytes: 800 * MB - 320000000, bound: 'cgroup', limit: 800 * MB },
  );
  // v1 unlimited: the machine's available memory.
  assert.deepEqual(
    memoryRoom(
      files({
        '/proc/meminfo': MEMINFO,
        '/proc/self/cgroup': '4:memory:/\n',
        '/sys/fs/cgroup/memory/memory.stat': v1stat(9223372036854771712),
      }),
    ),
    { bytes: 20000000 * 1024, bound: 'machine', limit: 25000000 * 1024 },
  );
  // v2: the tightest memory.max from the group up; anon and shmem charged, file pages not.
  const v2 = {
    '/proc/meminfo': MEMINFO,
    '/proc/self/cgroup': '0::/kubepods/pod1/ctr\n',
    '/sys/fs/cgroup/kubepods/pod1/ctr/memory.stat':
      'anon 100000000\nfile 900000000\nshmem 5000000\n',
    '/sys/fs/cgroup/kubepods/pod1/ctr/memory.max': 'max\n',
    '/sys/fs/cgroup/kubepods/pod1/memory.max': `${2 * 2 ** 30}\n`,
    '/sys/fs/cgroup/kubepods/memory.max': `${4 * 2 ** 30}\n`,
  };
  assert.deepEqual(memoryRoom(files(v2)), {
    bytes: 2 * 2 ** 30 - 105000000,
    bound: 'cgroup',
    limit: 2 * 2 ** 30,
  });
  // A limit over what the machine has free: the machine bounds it.
  assert.equal(
    memoryRoom(files({ ...v2, '/proc/meminfo': MEMINFO.replace('20000000 kB', '1000000 kB') }))
      ?.bound,
    'machine',
  );
  // No limit anywhere in v2, and nothing known off Linux.
  assert.equal(
    memoryRoom(
      files({
        ...v2,
        '/sys/fs/cgroup/kubepods/pod1/memory.max': 'max\n',
        '/sys/fs/cgroup/kubepods/memory.max': 'max\n',
      }),
    )?.bound,
    'machine',
  );
  assert.equal(memoryRoom(files({})), undefined);
});

async function seeded(name: string) {
  const file = join(dir, `${name}.db`);
  await applyChange(openSqliteStore(file), { upsert: BASE });
  const warnings: string[] = [];
  const db = await IndexedContactDatabase.open(name, openSqliteStore(file), (m) =>
    warnings.push(m),
  );
  return { file, db, warnings };
}

const deferred = async (db: IndexedContactDatabase) => (await db.stats()).compactionDeferred;
/** No build at work and none swapped in since `buildId`. */
const noBuild = (db: IndexedContactDatabase, buildId: number) => {
  assert.equal((db as unknown as { rebuilds: { running: boolean } }).rebuilds.running, false);
  assert.equal(db.index.buildId, buildId, 'no full build');
};
const settle = () => new Promise((r) => setTimeout(r, 300));

test('2. short of room: the segment goes in, the build behind it waits (one warning) until there is room', async () => {
  const { file, db, warnings } = await seeded('two');
  const store = openSqliteStore(file);
  const buildId = db.index.buildId;
  BUILD_WORKER.room = () => SHORT;
  await db.write(BIG);
  assert.equal(db.index.segments.length, 1);
  await settle(); // rechecks every 100 ms: still short
  noBuild(db, buildId);
  assert.equal(await deferred(db), true);
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /compaction/);
  assert.match(warnings[0], /512 MB/, 'names the limit');
  await answersAsFresh(db, store, QUERIES);
  await db.write({ upsert: MORE });
  assert.equal(db.index.segments.length, 2);
  await settle();
  noBuild(db, buildId);
  assert.equal(warnings.length, 1, 'warned once while it stays put off');
  await sameAsStore(db, store);
  await answersAsFresh(db, store, QUERIES);
  BUILD_WORKER.room = () => PLENTY;
  await until(() => db.index.buildId === buildId + 1, 'the build once there is room');
  await until(() => db.index.segments.length === 0, 'the segments taken in');
  assert.equal(await deferred(db), false);
  await sameAsStore(db, store);
  await answersAsFresh(db, store, QUERIES);
  assert.equal(warnings.length, 1);
  await db.close();
  await store.close();
});

test('3. a restart while short of room opens from its older snapshot and builds nothing', async () => {
  const { file, db } = await seeded('three');
  await until(() => !db.index.segments.length, 'opened');
  BUILD_WORKER.room = () => SHORT;
  await db.write(BIG);
  await settle();
  assert.equal(await deferred(db), true);
  await db.close();
  const store = openSqliteStore(file);
  const warnings: string[] = [];
  const again = await IndexedContactDatabase.open('three', openSqliteStore(file), (m) =>
    warnings.push(m),
  );
  assert.equal(again.openedFrom, 'snapshot');
  const buildId = again.index.buildId;
  await until(() => again.index.segments.length === 1, 'the change since as a segment');
  await settle();
  noBuild(again, buildId);
  assert.equal(await deferred(again), true);
  assert.equal(warnings.filter((w) => /compaction/.test(w)).length, 1, warnings.join('\n'));
  await sameAsStore(again, store);
  await answersAsFresh(again, store, QUERIES);
  await again.close();
  await store.close();
});

test('4. a Replace and a first build are built whatever the room, each warned of first', async () => {
  const { file, db, warnings } = await seeded('four');
  assert.deepEqual(warnings, [], 'room enough for the first build');
  BUILD_WORKER.room = () => SHORT;
  const buildId = db.index.buildId;
  await db.write({ upsert: MORE, replaceAll: true });
  assert.equal(db.index.buildId, buildId + 1);
  assert.equal(db.size, MORE.length);
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /build of [\d,]+ contacts needs/, 'the build it is about');
  assert.match(warnings[0], /512 MB/, 'names the limit');
  const store = openSqliteStore(file);
  await sameAsStore(db, store);
  await db.close();
  // A first build (no snapshot: another database's file): warned, and built.
  const other = join(dir, 'four-b.db');
  await applyChange(openSqliteStore(other), { upsert: BASE });
  const firstWarnings: string[] = [];
  const fresh = await IndexedContactDatabase.open('fourb', openSqliteStore(other), (m) =>
    firstWarnings.push(m),
  );
  assert.equal(fresh.size, BASE.length);
  assert.equal(firstWarnings.length, 1, firstWarnings.join('\n'));
  assert.match(firstWarnings[0], /2,500 contacts/);
  await fresh.close();
  await store.close();
});

test('5. short of room, small writes past a full delta: one segment takes the delta along, the writes after go to the delta', async () => {
  const { file, db } = await seeded('five');
  const store = openSqliteStore(file);
  const buildId = db.index.buildId;
  BUILD_WORKER.room = () => SHORT;
  const added = [...generateContacts({ count: 3980, seed: 45, startAt: 20001 })].flat();
  // None big by itself (a big one is over 1,000): 3,980 new contacts in the delta, its compaction put off.
  for (let k = 0; k < 5; k++) await db.write({ upsert: added.slice(k * 600, (k + 1) * 600) });
  await db.write({ upsert: added.slice(3000, 3490) });
  await db.write({ upsert: added.slice(3490, 3980) });
  await settle();
  assert.equal(db.index.segments.length, 0);
  assert.equal(await deferred(db), true);
  // Forty single writes: new contacts, edits of the base's, deletes. The 21st passes the limit.
  const fresh = [...generateContacts({ count: 20, seed: 46, startAt: 30001 })].flat();
  for (let k = 0; k < 40; k++) {
    const c = BASE[k];
    await db.write(
      k < 20
        ? { upsert: [fresh[k]] }
        : k % 2 === 0
          ? { delete: [c.ContactId] }
          : { upsert: [{ ...c, JobTitle: `Edited${k}` }] },
    );
  }
  assert.equal(db.index.segments.length, 1, 'one segment took the delta along');
  noBuild(db, buildId);
  await sameAsStore(db, store);
  await answersAsFresh(db, store, [...QUERIES, 'edited21', 'edited']);
  BUILD_WORKER.room = () => PLENTY;
  await until(() => db.index.segments.length === 0, 'the build once there is room');
  await sameAsStore(db, store);
  await answersAsFresh(db, store, QUERIES);
  await db.close();
  await store.close();
});
