/**
 * ContactDatabase: the store of record plus the in-memory search index, kept in step. A write commits
 * to the store first and only then touches the index, so a failed commit changes neither and a
 * committed one is visible to the next search at once. Writes are serialised per database.
 * What other writers commit (worker processes, the import CLI, other nodes) arrives through the
 * store's change feed: `sync` before an answer applies it (docs/DESIGN.md "Change feed").
 * Beside it: what is pending for the next catch-up (pending-reads.ts), the saved searches
 * (saved-searches.ts), a write's counts (write-summary.ts), builds and segments (rebuilds.ts).
 */
import { lastArrival } from '../arrivals.ts';
import type { DatabaseStats } from '../metrics/metrics.ts';
import { SearchIndex } from '../search/search-index.ts';
import type { Contact, SavedSearch } from '../fields/contact.ts';
import { PendingReads, type Pending } from './pending-reads.ts';
import { SavedSearches } from './saved-searches.ts';
import { withinMs } from './within-ms.ts';
import { feedLag } from './feed-lag.ts';
import { throwUnavailable } from './unavailable.ts';
import { summariseWrite } from './write-summary.ts';
import type { ContactDatabase, WriteSummary, WriteTx } from './database.ts';
import { changedIds, Rebuilds } from './rebuilds.ts';
import { BUILD_WORKER, bufferedColumns, spareWhenIdle } from './worker-build.ts';
import { sweepWriterSegments, writerSegment, type OwnSegment } from './writer-segment.ts';
import { importTarget, type ImportTarget } from '../store/import-target.ts';
import { nextTurn } from '../next-turn.ts';
import type { Entry } from '../search/contact-tokens.ts';
import {
  applyChange,
  listedIds,
  StoreUnavailable,
  type ChangeSet,
  type ContactStore,
  type StoreStatus,
} from '../store/store.ts';

/** The longest an answer waits for a catch-up (a few rows, usually milliseconds) before it answers from the index. */
const CATCH_UP_WAIT_MS = 2000;

export class IndexedContactDatabase implements ContactDatabase {
  readonly index = new SearchIndex();
  private readonly saved = new SavedSearches();
  private queue: Promise<unknown> = Promise.resolve();
  /** Tasks in the queue (a write, a catch-up, a rebuild). */
  private queued = 0;
  /** The last change-feed sequence number applied. */
  private seq = 0;
  /** The feed moved (or a catch-up failed) and has not been read since. */
  private stale = false;
  private catchingUp: Promise<void> | undefined;
  /** Every request numbered up to this (arrivals.ts) was read before the last look at the feed. */
  private checkedThrough = 0;
  /**
   * Read from the feed (or written by a commit whose answer was lost) and not applied yet: kept
   * across a failed catch-up, since the feed position has moved past it.
   */
  private readonly pending = new PendingReads();
  /** The store could not be read at the last catch-up (warned once, until one succeeds). */
  private failing = false;
  /** While failing, the next catch-up a request starts (in the background) is not before this. */
  private retryAt = 0;
  /** Imports look up and write through this (only ever used inside `exclusive`). */
  private readonly importer: ImportTarget;
  /** Contacts the import running in `exclusive` committed (set by its commit), and the last import's figures. */
  private imported: number | undefined;
  private lastImport: DatabaseStats['lastImport'];
  /** Where the index came from at open: its snapshot (then the feed since), or a build from the store. */
  openedFrom: 'snapshot' | 'store' = 'store';
  /** Builds from the store, off the event loop when big, writes replayed onto them (rebuilds.ts). */
  private readonly rebuilds: Rebuilds;
  private readonly builtListeners: (() => void)[] = [];

  private constructor(
    readonly name: string,
    private readonly store: ContactStore,
    private readonly warn: (msg: string) => void,
    info: (msg: string) => void,
  ) {
    this.rebuilds = new Rebuilds(
      this.index,
      store,
      warn,
      name,
      () => {
        for (const l of this.builtListeners) l();
      },
      info,
    );
    this.importer = importTarget(
      store,
      {
        get: (id) => this.get(id),
        scan: () => this.index.scan(),
        committed: async (upserts, replaceAll, own) => {
          await this.indexChange([], upserts, replaceAll, true, own as OwnSegment | undefined);
          this.imported = upserts.length;
        },
      },
      // A big import's segment built as it writes, on the spare worker, with this index's layout:
      // taken as its segment here, and (SQLite) left beside the store for the other processes.
      () =>
        this.index.size >= BUILD_WORKER.minContacts
          ? writerSegment(store, {
              startAt: (n) => this.index.bigByItself(n),
              unique: bufferedColumns(this.index),
              spare: true,
              own: true,
            })
          : undefined,
    );
  }

