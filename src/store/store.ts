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

/**
 * One open transaction, written in as many calls as the caller likes (an import streams its file
 * through one): nothing of it is visible to others, or survives a crash, before `commit`.
 */
export interface StoreTransaction {
  /** Inserts or replaces whole records. */
  put(contacts: readonly Contact[]): Promise<void>;
  /** Deletes these ids (absent ids are ignored). */
  delete(ids: readonly string[]): Promise<void>;
  /** Deletes every contact whose id is not in `keep` (Mode Replace, applied last); returns how many. */
  deleteAllExcept(keep: Iterable<string>): Promise<number>;
  commit(): Promise<void>;
  /** Undoes everything; safe to call after a failed call or twice. */
  rollback(): Promise<void>;
}

export interface ContactStore {
  readonly backend: Backend;
  /** Every contact, in batches, for building the index at open. */
  loadAll(batchSize?: number): AsyncIterable<Contact[]>;
  /** The stored contacts with these ids (absent ids left out), for tools that run without an index. */
  get(ids: readonly string[]): Promise<Contact[]>;
  count(): Promise<number>;
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
  try {
    if (change.delete?.length) await tx.delete(change.delete);
    if (change.upsert?.length) await tx.put(change.upsert);
    if (change.replaceAll) await tx.deleteAllExcept((change.upsert ?? []).map((c) => c.ContactId));
    await tx.commit();
  } catch (err) {
    await tx.rollback();
    throw err;
  }
}
