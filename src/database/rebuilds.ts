/**
 * Index builds from the store, one at a time, off the event loop (worker-build.ts) for a database of
 * BUILD_WORKER.minContacts or more. Searches answer from the current index meanwhile, and writes go
 * on: every change applied to the index while a build runs is also journalled, and replayed onto the
 * new index right after it is swapped in (one synchronous step: a search sees the old index with the
 * change or the new one with it). A replayed change the build already read is applied again, which
 * leaves the same contact: changes are whole records and deletes by id.
 * A worker that fails is reported and the build done on the main thread instead, in slices, so
 * a committed import is never left out of the index.
 */
import type { Contact } from '../fields/contact.ts';
import { nextTurn } from '../next-turn.ts';
import { IndexLoader, type SearchIndex } from '../search/search-index.ts';
import type { IndexImage } from '../search/index/image.ts';
import type { ContactStore } from '../store/store.ts';
import { snapshotOf, usableSnapshot } from './snapshot.ts';
import { BUILD_WORKER, buildInWorker, loadInWorker } from './worker-build.ts';

interface Change {
  deletes: readonly string[];
  upserts: readonly Contact[];
}

/** What a finished build reports (a snapshot is written from it: snapshot.ts). */
export interface BuildDone {
  image: IndexImage | undefined;
  seq: number | undefined;
}

export class Rebuilds {
  private current: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private journal: Change[] | undefined;

  constructor(
    private readonly index: SearchIndex,
    private readonly store: ContactStore,
    private readonly warn: (msg: string) => void,
    private readonly name: string,
    private readonly built: (done: BuildDone) => void = () => {},
  ) {}

  /** A build is running: changes applied now are replayed onto its result. */
  get running(): boolean {
    return this.current !== undefined;
  }

  /** Notes a change the caller applied to the index (replayed onto a build running now). */
  record(deletes: readonly string[], upserts: readonly Contact[]): void {
    this.journal?.push({ deletes, upserts });
  }

  /**
   * Resolves once an index built from a read of the store begun after this call is in. Calls while
   * a build runs share the one build that follows it.
   */
  run(size = this.index.size): Promise<void> {
    if (!this.current) {
      const run = this.once(size).finally(() => {
        if (this.current === run) this.current = undefined;
      });
      this.current = run;
      return run;
    }
    return (this.next ??= this.current
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.run();
      }));
  }

  private async once(size: number): Promise<void> {
    this.journal = [];
    try {
      if (size >= BUILD_WORKER.minContacts) {
        const done = await this.inWorker();
        if (done) {
          this.index.swapInImage(done.image);
          this.replay();
          this.built(done);
          return;
        }
      }
      await this.onMainThread();
      this.replay();
      this.built({ image: undefined, seq: undefined });
    } finally {
      this.journal = undefined;
    }
  }

  /**
   * Swaps in the snapshot beside the store when it may be used for a feed at `head` (snapshot.ts),
   * and returns the feed position it is at; undefined (with one warning when there was one to
   * refuse) when the caller must build.
   */
  async fromSnapshot(head: number): Promise<number | undefined> {
    const snap = snapshotOf(this.store);
    if (!snap) return undefined;
    const meta = await usableSnapshot(snap.file, snap.store, head);
    if (meta === undefined) return undefined;
    let why = typeof meta === 'string' ? meta : undefined;
    if (typeof meta !== 'string') {
      try {
        this.index.swapInImage((await loadInWorker(snap.file)).image);
        return meta.seq;
      } catch (err) {
        why = err instanceof Error ? err.message : String(err);
      }
    }
    this.refused(why!);
    return undefined;
  }

  /**
   * After a snapshot at feed position `from` was swapped in: the changes since, from the feed; the
   * feed position reached. Undefined (warned) when the feed no longer lists them, or the index then
   * disagrees with the store's count: the caller builds.
   */
  async catchUpFrom(from: number): Promise<number | undefined> {
    const ch = await this.store.feed.since(from);
    if (!ch.all) {
      const found = new Map((await this.store.get(ch.contacts)).map((c) => [c.ContactId, c]));
      this.index.applyToDelta(
        ch.contacts.filter((id) => !found.has(id)),
        [...found.values()],
      );
      if ((await this.store.count()) === this.index.size) {
        if (this.index.deltaFull)
          this.run().catch((err) =>
            this.warn(`database ${this.name}: could not compact the index: ${String(err)}`),
          );
        return ch.last;
      }
    }
    this.refused(ch.all ? 'older than the change feed keeps' : 'contact count differs');
    return undefined;
  }

  /** One warning for a snapshot not used. */
  private refused(why: string): void {
    const file = snapshotOf(this.store)?.file;
    this.warn(
      `database ${this.name}: index snapshot ${file} not used (${why}); building from the store`,
    );
  }

  private async inWorker() {
    try {
      const snap = snapshotOf(this.store);
      const done = await buildInWorker(this.store, snap);
      if (done.snapshotError)
        this.warn(`database ${this.name}: index snapshot not written: ${done.snapshotError}`);
      return done;
    } catch (err) {
      this.warn(
        `database ${this.name}: the index build on a worker thread failed (${err instanceof Error ? err.message : String(err)}); building on the main thread`,
      );
      return undefined;
    }
  }

  /** The journal onto the index just swapped in; a journal that fills its delta asks for one more build. */
  private replay(): void {
    for (const c of this.journal!) this.index.applyToDelta(c.deletes, c.upserts);
    this.journal = undefined;
    if (this.index.deltaFull)
      this.run().catch((err) =>
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
