/**
 * Builds a database's index on a worker thread (build-worker.ts) and hands back its image: the event
 * loop stays free for searches, /healthz and faults while a big database loads or rebuilds. A SQLite
 * store is read by the worker itself (a read-only connection of its own: nothing crosses threads but
 * the finished image); any other store (PostgreSQL) is read here, page by page, and its batches sent
 * over — the reads are asynchronous, and a worker-side PostgreSQL pool would be a second set of
 * connections and settings to keep right for the one saving of the JSON decoding.
 */
import { closeSync, openSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { Contact } from '../fields/contact.ts';
import { FILE_MAP } from '../io/file-map.ts';
import { TUNING } from '../search/heads.ts';
import { mapImage, type ArrayPlace } from '../search/index/image-file.ts';
import type { IndexImage } from '../search/index/image.ts';
import type { SearchIndex } from '../search/search-index.ts';
import { TABLE_TUNING } from '../search/table/dictionary.ts';
import type { ContactStore } from '../store/store.ts';
import { nextTurn } from '../next-turn.ts';
import { besideMe, workerEntry } from '../worker-url.ts';
import { BACKGROUND_NICE } from '../nicer.mjs';
import type { MemoryRoom } from './memory-room.ts';

/** Where the worker's code is, and from what size a build goes to a worker (tests change both). */
export const BUILD_WORKER = {
  url: besideMe('./build-worker', import.meta.url),
  /** A smaller store is built on the main thread, in slices: a worker's start (~0.5 s) costs more. */
  minContacts: 20_000,
  /** Set by tests: the worker throws this instead of answering. */
  fail: undefined as string | undefined,
  /** Set by tests: the memory room a compaction is weighed against (rebuilds.ts), instead of the kernel's. */
  room: undefined as (() => MemoryRoom | undefined) | undefined,
  /** How often a compaction put off for want of memory looks at the room again. */
  compactionRecheckMs: 60_000,
  /**
   * A loaded image's arrays of this many bytes or more are mapped (io/file-map.ts); smaller ones, a
   * page or a few, are read (tests lower it to map every array).
   */
  mapFrom: 64 << 10,
  /**
   * How much nicer than the thread that starts it a full build's thread runs (Linux: per thread):
   * a full build takes a core for a minute or more at 1M, and the thread that answers must not wait
   * behind it for a CPU (bench:live's slow answers during builds were waits for a CPU, per the
   * watchdog). The background threads' value (nicer.mjs), as SQLite's write thread and the
   * large-text worker run.
   */
  nice: BACKGROUND_NICE,
  /**
   * The same for a segment's thread. A segment is a few seconds of work that someone waits for (an
   * import's contacts searchable within 5 s of its commit, issue 25): at nice 10 its decoding and
   * tokenising took 19–24 s instead of 2.2 s when other processes loaded the machine
   * (docs/perf-log/2026-11-26-live2.md). At the answering thread's own priority it shares the
   * cores evenly with it; the kernel still runs a thread that wakes for a request ahead of one that
   * has been computing (docs/perf-log/2026-11-26-live3.md).
   */
  segmentNice: 0,
  /**
   * A change of this many ids or more is built on two workers at once, a half each (two segments put
   * in together): decoding and tokenising is ~70-95 µs a contact on one core, seconds for 100,000.
   */
  splitAt: 40_000,
  /**
   * ...and only on a machine of this many cores or more: two build threads on two cores leave none
   * for the thread that answers (bench:live at 1M on 2 cores: commit → found 10.1 s split against
   * 6.6 s whole, type-ahead p99 66–279 ms against 34–210 ms; docs/perf-log/2026-11-26-live2.md;
   * again at full priority: 16.1 s against 7.4–10.0 s, p99 171 ms, docs/perf-log/2026-11-26-commit.md).
   */
  splitCores: 3,
  /**
   * Keep one segment worker started ahead, idle, for the next big change (spareSegmentWorker): a
   * worker's start (thread, modules) is ~0.2 s of a segment's 5 s budget on an idle 2-core machine
   * compiled (dist/, as `npm start` runs), 0.5–0.7 s under tsx, and up to 2 s under load.
   */
  spare: true,
  /**
   * ...for this long from its start: then it is let go. Idle it holds ~19 MB of the process's RSS
   * (39 under tsx) to save a start of ~0.2 s, worth it while writes come in a burst (an import's
   * parts, one import after another), not in a node that has settled (issue 25's memory:
   * docs/perf-log/2026-12-07-compiled.md). The next segment starts its own, and a spare after it.
   */
  spareIdleMs: 60_000,
  /**
   * The spare started at open waits for a quiet moment (`spareWhenIdle`): a check every `idleCheckMs`,
   * started once the event loop was busy less than `idleBelow` of the last check's time, or at the
   * latest `idleWaitMs` after the open. Its start is ~0.35 s of a core (tsx and the modules, on its
   * own thread): started as the open returned, it overlapped the first requests, which do the first
   * touches of a fresh index (whole-table filter sets, facet codes, JIT), and on 2 shared cores
   * stretched them: bench:faceted's first request took 160-400 ms in 7 runs of 8 against 40-105
   * without it (docs/perf-log/2026-11-26-facet.md).
   */
  idleCheckMs: 250,
  idleBelow: 0.5,
  idleWaitMs: 10_000,
};

export interface BuildRequest {
  sqliteFile?: string;
  /** A segment (index/segment.ts): build from just these ContactIds (JSON: one string to copy, not 100,000). */
  ids?: string;
  /** A segment's build (segmentInWorker): its columns are not ranked ahead (buildBase's `ranks`). */
  segment?: true;
  /** A segment: per schema field, whether the index it goes into holds the column buffered (IndexLoader's `unique`). */
  unique?: boolean[];
  /**
   * Load this snapshot file (checked) instead of building: opened by the main thread, which maps
   * its large arrays from the same open file (loadInWorker).
   */
  loadFd?: number;
  /**
   * A load, or a build that writes its image to a file, leaves out of its reply (`places`) the
   * arrays of this many bytes or more: the main thread maps them. Unset: every array is sent.
   */
  mapFrom?: number;
  /** After the build, write its image to this file with this meta and the contacts count (writer-segment.ts). */
  segmentFile?: { file: string; meta: object };
  /** After the build, write the snapshot here (snapshot.ts); `seq`: the feed position of a fed build. */
  snapshot?: { file: string; store: string; seq?: number };
  tuning: typeof TUNING;
  table: typeof TABLE_TUNING;
  fail?: string;
  /** How much nicer than the starting thread the worker's thread runs (0: the same). */
  nice: number;
}

/** Where a build's time went on the worker (the read and the tokenising interleave, batch by batch). */
export interface Steps {
  /** Date.now() when the worker's code had loaded (its start: thread, tsx, modules). */
  startedAt: number;
  /** Reading the stored documents, less their decoding and tokenising. */
  readMs: number;
  /** Decoding the documents' JSON and tokenising their fields into the loader. */
  tokeniseMs: number;
  /** The index built from the loader, and its image. */
  buildMs: number;
}

export interface Done {
  image: IndexImage;
  /** Set by a build (not a snapshot's load). */
  steps?: Steps;
  /** The feed position the index is at, when known (SQLite, or a snapshot's). */
  seq: number | undefined;
  /** Why the snapshot after the build was not written. */
  snapshotError?: string;
  /** A loaded file's meta (loadInWorker). */
  meta?: unknown;
  /**
   * The arrays left out of `image` (holes) for this thread to map from the open file `fd` (a loaded
   * snapshot, or the one the build just wrote): where they lie in it. Mapped before Done resolves.
   */
  places?: (ArrayPlace | undefined)[];
  fd?: number;
}

/** `writing`: the build is done and the snapshot being written; it is no longer stopped (a cut file). */
export type BuildReply = Done | { error: string } | { writing: true };

/**
 * The built index of everything `store` holds now, written as a snapshot too when `snapshot` says
 * where (and, for a store the worker does not read itself, `seq` is the feed position read before).
 */
export function buildInWorker(
  store: ContactStore,
  snapshot?: BuildRequest['snapshot'],
  signal?: AbortSignal,
): Promise<Done> {
  const sqliteFile = store.backend === 'sqlite' ? store.file : undefined;
  return inWorker({ sqliteFile, snapshot }, sqliteFile ? undefined : store.loadAll(), signal);
}

/**
 * The index of just the stored contacts with these ids (a segment: index/segment.ts); ids not
 * stored are left out. A SQLite file is read by the worker, in one read transaction; another store
 * is read here, a few hundred contacts a query, and each batch posted (a post of 10,000 contacts is
 * a structured clone of tens of milliseconds on this thread).
 */
export function segmentInWorker(
  store: ContactStore,
  ids: readonly string[],
  unique?: boolean[],
): Promise<Done> {
  const sqliteFile = store.backend === 'sqlite' ? store.file : undefined;
  const nice = BUILD_WORKER.segmentNice;
  return sqliteFile
    ? onSpare({ sqliteFile, ids: JSON.stringify(ids), nice, unique, segment: true })
    : onSpare({ nice, unique, segment: true }, byIds(store, ids));
}

/**
 * `r` on the spare segment worker (a new one if none is started), and the next spare started at
 * the first quiet moment after it: its start would take CPU from this work now, and from the
 * staging and the answers right after it.
 */
function onSpare(
  r: Parameters<typeof inWorker>[0],
  feed?: AsyncIterable<readonly Contact[]>,
  signal?: AbortSignal,
): Promise<Done> {
  return inWorker(r, feed, signal, takeSpare()).finally(spareWhenIdle);
}

/** The column layout of `index` (IndexLoader's `unique`): which columns it holds buffered. */
export const bufferedColumns = (index: SearchIndex): boolean[] =>
  index.table.columns.map((c) => !c.dict.deduplicated);

/** The segment worker started ahead: idle, its thread not keeping the process alive (unref). */
let spare: Worker | undefined;
/** The check that starts the spare once the event loop is quiet (`spareWhenIdle`), while it waits. */
let waiting: NodeJS.Timeout | undefined;
/** When the spare is let go unless a segment takes it first (BUILD_WORKER.spareIdleMs). */
let spareUntil: NodeJS.Timeout | undefined;

/**
 * Starts the spare segment worker (`spareSegmentWorker`) at the first quiet moment of the event
 * loop, at the latest BUILD_WORKER.idleWaitMs from now: a database calls this once opened. A segment
 * needed before then starts its own worker, as it would without a spare.
 */
export function spareWhenIdle(): void {
  if (!BUILD_WORKER.spare || spare || waiting) return;
  const since = performance.now();
  let last = performance.eventLoopUtilization();
  waiting = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy < BUILD_WORKER.idleBelow || performance.now() - since >= BUILD_WORKER.idleWaitMs) {
      stopWaiting();
      spareSegmentWorker();
    }
  }, BUILD_WORKER.idleCheckMs);
  waiting.unref();
}