  static async open(
    name: string,
    store: ContactStore,
    warn: (msg: string) => void = () => {},
    info: (msg: string) => void = () => {},
  ): Promise<IndexedContactDatabase> {
    const db = new IndexedContactDatabase(name, store, warn, info);
    sweepWriterSegments(store);
    // The feed's position first: whatever commits during the load is read (again) by the first sync.
    store.feed.moved();
    const head = await store.feed.head();
    const from = await db.rebuilds.fromSnapshot(head);
    const caughtUp = from === undefined ? undefined : await db.rebuilds.catchUpFrom(from);
    db.seq = caughtUp ?? head;
    if (caughtUp !== undefined) db.openedFrom = 'snapshot';
    if (caughtUp === undefined) await db.rebuilds.run(await store.count());
    await db.loadSaved();
    // Big enough for a big change to be a segment built on a worker: one started ahead for it, once
    // the first requests (the first touches of the index) are answered.
    if (db.index.size >= BUILD_WORKER.minContacts) spareWhenIdle();
    return db;
  }

  private async loadSaved(): Promise<void> {
    this.saved.replace(await this.store.listSavedSearches());
  }

  get backend() {
    return this.store.backend;
  }

  get size(): number {
    return this.index.size;
  }

  /** Both counters only grow, so their sum moves whenever either does. */
  get version(): number {
    return this.index.version + this.saved.changes;
  }

  get(contactId: string): Contact | undefined {
    return this.index.get(contactId);
  }

  all(): Iterable<Contact> {
    return this.index.all();
  }

  /**
   * Brings the index up to what other writers committed; undefined when nothing moved (one cheap
   * check, the usual case). A small change is applied before the promise resolves; a big one (an
   * import elsewhere; one the feed lists, over FEED_LIST_MAX ids, resolves it before its ids are
   * even parsed) rebuilds in the background while searches answer from the current index, as
   * they do during this process's own imports. While this process writes, its searches answer from
   * the current index too: the write catches up first, and the next call after it.
   * `arrival` (arrivals.ts): a request read before the last look at the feed skips the look.
   */
  sync(arrival = Infinity): Promise<void> | undefined {
    if (this.catchingUp) return this.catchingUp;
    if (arrival > this.checkedThrough) {
      this.checkedThrough = lastArrival();
      if (this.store.feed.moved()) this.stale = true;
    }
    // While the store is away, searches answer from the index (nobody can commit meanwhile; what was
    // missed is read once it is back): docs/DEPLOYMENT.md "When the database is away".
    if (!this.stale || this.queued > 0 || this.store.status?.().up === false) return undefined;
    if (this.failing && Date.now() < this.retryAt) return undefined;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const run = this.serially(() => this.catchUp(false, release));
    // The last read of the store failed: try again behind this answer (at most once a second), not
    // before it, so that a store that hangs (a cut network) does not hold every search up.
    if (this.failing) {
      this.retryAt = Date.now() + 1000;
      run.catch(() => undefined); // catchUp reports its own failures
      return undefined;
    }
    // Answers wait for the catch-up, but not for a store that stopped answering (a cut network
    // sends no error; the query's own timeout is a minute): past CATCH_UP_WAIT_MS they answer from
    // the index and the catch-up goes on behind them.
    const waited = withinMs(Promise.race([run, released]), CATCH_UP_WAIT_MS, () => undefined);
    this.catchingUp = waited;
    run
      .finally(() => {
        if (this.catchingUp === waited) this.catchingUp = undefined;
      })
      .catch(() => undefined);
    return waited;
  }

