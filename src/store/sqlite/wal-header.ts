/**
 * "Has anyone committed to this SQLite database since I last looked?", asked before every answer
 * (ChangeFeed.moved). It reads the wal-index header at the start of the database's `-shm` file
 * (sqlite.org/walformat.html, "The WAL-Index Header": its iChange counter moves with every
 * transaction, mxFrame with every commit) with no lock. `PRAGMA data_version` answers the same but
 * runs a read transaction, whose fcntl locks made it ~4 µs of every cache hit's ~55 under load (perf:
 * `Statement::JS_get` 6.9% of the server's CPU). A torn read while a writer updates the header only
 * says "moved" once too often; a commit the caller could know of (its writer answered before this
 * request was sent) has written its header before.
 *
 * The header is read from a shared mapping of the file's first page (io/file-map.ts mapShared), as
 * SQLite's own connections read it: a pread was a system call per answer (7% of a type-ahead's time
 * at 10k contacts). Without the addon, one pread. A mapped page past the file's end would be SIGBUS:
 * SQLite never cuts the -shm while a connection of this process has it open (it resets it, to 3
 * bytes, only when no process holds it), and a watch lives inside its store's connection.
 *
 * One descriptor per file per process, closed only after the last store on that file closed: closing
 * any descriptor of a file drops every POSIX lock the process holds on it, SQLite's own included.
 */
import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import { FILE_MAP, mapShared } from '../../io/file-map.ts';

const HEADER = 48;
/** The words read: the header (48 bytes) and the checkpoint info up to nBackfill (byte 96). */
const WORDS = 25;
/** One descriptor per -shm file, and its first page mapped (undefined: read by pread). */
interface Shm {
  fd: number;
  users: number;
  words?: Uint32Array;
}
const open = new Map<string, Shm>();

/** The first page of the -shm file, mapped; undefined without the addon (or if mapping fails). */
function mapHeader(fd: number): Uint32Array | undefined {
  if (!FILE_MAP.enabled) return undefined;
  try {
    return new Uint32Array(mapShared(fd, 4096).buffer, 0, WORDS);
  } catch {
    return undefined;
  }
}

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
  let entry: Shm | undefined;
  try {
    shm = `${realpathSync(file)}-shm`;
    if (!(entry = open.get(shm))) {
      const fd = openSync(shm, 'r');
      entry = { fd, users: 0, words: mapHeader(fd) };
    }
  } catch {
    return undefined;
  }
  entry.users++;
  open.set(shm, entry);
  const { fd, words } = entry;
  // The header's words as last read: the mapping itself, or a copy pread into (100 bytes: the
  // header's first copy, then the checkpoint info up to nBackfill). Native-endian, as SQLite writes.
  const header = words ?? new Uint32Array(WORDS);
  const read = words ? () => true : () => readSync(fd, header, 0, WORDS * 4, 0) === WORDS * 4;
  const seen = new Uint32Array(HEADER / 4);
  let first = true,
    closed = false;
  return {
    moved() {
      if (!read()) return true; // unreadable: say moved (a look too many is harmless)
      let same = !first;
      first = false;
      for (let i = 0; i < seen.length; i++)
        if (header[i] !== seen[i]) {
          seen[i] = header[i];
          same = false;
        }
      return !same;
    },
    framesBehind() {
      if (!read()) return 0;
      const mxFrame = header[4], // byte 16
        nBackfill = header[24]; // byte 96
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
