/**
 * Index builds from the store, one at a time, off the event loop (worker-build.ts) for a database of
 * BUILD_WORKER.minContacts or more. Two kinds, run one after the other (never two at once):
 * - a full build of everything the store holds, swapped in for the whole index;
 * - a segment: just the contacts of one big change (an import), built apart and put beside the base
 *   (search/index/segment.ts), so a big change is searchable in seconds, not after a full build;
 *   a full build is queued behind it to take it in. A segment goes before any full build waiting,
 *   and stops a running one (which starts again after it): a full build is minutes at 1M.
 * Searches answer from the current index meanwhile, and writes go on: every change applied to the
 * index while a build runs is also journalled, and replayed onto the index right after the swap (one
 * synchronous step: a search sees the old index with the change or the new one with it). A replayed
 * change the build already read is applied again, which leaves the same contact: changes are whole
 * records and deletes by id.
 * A worker that fails is reported and a full build done on the main thread instead, in slices, so
 * a committed import is never left out of the index.
 * A compaction (a full build only to take in what the index already holds: segments, a full delta)
 * is put off while the memory room (memory-room.ts) is short of what the build needs beside the
 * running index (COMPACTION_NEED): the kernel would kill the process, and its restart meet the same
 * build. The changes stay searchable in the segments and the delta; the room is looked at again
 * every BUILD_WORKER.compactionRecheckMs and at every compaction asked for. The builds running on
 * the node (other databases', other worker processes') count against the room (build-claims.ts).
 * A build that must change what the index holds (the first, a Replace, a reload) is never put off.
 */
import { availableParallelism } from 'node:os';
import type { Contact } from '../fields/contact.ts';
import { nextTurn } from '../next-turn.ts';
import { IndexLoader, type SearchIndex, type StagedSegment } from '../search/search-index.ts';
import type { Built } from '../search/index/build.ts';
import { builtFromImageSteps, type IndexImage } from '../search/index/image.ts';
import { stageSegment } from '../search/index/segment.ts';
import { firstLine, writerSegmentFor, type OwnSegment } from './writer-segment.ts';
import { listedIds, type ContactStore } from '../store/store.ts';
import { snapshotOf, usableSnapshot } from './snapshot.ts';
import { memoryRoom, type MemoryRoom } from './memory-room.ts';
import { claimRoom } from './build-claims.ts';
import {
  BUILD_WORKER,
  bufferedColumns,
  buildInWorker,
  loadInWorker,
  segmentInWorker,
  type Done,
  type Steps,
} from './worker-build.ts';

interface Change {
  deletes: readonly string[];
  upserts: readonly Contact[];
}

/** What a finished build reports (a snapshot is written from it: snapshot.ts). */
export interface BuildDone {
  image: IndexImage | undefined;
  seq: number | undefined;
}