  /**
   * Reads the feed and applies it. `inline` (before a write of our own, which reads the index) does
   * even a full reload before returning, and throws when the store cannot be read (the write must not
   * go ahead on an index behind the store); otherwise big work is queued behind and not waited for,
   * and a failure is warned about and retried at the next call. `release` lets the answers waiting
   * for it go on from the current index before the work is done (a listed change, below).
   */
  private async catchUp(inline: boolean, release?: () => void): Promise<void> {
    if (this.store.feed.moved()) this.stale = true;
    if (!this.stale) return;
    this.stale = false;
    let p: Pending | undefined;
    try {
      const ch = await this.store.feed.since(this.seq);
      if (this.failing) this.warn(`database ${this.name}: change feed read again; catching up`);
      this.failing = false;
      this.seq = ch.last;
      this.note(ch.contacts, ch.saved, ch.all);
      p = this.pending.take();
      this.stale = false; // `note` marked it for what is being applied now
      if (p.saved) await this.loadSaved();
      p.saved = false;
      if (p.all)
        return inline ? await this.reload() : await this.loadSaved().then(() => this.background());
      if (p.ids.size === 0 && (ch.all || ch.listed.length === 0)) return;
      // Listed ids are a write of over FEED_LIST_MAX contacts elsewhere (an import), indexed behind
      // the answers like any big change: they need not wait the turns its ids take to parse (tens
      // of milliseconds at 100,000 on a loaded machine, every answer arriving meanwhile held).
      if (!ch.all && ch.listed.length > 0) release?.();
      const ids = [...p.ids];
      if (!ch.all) for (const id of await listedIds(ch, nextTurn)) ids.push(id);
      if (this.index.isBigChange(ids.length)) {
        // An import elsewhere: a segment built on a worker from just these ids (the store is read
        // there, not here), searches answering from the current index meanwhile.
        p = undefined;
        const built = this.rebuilds.segment(ids, ch.segment);
        if (inline) return await built;
        built.catch((err) => {
          this.note(ids, false, false);
          this.warn(
            `database ${this.name}: could not index a change of ${ids.length} contacts: ${err instanceof Error ? err.message : String(err)}`,
          );
        });
        return;
      }
      const found = new Map((await this.store.get(ids)).map((c) => [c.ContactId, c]));
      const deletes = ids.filter((id) => !found.has(id));
      const upserts = [...found.values()];
      p = undefined; // read: what is left cannot fail on the store
      await this.indexChange(deletes, upserts, false, inline);
    } catch (err) {
      if (p) this.note([...p.ids], p.saved, p.all);
      this.stale = true; // read again on the next call
      if (!this.failing)
        this.warn(
          `database ${this.name}: could not read the change feed: ${err instanceof Error ? err.message : String(err)}`,
        );
      this.failing = true;
      if (inline) throwUnavailable(this.name, err);
    }
  }

  /** Something to read from the store at the next catch-up. */
  private note(ids: Iterable<string>, saved: boolean, all: boolean): void {
    if (this.pending.note(ids, saved, all)) this.stale = true;
  }

  /**
   * Everything again from the store (Replace or a big import elsewhere, or a feed read too late to
   * list what changed), built apart and swapped in; the saved searches too.
   */
  private async reload(): Promise<void> {
    await this.loadSaved();
    await this.rebuilds.run();
  }

  /**
   * A build from the store behind the answers, outside the write queue (writes go on and are
   * replayed onto it); if it fails, everything is read again at the next catch-up. `compaction`:
   * only to take in a full delta, put off while memory is short (rebuilds.ts).
   */
  private background(compaction = false): void {
    (compaction ? this.rebuilds.compact() : this.rebuilds.run()).catch((err) => {
      this.note([], false, true);
      this.warn(
        `database ${this.name}: could not rebuild the index: ${err instanceof Error ? err.message : String(err)}`,
      );
    });
  }

  write(change: ChangeSet): Promise<WriteSummary> {
    const touched = change.replaceAll
      ? undefined
      : [...(change.delete ?? []), ...(change.upsert ?? []).map((c) => c.ContactId)];
    return this.writing(
      () => this.writeNow(change),
      () => this.note(touched ?? [], false, touched === undefined),
    );
  }

  exclusive<T>(work: (tx: WriteTx) => Promise<T>): Promise<T> {
    return this.writing(
      async () => {
        const started = performance.now();
        this.imported = undefined;
        const out = await work({ import: this.importer });
        if (this.imported !== undefined)
          this.lastImport = {
            rows: this.imported,
            seconds: (performance.now() - started) / 1000,
            at: Date.now(),
          };
        return out;
      },
      () => this.note([], false, true),
    );
  }

