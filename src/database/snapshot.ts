/**
 * The index snapshot beside a store: the image of the last build from the store (search/index/
 * image-file.ts), so a restart loads it instead of building (tens of seconds at 1M contacts), then
 * replays the change feed after the snapshot's sequence number. Written atomically (a temporary
 * file, fsync, rename, fsync of the folder) by the build's worker thread; never trusted blindly: the
 * header must name this store, this code (indexCodeVersion) and a feed position the store still
 * covers, the CRC must match, and after the catch-up the index must hold as many contacts as the
 * store — anything else is one warning and a build from the store.
 *
 * Where: SQLite, `<file>.index` beside the database file. Other stores (PostgreSQL) have no file of
 * their own here and take no snapshot yet.
 */
import {
  closeSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { imageBytes, imageMeta } from '../search/index/image-file.ts';
import type { IndexImage } from '../search/index/image.ts';
import { indexCodeVersion } from '../search/index/version.ts';
import type { ContactStore } from '../store/store.ts';

/** Bumped when the meta's meaning changes. */
const SNAPSHOT_VERSION = 1;

export interface SnapshotMeta {
  snapshot: number;
  /** indexCodeVersion() of the code that built it. */
  code: string;
  /** The store it was built from (SQLite: the database file's absolute path). */
  store: string;
  /** The store's change-feed sequence number the contents are at. */
  seq: number;
  contacts: number;
  writtenAt: string;
}

/** Where `store`'s snapshot lives, and the identity its header must carry; undefined: no snapshots. */
export function snapshotOf(store: ContactStore): { file: string; store: string } | undefined {
  if (store.backend !== 'sqlite' || !store.file) return undefined;
  const db = resolve(store.file);
  return { file: `${db}.index`, store: db };
}

/** The meta to write for a build at `seq` holding `contacts`; undefined when the code version is unknown. */
export function metaFor(storeId: string, seq: number, contacts: number): SnapshotMeta | undefined {
  const code = indexCodeVersion();
  if (!code) return undefined;
  const writtenAt = new Date().toISOString();
  return { snapshot: SNAPSHOT_VERSION, code, store: storeId, seq, contacts, writtenAt };
}

/**
 * Writes `image` to `file` atomically (synchronously: it runs on the build's worker thread).
 * `keepOpen`: returns the file open for reading (the main thread maps it: worker-build.ts), so what
 * is read back is this file even if another is renamed over its path meanwhile.
 */
export function writeSnapshot(
  file: string,
  image: IndexImage,
  meta: object,
  keepOpen = false,
): number | undefined {
  const tmp = `${file}.tmp-${process.pid}-${threadId}`;
  // Read-only: a server maps the file (io/file-map.ts), and a copy over it in place would change
  // what it reads; a new snapshot only ever replaces it by a rename.
  const fd = openSync(tmp, keepOpen ? 'w+' : 'w', 0o444);
  try {
    let pos = 0;
    for (const chunk of imageBytes(image, meta)) {
      if (typeof chunk === 'number')
        pos += chunk; // an array's room: a hole
      else
        for (let at = 0; at < chunk.length;) {
          const n = writeSync(fd, chunk, at, chunk.length - at, pos);
          at += n;
          pos += n;
        }
    }
    ftruncateSync(fd, pos); // the last array's room too
    fsyncSync(fd);
    renameSync(tmp, file);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      /* renamed already */
    }
    throw err;
  }
  try {
    const dir = openSync(dirname(file), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  if (keepOpen) return fd;
  closeSync(fd);
  return undefined;
}

/**
 * The snapshot's meta when it may be loaded for `storeId` whose feed is at `head`; otherwise why
 * not (a string for the one warning), or undefined when there is no snapshot at all. Reads only the
 * header: the payload's CRC is checked when it is loaded (on the worker thread).
 */
export async function usableSnapshot(
  file: string,
  storeId: string,
  head: number,
): Promise<SnapshotMeta | string | undefined> {
  let header: Buffer;
  try {
    const fh = await open(file, 'r');
    try {
      const pre = Buffer.alloc(16);
      await fh.read(pre, 0, 16, 0);
      const len = pre.readUInt32LE(8);
      header = Buffer.alloc(16 + Math.min(len, 64 << 20));
      await fh.read(header, 0, header.length, 0);
    } finally {
      await fh.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `unreadable (${err instanceof Error ? err.message : String(err)})`;
  }
  let m: Partial<SnapshotMeta>;
  try {
    m = imageMeta<Partial<SnapshotMeta>>(header) ?? {};
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  if (m.snapshot !== SNAPSHOT_VERSION) return `snapshot version ${m.snapshot}`;
  if (!m.code || m.code !== indexCodeVersion()) return 'built by other code (tokenising or layout)';
  if (m.store !== storeId) return `built from another store (${m.store})`;
  if (typeof m.seq !== 'number' || m.seq > head)
    return `ahead of the store's change feed (${m.seq} > ${head})`;
  return m as SnapshotMeta;
}
