/**
 * ContactDatabase: the store of record plus the in-memory search index, kept in step. A write commits
 * to the store first and only then touches the index, so a failed commit changes neither and a
 * committed one is visible to the next search at once. Writes are serialised per database.
 */
import { IndexLoader, SearchIndex } from '../search/search-index.ts';
import type { Contact, SavedSearch } from './contact.ts';
import type { ContactDatabase, WriteSummary, WriteTx } from './database.ts';
import { importTarget, type ImportTarget } from './import-target.ts';
import { applyChange, type ChangeSet, type ContactStore } from './store.ts';

export class IndexedContactDatabase implements ContactDatabase {
  readonly index = new SearchIndex();
  private saved = new Map<string, SavedSearch>();
  private queue: Promise<unknown> = Promise.resolve();
  private savedChanges = 0;
  /** Imports look up and write through this (only ever used inside `exclusive`). */
  private readonly importer: ImportTarget;

  private constructor(readonly name: string, private readonly store: ContactStore) {
    this.importer = importTarget(store, { get: (id) => this.get(id), committed: (upserts, replaceAll) => this.indexChange([], upserts, replaceAll) });
  }

  static async open(name: string, store: ContactStore): Promise<IndexedContactDatabase> {
    const db = new IndexedContactDatabase(name, store);
    const loader = new IndexLoader();
    for await (const batch of store.loadAll()) for (const c of batch) loader.add(c);
    db.index.buildFrom(loader);
    for (const s of await store.listSavedSearches()) db.saved.set(s.Name.toLowerCase(), s);
    return db;
  }

  get backend() {
    return this.store.backend;
  }

  get size(): number {
    return this.index.size;
  }

  /** Both counters only grow, so their sum moves whenever either does. */
  get version(): number {
    return this.index.version + this.savedChanges;
  }

  get(contactId: string): Contact | undefined {
    return this.index.get(contactId);
  }

  all(): Iterable<Contact> {
    return this.index.all();
  }

  write(change: ChangeSet): Promise<WriteSummary> {
    return this.serially(() => this.writeNow(change));
  }

  exclusive<T>(work: (tx: WriteTx) => Promise<T>): Promise<T> {
    return this.serially(() => work({ import: this.importer }));
  }

  /** A write, run inside the queue. */
  private async writeNow(change: ChangeSet): Promise<WriteSummary> {
    const summary: WriteSummary = { inserted: 0, updated: 0, deleted: 0 };
    const willDelete = new Set(change.replaceAll ? this.index.ordinals().map((o) => this.index.table.value(o, 'ContactId')!) : change.delete ?? []);
    for (const c of change.upsert ?? []) {
      if (!change.replaceAll && this.index.ordinalOf(c.ContactId) !== undefined) summary.updated++;
      else summary.inserted++;
      willDelete.delete(c.ContactId);
    }
    for (const id of willDelete) if (this.index.ordinalOf(id) !== undefined) summary.deleted++;
    await applyChange(this.store, change); // throws → nothing changed, the index is untouched
    await this.indexChange(change.delete ?? [], change.upsert ?? [], change.replaceAll ?? false);
    return summary;
  }

  /**
   * Brings the index up to a committed change. One the delta cannot hold (an import) rebuilds the base
   * step by step, searches answering from the current index meanwhile; it resolves once the new index is in.
   */
  private async indexChange(deletes: readonly string[], upserts: readonly Contact[], replaceAll: boolean): Promise<void> {
    if (replaceAll || this.index.isBigChange(deletes.length + upserts.length)) await this.index.rebuildWith(deletes, upserts, replaceAll);
    else {
      this.index.applyToDelta(deletes, upserts);
      if (this.index.deltaFull) await this.index.rebuildWith([], []); // single writes filled the delta
    }
  }

  savedSearches(): readonly SavedSearch[] {
    return [...this.saved.values()];
  }

  savedSearch(name: string): SavedSearch | undefined {
    return this.saved.get(name.toLowerCase());
  }

  putSavedSearch(s: SavedSearch): Promise<void> {
    return this.serially(async () => {
      await this.store.putSavedSearch(s);
      this.saved.set(s.Name.toLowerCase(), s);
      this.savedChanges++;
    });
  }

  deleteSavedSearch(name: string): Promise<boolean> {
    return this.serially(async () => {
      const existed = await this.store.deleteSavedSearch(name);
      this.saved.delete(name.toLowerCase());
      this.savedChanges++;
      return existed;
    });
  }

  /** Every store write runs alone: a write may span several turns of the event loop (sliced transactions). */
  private serially<T>(run: () => Promise<T>): Promise<T> {
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  describe() {
    return this.store.describe();
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
