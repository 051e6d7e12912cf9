/**
 * The store of record behind one interface (SQLite embedded, PostgreSQL for several nodes).
 * The in-memory search index is built from `loadAll` and kept in step by ContactDatabase;
 * a store only persists.
 */
import type { Contact, SavedSearch } from '../fields/contact.ts';

export type Backend = 'sqlite' | 'postgres';

/** One atomic change: everything in it commits, or nothing does. */
export interface ChangeSet {
  /** Insert or replace these contacts (whole records). */
  upsert?: readonly Contact[];
  /** Delete these ContactIds (absent ids are ignored). */
  delete?: readonly string[];
  /** Delete every contact before applying `upsert` (ImportContacts Mode=Replace). */
  replaceAll?: boolean;
}

/**
 * One open transaction, written in as many calls as the caller likes (an import streams its file
 * through one): nothing of it is visible to others, or survives a crash, before `commit`.
 */
export interface StoreTransaction {
  /** Inserts or replaces whole records. */
  put(contacts: readonly Contact[]): Promise<void>;
  /**
   * SQLite: this transaction's contacts are indexed in the segment file its writer wrote beside the
   * store under this nonce (database/writer-segment.ts); its feed rows say so (FeedRecorder.segment).
   */
  segment?(nonce: string): void;
  /** Deletes these ids (absent ids are ignored). */
  delete(ids: readonly string[]): Promise<void>;
  /** Deletes every contact whose id is not in `keep` (Mode Replace, applied last); returns how many. */
  deleteAllExcept(keep: Iterable<string>): Promise<number>;
  commit(): Promise<void>;
  /** Undoes everything; safe to call after a failed call or twice. */
  rollback(): Promise<void>;
}

/**
 * What other writers committed: the import CLI, the other worker processes, other nodes on the same
 * PostgreSQL. Every write adds rows to a `changes` table in its own transaction; each process keeps
 * the last sequence number it applied and reads the newer rows when `moved` says there may be some.
 */
export interface ChangeFeed {
  /**
   * Synchronous and cheap (called before every answer): true when another writer may have committed
   * since the last call. SQLite: the wal-index header (sqlite/wal-header.ts), exact. PostgreSQL: a NOTIFY received, so
   * another node's commit is seen once its notification arrives (docs/DESIGN.md "Change feed").
   */
  moved(): boolean;
  /** The newest sequence number now; read before loading so that nothing committed meanwhile is missed. */
  head(): Promise<number>;
  /** What others wrote after `seq` (this store's own writes are left out: the index already has them). */
  since(seq: number): Promise<FeedChanges>;
}

export interface FeedChanges {
  /** The newest sequence number read: the next `since` starts there. */
  last: number;
  /** ContactIds others upserted or deleted: their current rows say which. */
  contacts: string[];
  /**
   * Big writes' ContactIds (10,000 a row), as the JSON text of each row: parsing a hundred thousand
   * ids at once held the event loop 20-130 ms, so the reader parses them a row a turn (`listedIds`).
   */
  listed: string[];
  /** Others changed saved searches. */
  saved: boolean;
  /** Too much to list (an import, Replace) or no longer kept: reload everything. */
  all: boolean;
  /**
   * The nonce of the segment file the writer of these changes built from what it wrote, when these
   * changes are that one transaction's and nothing else (FeedRecorder.segment, foldFeed).
   */
  segment?: string;
}

/** A write listing more ContactIds than this lists them in rows of FEED_LIST_MAX ids each (`ids`). */
export const FEED_LIST_MAX = 10_000;
/**
 * A write of more ContactIds than this is recorded as "everything changed" (readers rebuild); up to
 * it, a reader indexes just the listed contacts (a big change is a segment of its own: docs/DESIGN.md
 * "Change feed").
 */