function stopWaiting(): void {
  clearInterval(waiting);
  waiting = undefined;
}

/** Whether a spare is started (tests). */
export const spareStarted = (): boolean => spare !== undefined;
/** The spare's thread, if one is started (tests: to see it exit). */
export const spareThread = (): Worker | undefined => spare;

/**
 * Starts the spare segment worker if there is none (BUILD_WORKER.spare): a database big enough for
 * its segments to be built on workers calls this once loaded, and each segment once done.
 */
export function spareSegmentWorker(): void {
  if (!BUILD_WORKER.spare || spare) return;
  const w = new Worker(workerEntry(BUILD_WORKER.url), {
    ...WORKER_OPTIONS,
    workerData: { spare: true },
  });
  const gone = () => {
    if (spare === w) spare = undefined;
  };
  w.on('error', gone); // a spare that could not start: the next segment starts its own
  w.on('exit', gone);
  w.unref();
  spare = w;
  spareUntil = setTimeout(() => spare === w && dropSpareSegmentWorker(), BUILD_WORKER.spareIdleMs);
  spareUntil.unref();
}

/** Stops the spare, if any, or its wait: unused for BUILD_WORKER.spareIdleMs, or (tests) started from code they have since changed. */
export function dropSpareSegmentWorker(): void {
  void takeSpare()?.terminate();
}

