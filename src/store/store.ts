/**
 * The store of record behind one interface (SQLite embedded, PostgreSQL for several nodes).
 * The in-memory search index is built from `loadAll` and kept in step by ContactDatabase;
 * a store only persists.
 */
import type { Contact, SavedSearch } from './contact.ts';

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

export interface ContactStore {
  readonly backend: Backend;
  /** Every contact, in batches, for building the index at open. */
  loadAll(batchSize?: number): AsyncIterable<Contact[]>;
  count(): Promise<number>;
  /** Applies a ChangeSet in one durable transaction. */
  apply(change: ChangeSet): Promise<void>;
  listSavedSearches(): Promise<SavedSearch[]>;
  putSavedSearch(s: SavedSearch): Promise<void>;
  /** true when it existed. */
  deleteSavedSearch(name: string): Promise<boolean>;
  /** Backend-specific facts for GetDatabaseInfo (file size, schema …); nothing secret. */
  describe(): Promise<Record<string, string | number>>;
  close(): Promise<void>;
}