export const FEED_LIST_BIG = 250_000;
/** Rows kept in `changes`; a reader further behind reloads everything. */
export const FEED_KEEP = 100_000;
/**
 * The key of the `all` row that comes with a listed big write: a reader that knows `ids` rows skips
 * it; one built before them (which would take each `ids` row for one contact) reloads everything.
 */
const LISTED = 'listed';

type FeedRow = [kind: 'contact' | 'ids' | 'all' | 'saved' | 'segment', key: string | null];

/** Collects what one transaction wrote, for its feed rows. */
export class FeedRecorder {
  readonly ids = new Set<string>();
  readonly savedKeys = new Set<string>();
  all = false;
  /**
   * The writer indexed this transaction's contacts itself, in the segment file of this nonce: its
   * last row, `segment`, says so with the transaction's row count, so a reader can tell that what it
   * reads is exactly this transaction (foldFeed). A reader built before it takes the row for a
   * contact id no contact has: nothing.
   */
  segment: string | undefined;

  /** Contact writes (puts and deletes) recorded, counted even once they are `all`. */
  touched = 0;

  touch(id: string): void {
    this.touched++;
    if (this.all) return;
    this.ids.add(id);
    if (this.ids.size > FEED_LIST_BIG) this.everything();
  }

  everything(): void {
    this.all = true;
    this.ids.clear();
  }

  /** A saved search written (by its lower-cased name). */
  saved(nameKey: string): void {
    this.savedKeys.add(nameKey);
  }

  /** The rows to insert: [kind, key] pairs. */
  rows(): FeedRow[] {
    const rows: FeedRow[] = [];
    if (this.all) rows.push(['all', null]);
    else if (this.ids.size <= FEED_LIST_MAX) for (const id of this.ids) rows.push(['contact', id]);
    else {
      const ids = [...this.ids];
      for (let i = 0; i < ids.length; i += FEED_LIST_MAX)
        rows.push(['ids', JSON.stringify(ids.slice(i, i + FEED_LIST_MAX))]);
      rows.push(['all', LISTED]);
    }
    for (const key of this.savedKeys) rows.push(['saved', key]);
    if (this.segment !== undefined && !this.all && rows.length > 0)
      rows.push(['segment', `${this.segment} ${rows.length + 1}`]);
    return rows;
  }
}

/** Runs `work` in an open transaction: commits when it returns, rolls back and rethrows when it throws. */
export async function inTransaction<T>(
  tx: { commit(): Promise<void>; rollback(): Promise<void> },
  work: () => T | Promise<T>,
): Promise<T> {
  try {
    const out = await work();
    await tx.commit();
    return out;
  } catch (err) {
    await tx.rollback();
    throw err;
  }
}

/**
 * Folds the feed rows after `seq` up to `head` (both read in one snapshot) into FeedChanges, leaving
 * out `self`'s own. A reader further behind than the kept rows, or ahead of the table (a file replaced
 * under it), reloads everything.
 */
export function foldFeed(
  seq: number,
  head: number,
  rows: Iterable<{ writer: string; kind: string; key: string | null }>,
  self: string,
): FeedChanges {
  const out: FeedChanges = {
    last: head,
    contacts: [],
    listed: [],
    saved: false,
    all: seq < head - FEED_KEEP || seq > head,
  };
  if (out.all) return out;
  const ids = new Set<string>();
  // A writer's segment (FeedRecorder.segment) stands for these changes only when the rows read are
  // that one transaction's: one marker, its row count, every row from its writer.
  let read = 0,
    marker: { writer: string; nonce: string; rows: number } | undefined,
    markers = 0;
  const writers = new Set<string>();
  for (const r of rows) {
    read++;
    writers.add(r.writer);
    if (r.kind === 'segment') {
      const [nonce, n] = (r.key ?? '').split(' ');
      marker = { writer: r.writer, nonce, rows: Number(n) };
      markers++;
      continue;
    }
    if (r.writer === self) continue;
    if (r.kind === 'all') out.all ||= r.key !== LISTED;
    else if (r.kind === 'saved') out.saved = true;
    else if (r.kind === 'ids') out.listed.push(r.key!);
    else if (r.key !== null) ids.add(r.key);
  }
  if (!out.all) out.contacts = [...ids];
  else out.listed = [];
  if (
    !out.all &&
    marker &&
    markers === 1 &&
    marker.nonce &&
    marker.rows === read &&
    writers.size === 1 &&
    marker.writer !== self
  )
    out.segment = marker.nonce;
  return out;
}