function takeSpare(): Worker | undefined {
  stopWaiting();
  clearTimeout(spareUntil);
  const w = spare;
  spare = undefined;
  return w;
}

/**
 * A segment built from contacts as they come (a writer's, writer-segment.ts), its image written to
 * `out.file` with `out.meta` (and the contacts count) before it resolves when `out` is given.
 * `spare`: on the spare segment worker, if one is started (a server's own import). `mapped`: the
 * image comes back mapped from `out.file` (a server's, which searches it); a writer that only
 * leaves the file for others (the import CLI) gets the built image without reading the file back.
 */
export function segmentFromBatches(
  batches: AsyncIterable<readonly Contact[]>,
  unique: boolean[],
  out: { file: string; meta: object } | undefined,
  signal?: AbortSignal,
  spare = false,
  nice?: number,
  mapped = true,
): Promise<Done> {
  const r = {
    unique,
    segment: true as const,
    ...(out ? { segmentFile: out } : {}),
    ...(nice !== undefined ? { nice } : {}),
    ...(mapped ? {} : { mapFrom: undefined }),
  };
  return spare ? onSpare(r, batches, signal) : inWorker(r, batches, signal);
}

/**
 * A snapshot file's index, read and checked (CRC, layout) on the worker thread; its large arrays
 * then mapped here (io/file-map.ts) when the addon is built: pages of the file, not copies. `spare`:
 * on the spare segment worker, if one is started (a writer's segment, loaded where a segment would
 * be built).
 */
