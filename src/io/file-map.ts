/**
 * Files mapped into memory, through native/file-map (a Node-API addon over POSIX mmap, built by
 * `npm install`): an index image's large arrays are views of its file (search/index/image-file.ts
 * mapImage), so their pages live in the kernel's page cache — loaded when first read, shared by every
 * process that maps the file, given back under memory pressure — not copied into each process.
 * The mapping is private: a write to a mapped array lands in a page of the process's own, never in
 * the file. Where the addon was not built (no compiler at install time, not POSIX) `FILE_MAP.enabled`
 * is false and images are read into memory instead (docs/DESIGN.md "Index snapshot").
 */
import { createRequire } from 'node:module';

interface Addon {
  map(fd: number, offset: number, length: number, shared?: boolean): ArrayBuffer;
  resident(buffer: ArrayBuffer, offset: number, length: number): number;
  trimMalloc(): boolean;
  pageSize: number;
}

function load(): Addon | undefined {
  try {
    return createRequire(import.meta.url)(
      '../../native/file-map/build/Release/file_map.node',
    ) as Addon;
  } catch {
    return undefined;
  }
}

const addon = load();

/** `enabled`: images are mapped (tests turn it off to read them into memory as a missing addon would). */
export const FILE_MAP = { built: addon !== undefined, enabled: addon !== undefined };

/** The buffers mapBytes made (a mapping each). */
const copyOnWrite = new WeakSet<ArrayBufferLike>();

/** Bytes [at, at + length) of the open file `fd`, mapped (copy-on-write); length > 0, FILE_MAP.built. */
export function mapBytes(fd: number, at: number, length: number): Uint8Array<ArrayBuffer> {
  const start = at - (at % addon!.pageSize);
  const buffer = addon!.map(fd, start, at - start + length);
  copyOnWrite.add(buffer);
  return new Uint8Array(buffer, at - start, length);
}

/** Whether `a` lies in a mapBytes mapping: a write to it copies its page first (a fault a page). */
export const isMapped = (a: ArrayBufferView): boolean => copyOnWrite.has(a.buffer);

/**
 * Bytes [0, length) of the open file `fd` as the file holds them now and as other processes write
 * them (a shared mapping: SQLite's wal-index, store/sqlite/wal-header.ts). Read-only: a write to the
 * view is a crash (SIGSEGV), so it stays inside the module that asked for it. The file must not be
 * cut below `length` while mapped (reading a page past its end is SIGBUS). FILE_MAP.built.
 */
export function mapShared(fd: number, length: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(addon!.map(fd, 0, length, true));
}

/**
 * Bytes of `view` (a mapping's) in memory now, counted a page at a time (mincore): for benchmarks
 * that measure what a process holds of a file (bench/image-residency.bench.ts). FILE_MAP.built.
 */
export function residentBytes(view: Uint8Array<ArrayBuffer>): number {
  return addon!.resident(view.buffer, view.byteOffset, view.byteLength);
}

/**
 * Gives the free pages inside the C heap back to the kernel (glibc's malloc_trim; native/file-map):
 * true if some were. False without the addon or off glibc: nothing is given back then.
 */
export const trimMalloc = (): boolean =>
  typeof addon?.trimMalloc === 'function' && addon.trimMalloc(); // an addon built before it has none