  /**
   * A write of ours reads the index (what exists, what it replaces): others' changes go in first.
   * A store that cannot be reached fails it with Unavailable; one whose commit answer was lost
   * (`unsure`) has what it wrote read back from the store at the next catch-up, since the feed leaves
   * out this store's own rows.
   */
  private writing<T>(run: () => Promise<T>, unsure: () => void): Promise<T> {
    return this.serially(async () => {
      await this.catchUp(true);
      try {
        return await run();
      } catch (err) {
        if (err instanceof StoreUnavailable && err.mayHaveCommitted) unsure();
        return throwUnavailable(this.name, err);
      }
    });
  }

  /** Whether the store answers now (GET /healthz). */
  status(): StoreStatus {
    return this.store.status?.() ?? { up: true };
  }

  /** A write, run inside the queue. */
  private async writeNow(change: ChangeSet): Promise<WriteSummary> {
    const summary = summariseWrite(this.index, change);
    await applyChange(this.store, change); // throws → nothing changed, the index is untouched
    await this.indexChange(change.delete ?? [], change.upsert ?? [], change.replaceAll ?? false);
    return summary;
  }

  /**
   * Brings the index up to a committed change. One the delta cannot hold (an import) is indexed as a
   * segment (rebuilds.ts; Replace: a full build), searches answering from the current index
   * meanwhile; it resolves once it is in. A delta filled by single writes is compacted behind them
   * (at once when the database is small).
   */
  private async indexChange(
    deletes: readonly string[],
    upserts: readonly Contact[],
    replaceAll: boolean,
    waitForCompaction = true,
    own?: OwnSegment,
  ): Promise<void> {
    const big = !replaceAll && this.index.isBigChange(deletes.length + upserts.length);
    if (!big) own?.abandon();
    if (replaceAll) await this.rebuilds.run(this.index.size + upserts.length);
    else if (big) await this.rebuilds.segment(changedIds(deletes, upserts), own);
    else {
      // Room first, between answers: a whole copy of each column at the first write after an open
      // held the loop ~1 s at 1M. Capacity only: should a build be swapped in meanwhile, the
      // appends below are still right (its columns may copy once).
      const entries: Entry[][] = [];
      for (const _ of this.index.roomSteps(upserts, entries)) await nextTurn();
      this.index.applyToDelta(deletes, upserts, entries);
      this.rebuilds.record(deletes, upserts);
      if (!this.index.deltaFull || this.rebuilds.running) return; // full: compact it
      if (waitForCompaction && this.index.size < BUILD_WORKER.minContacts)
        await this.rebuilds.run();
      else this.background(true);
    }
  }

  savedSearches(): readonly SavedSearch[] {
    return this.saved.list();
  }

  savedSearch(name: string): SavedSearch | undefined {
    return this.saved.get(name);
  }

  putSavedSearch(s: SavedSearch): Promise<void> {
    return this.writing(
      async () => {
        await this.store.putSavedSearch(s);
        this.saved.put(s);
      },
      () => this.note([], true, false),
    );
  }

  deleteSavedSearch(name: string): Promise<boolean> {
    return this.writing(
      async () => {
        const existed = await this.store.deleteSavedSearch(name);
        this.saved.delete(name);
        return existed;
      },
      () => this.note([], true, false),
    );
  }

  /** Every store write runs alone: a write may span several turns of the event loop (sliced transactions). */
  private serially<T>(run: () => Promise<T>): Promise<T> {
    this.queued++;
    const result = this.queue.then(run, run).finally(() => {
      this.queued--;
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  describe() {
    return this.store.describe().catch((err: unknown) => throwUnavailable(this.name, err));
  }

  /** Figures for /metrics (the feed lag: feed-lag.ts). */
  async stats(): Promise<DatabaseStats> {
    const lag = await feedLag(this.store, this.seq);
    return {
      name: this.name,
      backend: this.backend,
      up: lag !== undefined,
      contacts: this.size,
      indexBytes: this.index.approximateBytes(),
      indexBuiltAt: this.index.builtAt,
      feedLag: lag,
      lastImport: this.lastImport,
      compactionDeferred: this.rebuilds.deferred !== undefined,
    };
  }

  onBuilt(listener: () => void): void {
    this.builtListeners.push(listener);
  }

  close(): Promise<void> {
    this.rebuilds.close();
    return this.store.close();
  }
}