export async function loadInWorker(file: string, spare = false): Promise<Done> {
  // Opened here and passed on: the worker checks the very file this thread maps, even if the path
  // is replaced (a new snapshot renamed over it) in between.
  const fd = openSync(file, 'r');
  try {
    const r = { loadFd: fd };
    return await (spare ? onSpare({ ...r, nice: BUILD_WORKER.segmentNice }) : inWorker(r));
  } finally {
    closeSync(fd);
  }
}

/**
 * A reply's image with the arrays the worker left out mapped from its file (io/file-map.ts), that
 * file closed unless it is the caller's (`loadFd`).
 */
function mapped(d: Done, loadFd: number | undefined): Done {
  if (!d.places) return d;
  try {
    return { ...d, image: mapImage(d.fd!, d.image, d.places), places: undefined, fd: undefined };
  } finally {
    if (d.fd !== loadFd) closeSync(d.fd!);
  }
}

/**
 * A build worker's file descriptors are its own to close (its code closes each on every path): the
 * one it hands over — the image file it wrote, for this thread to map — must outlive it, and Node
 * would otherwise close it when the worker exits (trackUnmanagedFds), after this thread closed it
 * and the number went to another file (seen: SQLite's WAL header read failing with EBADF).
 */
const WORKER_OPTIONS = { trackUnmanagedFds: false };

/** Contacts a post, for a store whose batches this thread sends (see segmentInWorker). */
const POST_BATCH = 500;

async function* byIds(store: ContactStore, ids: readonly string[]): AsyncIterable<Contact[]> {
  for (let i = 0; i < ids.length; i += POST_BATCH)
    yield await store.get(ids.slice(i, i + POST_BATCH));
}

function inWorker(
  r: Omit<BuildRequest, 'tuning' | 'table' | 'fail' | 'nice'> & { nice?: number },
  feed?: AsyncIterable<readonly Contact[]>,
  signal?: AbortSignal,
  spareWorker?: Worker,
): Promise<Done> {
  const request: BuildRequest = {
    nice: BUILD_WORKER.nice,
    ...(FILE_MAP.enabled ? { mapFrom: BUILD_WORKER.mapFrom } : {}),
    ...r,
    tuning: { ...TUNING },
    table: { ...TABLE_TUNING },
    fail: BUILD_WORKER.fail,
  };
  let worker: Worker;
  if (spareWorker) {
    // Its port holds the request (and any batches after it) until its code listens.
    worker = spareWorker;
    worker.ref();
    worker.postMessage(request);
  } else
    worker = new Worker(workerEntry(BUILD_WORKER.url), { ...WORKER_OPTIONS, workerData: request });
  const stop = () => void worker.terminate();
  signal?.addEventListener('abort', stop);
  return new Promise<Done>((resolve, reject) => {
    worker.on('message', (m: BuildReply) => {
      if ('writing' in m) signal?.removeEventListener('abort', stop);
      else if ('error' in m) reject(new Error(`index worker: ${m.error}`));
      else {
        try {
          resolve(mapped(m, request.loadFd));
        } catch (err) {
          reject(err);
        }
      }
    });
    worker.on('error', (err) => reject(err));
    worker.on('exit', (code) => reject(new Error(`index worker exited (${code})`)));
    if (feed) send(feed, worker, signal).catch(reject);
  }).finally(() => {
    signal?.removeEventListener('abort', stop);
    stop();
  });
}

/**
 * Posts the batches in slices of POST_BATCH contacts: each post is a structured clone on this thread
 * (a PostgreSQL page is 10,000 contacts, tens of milliseconds to clone at once).
 */
async function send(
  batches: AsyncIterable<readonly Contact[]>,
  worker: Worker,
  signal?: AbortSignal,
): Promise<void> {
  for await (const batch of batches) {
    for (let i = 0; i < batch.length; i += POST_BATCH) {
      if (signal?.aborted) return;
      worker.postMessage({ batch: batch.slice(i, i + POST_BATCH) });
      if (i + POST_BATCH < batch.length) await nextTurn();
    }
  }
  worker.postMessage({ end: true });
}