interface Waiting {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * A segment queued: its ids, and what to take instead of building one from the store, if anything:
 * the nonce of its writer's segment file, or the build of the import that wrote it here.
 */
interface Segment extends Waiting {
  ids: readonly string[];
  prebuilt?: string | OwnSegment;
  /**
   * With a writer's segment (its contacts as that write left them, not as read when it runs): the
   * changes applied to the index since it was queued, journalled with it so that they win over it.
   */
  since?: Change[];
}

/**
 * A compaction's need beyond the running process, a multiple of the index's estimated bytes
 * (SearchIndex.approximateBytes): at 1M, 578 MB estimated, and bench:live's compaction after a 100k
 * import took the server's own memory from ~0.2 to 1.36–1.46 GB (docs/perf-log/2026-12-03-room.md).
 */
export const COMPACTION_NEED = 2.2;
/** An index's estimated bytes a contact, for a build with no index to scale from (1M: 578 MB). */
const INDEX_BYTES_A_CONTACT = 580;

/** A compaction put off: since when, and whether the room itself is short (else: other builds on this node hold it). */
interface Deferred {
  short: boolean;
  since: number;
}

const mb = (n: number) => `${Math.round(n / 1048576).toLocaleString('en')} MB`;

function waiting(): Waiting {
  let resolve!: () => void, reject!: (err: unknown) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

export class Rebuilds {
  /** The full build queued and not started yet: calls until it starts share it. */
  private full: (Waiting & { size: number; compaction: boolean }) | undefined;
  /** The compaction put off for want of memory, while it is. */
  deferred: Deferred | undefined;
  private recheck: NodeJS.Timeout | undefined;
  private readonly segments: Segment[] = [];
  /** A build or segment is running (the queue is being worked through). */
  private busy = false;
  /** Stops the running full build's worker (a segment is waiting). */
  private stopFull: AbortController | undefined;
  private journal: Change[] | undefined;
  private closed = false;

  constructor(
    private readonly index: SearchIndex,
    private readonly store: ContactStore,
    private readonly warn: (msg: string) => void,
    private readonly name: string,
    private readonly built: (done: BuildDone) => void = () => {},
    private readonly info: (msg: string) => void = () => {},
  ) {}

  /** A build runs: changes applied now are replayed onto its result. */
  get running(): boolean {
    return this.journal !== undefined;
  }

  /** Notes a change the caller applied to the index (replayed onto a build running now). */
  record(deletes: readonly string[], upserts: readonly Contact[]): void {
    this.journal?.push({ deletes, upserts });
    for (const s of this.segments) s.since?.push({ deletes, upserts });
  }

  /**
   * Resolves once an index built from a read of the store begun after this call is in. Calls before
   * that build starts share it.
   */
  run(size = this.index.size): Promise<void> {
    return this.queueFull(size, false);
  }

  /**
   * A full build that only takes in what the index already holds (segments, a full delta): like
   * `run`, but put off while memory is short (see above); it then resolves with nothing built.
   */
  compact(): Promise<void> {
    return this.queueFull(this.index.size, true);
  }

  /** The full build queued (shared with the one waiting); one that must run stays so. */
  private queueFull(size: number, compaction: boolean): Promise<void> {
    this.full ??= { ...waiting(), size, compaction };
    this.full.compaction &&= compaction;
    const p = this.full.promise;
    void this.work();
    return p;
  }

  /**
   * Resolves once the contacts of these ids, as the store holds them at a read begun after this call,
   * are in the index as a segment (ids the store no longer holds: deleted), and queues the full build
   * that takes the segment in. A small database (below BUILD_WORKER.minContacts, built on the main
   * thread in a moment) is rebuilt whole instead. `prebuilt`: the change is one write whose writer
   * built its segment (writer-segment.ts) — a file's nonce, or this process's own import's build —
   * taken instead when it checks out. A change big only because the delta is full
   * (SearchIndex.takesDelta) takes the delta's contacts into its segment, each id once, so the writes
   * after it go into an emptied delta instead of a segment each.
   */
  segment(ids: readonly string[], prebuilt?: string | OwnSegment): Promise<void> {
    if (this.index.size < BUILD_WORKER.minContacts) {
      if (typeof prebuilt === 'object') prebuilt.abandon();
      return this.run(this.index.size + ids.length);
    }
    if (!prebuilt && this.index.takesDelta(ids.length))
      ids = [...new Set([...ids, ...this.index.deltaIds()])];
    const w: Segment = { ...waiting(), ids, ...(prebuilt ? { prebuilt, since: [] } : {}) };
    this.segments.push(w);
    this.stopFull?.abort();
    void this.work();
    return w.promise;
  }

  /** No more builds: the running full build's worker is stopped, nothing queued starts (close). */
  close(): void {
    this.closed = true;
    this.stopFull?.abort();
    clearTimeout(this.recheck);
  }

  /** Works through the queue: segments first, then the full build. */
  private async work(): Promise<void> {
    if (this.busy || this.closed) return;
    this.busy = true;
    try {
      while (!this.closed) {
        const seg = this.segments.shift();
        if (seg) {
          await this.oneSegment(seg);
          continue;
        }
        const full = this.full;
        if (!full) return;
        this.full = undefined;
        const release = await this.claim(full);
        if (!release) {
          full.resolve(); // put off: the index holds the changes already, nothing waits on it
          continue;
        }
        try {
          if (this.closed) full.resolve();
          else if (await this.once(full.size)) full.resolve();
          else {
            // Stopped for a segment: again after it (with a build asked for meanwhile, as that one).
            const later = this.full as Waiting | undefined;
            if (later) later.promise.then(full.resolve, full.reject);
            else this.full = full;
          }
        } catch (err) {
          full.reject(err);
        } finally {
          release();
        }
      }
    } finally {
      this.busy = false;
    }
  }

  /**
   * The memory a full build needs, claimed on this node's ledger (build-claims.ts: the other
   * databases' builds and, with `workers`, the other processes' count against the room); the
   * claim's release. A compaction that does not fit is put off (undefined): noted (`deferred`),
   * warned of once when the room itself is short, looked at again in
   * BUILD_WORKER.compactionRecheckMs. A build that cannot wait is claimed whatever the room, warned
   * of first when short. A small database's build (on the main thread) claims nothing.
   */
  private async claim(full: {
    size: number;
    compaction: boolean;
  }): Promise<(() => void) | undefined> {
    const size = full.compaction ? this.index.size : full.size;
    const { need, room } = this.weigh(size);
    if (!room) {
      this.deferred = undefined;
      return () => {};
    }
    const where =
      room.bound === 'cgroup'
        ? `under the memory limit of ${mb(room.limit)}`
        : `of the machine's ${mb(room.limit)}`;
    const give = mb(room.limit - room.bytes + need);
    if (!full.compaction && need > room.bytes)
      this.warn(
        `database ${this.name}: the index build of ${size.toLocaleString('en')} contacts needs about ${mb(need)}, and only ${mb(room.bytes)} is free ${where}: the kernel may stop the server before it is done. Give the node about ${give} (docs/DEPLOYMENT.md)`,
      );
    const release = await claimRoom({ need, room: room.bytes, force: !full.compaction });
    if (release) {
      if (this.deferred)
        this.info(
          `database ${this.name}: the index compaction put off since ${new Date(this.deferred.since).toISOString()} runs now (${mb(room.bytes)} free, ${mb(need)} needed)`,
        );
      this.deferred = undefined;
      return release;
    }
    const short = need > room.bytes;
    if (short && !this.deferred?.short)
      this.warn(
        `database ${this.name}: the index compaction is put off: a build of ${size.toLocaleString('en')} contacts needs about ${mb(need)} beside the running index, and only ${mb(room.bytes)} is free ${where}. The changes since the last build stay searchable (beside the index, searches a little slower); the room is looked at again every ${BUILD_WORKER.compactionRecheckMs / 1000} s. Give the node about ${give} to let it run (docs/DEPLOYMENT.md)`,
      );
    else if (!short && !this.deferred)
      this.info(
        `database ${this.name}: the index compaction waits for another build on this node to end (${mb(need)} needed, ${mb(room.bytes)} free); looked at again every ${BUILD_WORKER.compactionRecheckMs / 1000} s`,
      );
    this.deferred = { short, since: this.deferred?.since ?? Date.now() };
    clearTimeout(this.recheck);
    this.recheck = setTimeout(() => {
      this.recheck = undefined;
      this.compact().catch((err) =>
        this.warn(`database ${this.name}: could not compact the index: ${String(err)}`),
      );
    }, BUILD_WORKER.compactionRecheckMs);
    this.recheck.unref();
    return undefined;
  }

  /**
   * What a full build of `size` contacts needs beyond the running process (COMPACTION_NEED × the
   * index it makes, scaled from the running one when there is one), and the room there is; no room
   * read for a small database's build.
   */
  private weigh(size: number): { need: number; room: MemoryRoom | undefined } {
    if (size < BUILD_WORKER.minContacts) return { need: 0, room: undefined };
    const n = this.index.size;
    const bytes = n > 0 ? (this.index.approximateBytes() * size) / n : INDEX_BYTES_A_CONTACT * size;
    const need = COMPACTION_NEED * bytes;
    return { need, room: (BUILD_WORKER.room ?? memoryRoom)() };
  }

  /** One full build; false when stopped for a segment (nothing swapped in). */
  private async once(size: number): Promise<boolean> {
    this.journal = [];
    try {
      if (size >= BUILD_WORKER.minContacts) {
        const stop = (this.stopFull = new AbortController());
        const done = await this.inWorker(stop.signal);
        this.stopFull = undefined;
        if (done) {
          await this.swapIn(done.image);
          this.replay();
          this.built(done);
          return true;
        }
        if (stop.signal.aborted) return false;
      }
      await this.onMainThread();
      this.replay();
      this.built({ image: undefined, seq: undefined });
      return true;
    } finally {
      this.stopFull = undefined;
      this.journal = undefined;
    }
  }

  /**
   * One segment (two for a change of BUILD_WORKER.splitAt ids or more on a machine of
   * BUILD_WORKER.splitCores cores or more, a half each, built at once): built on a worker from the store's current rows of `ids`,
   * staged in slices, put in at once (SearchIndex.attachSegment, both in the same step), the journal
   * replayed; then a full build queued to take it in. A worker that fails: a full build instead (it
   * reads everything, this change too).
   */
  private async oneSegment(w: Segment): Promise<void> {
    this.journal = w.since ?? [];
    const asked = Date.now();
    const writers = w.prebuilt ? await this.prebuiltSegment(w.ids, w.prebuilt) : undefined;
    const parts = writers ? [w.ids] : halves(w.ids);
    let done: Done[];
    try {
      // The columns the index holds buffered (ids, emails, phones, timestamps) start so in the segment's.
      const unique = bufferedColumns(this.index);
      done =
        writers ??
        (await Promise.all(parts.map((ids) => segmentInWorker(this.store, ids, unique))));
    } catch (err) {
      this.journal = undefined;
      this.warn(
        `database ${this.name}: the segment build on a worker thread failed (${err instanceof Error ? err.message : String(err)}); rebuilding the whole index`,
      );
      this.run().then(w.resolve, w.reject);
      return;
    }
    try {
      const built = Date.now();
      const staged: StagedSegment[] = [];
      for (let i = 0; i < parts.length; i++)
        staged.push(await stageSegment(this.index, done[i].image, parts[i], staged));
      const staging = Date.now();
      const touched: string[] = [];
      for (const c of this.journal!) changedIds(c.deletes, c.upserts, touched);
      for (const s of staged) this.index.attachSegment(s, touched);
      this.replay();
      w.resolve();
      this.info(
        `database ${this.name}: a change of ${w.ids.length} contacts searchable as ${parts.length} segment(s) in ${Date.now() - asked} ms: ${writers ? `${typeof w.prebuilt === 'string' ? "its writer's, loaded" : 'built as it was written, ready'} in ${built - asked} ms` : done.map((d) => segmentSteps(asked, built, d.steps)).join('; ')}; staged in ${staging - built} ms, attached in ${Date.now() - staging} ms`,
      );
    } catch (err) {
      w.reject(err);
    } finally {
      this.journal = undefined;
    }
    this.compact().catch((err) =>
      this.warn(`database ${this.name}: could not compact the index: ${String(err)}`),
    );
  }

  /** The segment the change's writer built, checked; undefined (with why, logged) to build one instead. */
  private async prebuiltSegment(
    ids: readonly string[],
    prebuilt: string | OwnSegment,
  ): Promise<Done[] | undefined> {
    const got =
      typeof prebuilt === 'string'
        ? await writerSegmentFor(this.store, prebuilt, ids)
        : await prebuilt.built.catch(firstLine);
    if (typeof got !== 'string') return [got];
    this.info(
      `database ${this.name}: the segment its writer built for a change of ${ids.length} contacts not used (${got}); building one`,
    );
    return undefined;
  }

  /**
   * Swaps in the snapshot beside the store when it may be used for a feed at `head` (snapshot.ts),
   * and returns the feed position it is at; undefined (with one warning when there was one to
   * refuse) when the caller must build.
   */
  async fromSnapshot(head: number): Promise<number | undefined> {
    const read = await readSnapshot(this.store, head);
    if (read === undefined) return undefined;
    if ('why' in read) {
      this.refused(read.why);
      return undefined;
    }
    await this.swapIn(read.image);
    return read.seq;
  }

  /**
   * After a snapshot at feed position `from` was swapped in: the changes since, from the feed (a big
   * one as a segment); the feed position reached. Undefined (warned) when the feed no longer lists
   * them, or the index then disagrees with the store's count: the caller builds.
   */
  async catchUpFrom(from: number): Promise<number | undefined> {
    const ch = await this.store.feed.since(from);
    if (!ch.all) {
      const ids = [...ch.contacts, ...(await listedIds(ch, nextTurn))];
      if (this.index.isBigChange(ids.length)) await this.segment(ids, ch.segment);
      else await applyFromStore(this.index, this.store, ids);
      if (await this.countAgrees()) {
        if (this.index.deltaFull)
          this.compact().catch((err) =>
            this.warn(`database ${this.name}: could not compact the index: ${String(err)}`),
          );
        return ch.last;
      }
    }
    this.refused(ch.all ? 'older than the change feed keeps' : 'contact count differs');
    return undefined;
  }

  /**
   * Whether the store holds as many contacts as the index. A kept count (SQLite) that disagrees is
   * counted anew first, and set right when the contacts themselves agree (one warning): a kept
   * count gone wrong would otherwise refuse the snapshot at every start.
   */
  private async countAgrees(): Promise<boolean> {
    const kept = await this.store.count();
    if (kept === this.index.size) return true;
    const counted = await this.store.recount?.();
    if (counted !== this.index.size) return false;
    this.warn(
      `database ${this.name}: the store's kept contact count read ${kept}, its contacts ${counted}: set right`,
    );
    return true;
  }

  /**
   * Reads an image in steps (a dictionary of strings a turn: at 1M the whole read held the event
   * loop), then swaps it in at once. Writes meanwhile go to the current index and the journal.
   */
  private swapIn(image: IndexImage): Promise<void> {
    return swapInSteps(this.index, image);
  }

  /** One warning for a snapshot not used. */
  private refused(why: string): void {
    const file = snapshotOf(this.store)?.file;
    this.warn(
      `database ${this.name}: index snapshot ${file} not used (${why}); building from the store`,
    );
  }

  private async inWorker(signal: AbortSignal) {
    try {
      const snap = snapshotOf(this.store);
      const done = await buildInWorker(this.store, snap, signal);
      if (done.snapshotError)
        this.warn(`database ${this.name}: index snapshot not written: ${done.snapshotError}`);
      return done;
    } catch (err) {
      if (signal.aborted) return undefined;
      this.warn(
        `database ${this.name}: the index build on a worker thread failed (${err instanceof Error ? err.message : String(err)}); building on the main thread`,
      );
      return undefined;
    }
  }

  /** The journal onto the index just changed; a journal that fills its delta asks for one more build. */
  private replay(): void {
    for (const c of this.journal!) this.index.applyToDelta(c.deletes, c.upserts);
    this.journal = undefined;
    if (this.index.deltaFull)
      this.compact().catch((err) =>
        this.warn(`database ${this.name}: could not compact the index: ${String(err)}`),
      );
  }

  /** The build in slices on the main thread (small stores, or a worker that failed). */
  private async onMainThread(): Promise<void> {
    const loader = new IndexLoader();
    for await (const batch of this.store.loadAll()) {
      for (const c of batch) loader.add(c);
      await nextTurn();
    }
    await this.index.buildFromAsync(loader);
  }
}

/** A change's ids in one part, or two halves for two workers (BUILD_WORKER.splitAt). */
function halves(ids: readonly string[]): (readonly string[])[] {
  if (ids.length < BUILD_WORKER.splitAt || availableParallelism() < BUILD_WORKER.splitCores) {
    return [ids];
  }
  const mid = ids.length >>> 1;
  return [ids.slice(0, mid), ids.slice(mid)];
}

/** A segment's time on the worker, step by step (the log line bench:live's runs are read from). */
function segmentSteps(asked: number, built: number, steps: Steps | undefined): string {
  if (!steps) return `built on a worker in ${built - asked} ms`;
  const ms = (x: number) => `${Math.round(x)} ms`;
  const start = steps.startedAt - asked;
  const handed = built - asked - start - steps.readMs - steps.tokeniseMs - steps.buildMs;
  return `worker start ${ms(start)}, read ${ms(steps.readMs)}, decode and tokenise ${ms(steps.tokeniseMs)}, build ${ms(steps.buildMs)}, image handed over ${ms(handed)}`;
}

/**
 * The ids of a change (deletes, then upserts) pushed onto `into`, in a plain loop: this runs once an
 * import, in code not yet optimised, where `[...deletes, ...upserts.map(…)]` over 100,000 contacts
 * took ~20 ms in one turn (~2.5 ms so).
 */
export function changedIds(
  deletes: readonly string[],
  upserts: readonly Contact[],
  into: string[] = [],
): string[] {
  for (let i = 0; i < deletes.length; i++) into.push(deletes[i]);
  for (let i = 0; i < upserts.length; i++) into.push(upserts[i].ContactId);
  return into;
}

/**
 * The snapshot beside `store` read for a feed at `head` (usableSnapshot's checks; its CRC and layout
 * on the worker thread): its image and feed position, why it may not be used, or undefined when
 * there is none (or the store keeps none).
 */
export async function readSnapshot(
  store: ContactStore,
  head: number,
): Promise<{ image: IndexImage; seq: number } | { why: string } | undefined> {
  const snap = snapshotOf(store);
  if (!snap) return undefined;
  const meta = await usableSnapshot(snap.file, snap.store, head);
  if (meta === undefined) return undefined;
  if (typeof meta === 'string') return { why: meta };
  try {
    return { image: (await loadInWorker(snap.file)).image, seq: meta.seq };
  } catch (err) {
    return { why: err instanceof Error ? err.message : String(err) };
  }
}

/** An image read into `index` in steps (a dictionary of strings a turn: at 1M the whole read held the event loop), then swapped in at once. */
export async function swapInSteps(index: SearchIndex, image: IndexImage): Promise<void> {
  let built: Built | undefined;
  for (const _ of builtFromImageSteps(image, (b) => (built = b))) await nextTurn();
  index.swapInBuilt(built!);
}

/** A small change of `ids` put in `index`'s delta as the store now holds them (deleted where it holds none). */
export async function applyFromStore(
  index: SearchIndex,
  store: ContactStore,
  ids: readonly string[],
): Promise<void> {
  const found = new Map((await store.get(ids)).map((c) => [c.ContactId, c]));
  index.applyToDelta(
    ids.filter((id) => !found.has(id)),
    [...found.values()],
  );
}