/**
 * The ids of `ch.listed`, parsed a row at a time with `between` awaited after each (an id may come
 * twice: once listed, once in `contacts` or another row; applying a change twice is harmless).
 */
export async function listedIds(
  ch: Pick<FeedChanges, 'listed'>,
  between: () => Promise<void> = async () => {},
): Promise<string[]> {
  const out: string[] = [];
  for (const text of ch.listed) {
    for (const id of JSON.parse(text) as string[]) out.push(id);
    await between();
  }
  return out;
}

/** How many ids `ch.listed` holds, without parsing them (the rows are JSON arrays of strings). */
export function listedCount(ch: Pick<FeedChanges, 'listed'>): number {
  let n = 0;
  for (const text of ch.listed) if (text.length > 2) n += text.split('","').length;
  return n;
}

/**
 * The store could not be reached or locked (PostgreSQL restarting, failing over, cut off; a SQLite
 * file held by another writer past the wait). ContactDatabase turns it into the Unavailable fault.
 */
export class StoreUnavailable extends Error {
  /**
   * @param reason what is wrong, for operators and the fault text (no SQL, no data).
   * @param mayHaveCommitted the connection dropped while COMMIT was on its way: the write may be in.
   */
  constructor(
    readonly reason: string,
    readonly mayHaveCommitted = false,
  ) {
    super(reason);
    this.name = 'StoreUnavailable';
  }
}

/** Whether the store answers now (what /healthz reports); `reason` says what is wrong when it does not. */
export interface StoreStatus {
  up: boolean;
  reason?: string;
}

export interface ContactStore {
  readonly backend: Backend;
  readonly feed: ChangeFeed;
  /** SQLite: the file, which a worker thread reads on its own to build the index (sqlite/read-all.ts). */
  readonly file?: string;
  /** Reachable now? Absent: always (a store in memory). */
  status?(): StoreStatus;
  /** Every contact, in batches, for building the index at open. */
  loadAll(batchSize?: number): AsyncIterable<Contact[]>;
  /** The stored contacts with these ids (absent ids left out), for tools that run without an index. */
  get(ids: readonly string[]): Promise<Contact[]>;
  count(): Promise<number>;
  /**
   * Where `count` reads a count kept by the writes (SQLite), the contacts counted themselves and the
   * kept one set right; off the thread that answers requests. For a count that disagrees.
   */
  recount?(): Promise<number>;
  /** Opens a transaction; the caller serialises them (one at a time per store). */
  begin(): Promise<StoreTransaction>;
  listSavedSearches(): Promise<SavedSearch[]>;
  putSavedSearch(s: SavedSearch): Promise<void>;
  /** true when it existed. */
  deleteSavedSearch(name: string): Promise<boolean>;
  /** Backend-specific facts for GetDatabaseInfo (file size, schema …); nothing secret. */
  describe(): Promise<Record<string, string | number>>;
  close(): Promise<void>;
}

/**
 * Applies a ChangeSet in one durable transaction. Replace is "upsert, then delete every other id",
 * which leaves the same contacts as clearing first.
 */
export async function applyChange(store: ContactStore, change: ChangeSet): Promise<void> {
  const tx = await store.begin();
  await inTransaction(tx, async () => {
    if (change.delete?.length) await tx.delete(change.delete);
    if (change.upsert?.length) await tx.put(change.upsert);
    if (change.replaceAll) await tx.deleteAllExcept((change.upsert ?? []).map((c) => c.ContactId));
  });
}
