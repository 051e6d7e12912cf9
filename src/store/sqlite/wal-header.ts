/**
 * "Has anyone committed to this SQLite database since I last looked?", asked before every answer
 * (ChangeFeed.moved). It reads the wal-index header at the start of the database's `-shm` file
 * (sqlite.org/walformat.html, "The WAL-Index Header": its iChange counter moves with every
 * transaction, mxFrame with every commit) with one pread and no lock. `PRAGMA data_version` answers
 * the same but runs a read transaction, whose fcntl locks made it ~4 µs of every cache hit's ~55 under
 * load (perf: `Statement::JS_get` 6.9% of the server's CPU). A torn read while a writer updates the
 * header only says "moved" once too often; a commit the caller could know of (its writer answered
 * before this request was sent) has written its header before.
 *
 * One descriptor per file per process, closed only after the last store on that file closed: closing
 * any descriptor of a file drops every POSIX lock the process holds on it, SQLite's own included.
 */
import { closeSync, openSync, readSync, realpathSync } from 'node:fs';

const HEADER = 48;
const open = new Map<string, { fd: number; users: number }>();

export interface WalWatch {
  /** true when the header changed since the last call (or this is the first). */
  moved(): boolean;
  /**
   * Frames in the WAL not yet copied into the database file: the header's mxFrame less the
   * checkpoint info's nBackfill (byte 96), both native-endian u32 (checkpoint.ts reads it).
   */
  framesBehind(): number;
  close(): void;
}

/** Watches `file`'s wal-index; undefined when its `-shm` cannot be read (then use PRAGMA data_version). */
export function watchWal(file: string): WalWatch | undefined {
  let shm: string;
  let entry: { fd: number; users: number } | undefined;
  try {
    shm = `${realpathSync(file)}-shm`;
    entry = open.get(shm) ?? { fd: openSync(shm, 'r'), users: 0 };
  } catch {
    return undefined;
  }
  entry.users++;
  open.set(shm, entry);
  const { fd } = entry;
  const now = Buffer.alloc(HEADER);
  const seen = Buffer.alloc(HEADER);
  const info = Buffer.alloc(100);
  let closed = false;
  return {
    moved() {
      if (readSync(fd, now, 0, HEADER, 0) === HEADER && now.equals(seen)) return false;
      now.copy(seen);
      return true;
    },
    framesBehind() {
      if (readSync(fd, info, 0, 100, 0) !== 100) return 0;
      const mxFrame = info.readUInt32LE(16),
        nBackfill = info.readUInt32LE(96);
      return mxFrame >= nBackfill ? mxFrame - nBackfill : mxFrame;
    },
    close() {
      if (closed) return;
      closed = true;
      if (--entry!.users > 0) return;
      open.delete(shm);
      closeSync(fd);
    },
  };
}
