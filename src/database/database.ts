/**
 * A contact database as the service uses it: the store of record plus the in-memory search index,
 * kept in step (a write commits to the store first, then updates the index, so a change is
 * visible to search at once and a failed commit changes neither).
 */
import type { DatabaseStats } from '../metrics/metrics.ts';
import type { Contact, SavedSearch } from '../fields/contact.ts';
import type { SearchIndex } from '../search/search-index.ts';
import type { ImportTarget } from '../store/import-target.ts';
import type { Backend, ChangeSet, StoreStatus } from '../store/store.ts';

export interface WriteSummary {
  inserted: number;
  updated: number;
  deleted: number;
}

export interface ContactDatabase {
  /** The configured DBName, in its configured case. */
  readonly name: string;
  readonly backend: Backend;
  /** Number of contacts. */
  readonly size: number;
  /** The in-memory index the reads run on (search/, search/select/): read it, never write it. */
  readonly index: SearchIndex;
  /** Moves with every change a read could see (contacts, saved searches): what cached read results are checked against. */
  readonly version: number;
  /**
   * Applies what other writers committed (worker processes, the import CLI, other nodes); called before
   * every answer. undefined when nothing moved (the usual case: one cheap check), else wait for it.
   * `arrival`: the request's arrival number (arrivals.ts); without it the feed is always read.
   */
  sync(arrival?: number): Promise<void> | undefined;
  get(contactId: string): Contact | undefined;
  /** Every contact (snapshot iteration over the index), for exports. */
  all(): Iterable<Contact>;
  /** Atomic: the store transaction commits, then the index is updated; on error nothing changed. */
  write(change: ChangeSet): Promise<WriteSummary>;
  /**
   * Runs `work` with the database's writes held: it reads (validation), then writes through `tx`, and
   * no other write lands in between — even when `work` lets the event loop through.
   */
  exclusive<T>(work: (tx: WriteTx) => Promise<T>): Promise<T>;
  savedSearches(): readonly SavedSearch[];
  savedSearch(name: string): SavedSearch | undefined;
  putSavedSearch(s: SavedSearch): Promise<void>;
  deleteSavedSearch(name: string): Promise<boolean>;
  describe(): Promise<Record<string, string | number>>;
  /** Whether its store answers now (GET /healthz). */
  status(): StoreStatus;
  /** Figures for /metrics; reads the store (the change feed's lag) but never waits long for it. */
  stats?(): Promise<DatabaseStats>;
  /** Calls `listener` each time a full build of the index is swapped in (a Replace, a big import). */
  onBuilt?(listener: () => void): void;
  close(): Promise<void>;
}

/** What `exclusive` hands its work: the import target, streaming into one transaction. */
export interface WriteTx {
  import: ImportTarget;
}

export interface DatabaseRegistry {
  /**
   * Case-insensitive; throws ServiceError UnknownDatabase (never treats the name as a path or SQL),
   * or Unavailable while the database is still loading at start (or failed to load).
   */
  get(name: string, where?: { parameter?: string; path?: string }): ContactDatabase;
  /** The same lookup without the errors: undefined for a name that is not configured or not loaded yet. */
  find(name: string): ContactDatabase | undefined;
  /** Every configured database, loaded or not. */
  names(): string[];
  /** The databases whose store does not answer now, with why (GET /healthz); empty when all do. */
  down(): { name: string; reason: string }[];
  /** The databases still being loaded at start, with the contacts read so far (GET /healthz); empty once all are searchable. */
  loading(): { name: string; read: number }[];
  close(): Promise<void>;
}
