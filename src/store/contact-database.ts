/**
 * ContactDatabase: the store of record plus the in-memory search index, kept in step. A write commits
 * to the store first and only then touches the index, so a failed commit changes neither and a
 * committed one is visible to the next search at once. Writes are serialised per database.
 */
import { IndexLoader, SearchIndex } from '../search/search-index.ts';
import type { Contact, SavedSearch } from './contact.ts';
import type { ContactDatabase, WriteSummary } from './database.ts';
import type { ChangeSet, ContactStore } from './store.ts';

export class IndexedContactDatabase implements ContactDatabase {
  readonly index = new SearchIndex();
  private saved = new Map<string, SavedSearch>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(readonly name: string, private readonly store: ContactStore) {}

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

  get(contactId: string): Contact | undefined {
    return this.index.get(contactId);
  }

  all(): Iterable<Contact> {
    return this.index.all();
  }

  write(change: ChangeSet): Promise<WriteSummary> {
    const run = async (): Promise<WriteSummary> => {
      const summary: WriteSummary = { inserted: 0, updated: 0, deleted: 0 };
      const willDelete = new Set(change.replaceAll ? [...this.index.ordinals()].map((o) => this.index.table.value(o, 'ContactId')!) : change.delete ?? []);
      for (const c of change.upsert ?? []) {
        if (!change.replaceAll && this.index.ordinalOf(c.ContactId) !== undefined) summary.updated++;
        else summary.inserted++;
        willDelete.delete(c.ContactId);
      }
      for (const id of willDelete) if (this.index.ordinalOf(id) !== undefined) summary.deleted++;
      await this.store.apply(change); // throws → nothing changed, the index is untouched
      if (change.replaceAll) this.index.build(change.upsert ?? []);
      else this.index.apply(change.delete ?? [], change.upsert ?? []);
      return summary;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  savedSearches(): readonly SavedSearch[] {
    return [...this.saved.values()];
  }

  savedSearch(name: string): SavedSearch | undefined {
    return this.saved.get(name.toLowerCase());
  }

  async putSavedSearch(s: SavedSearch): Promise<void> {
    await this.store.putSavedSearch(s);
    this.saved.set(s.Name.toLowerCase(), s);
  }

  async deleteSavedSearch(name: string): Promise<boolean> {
    const existed = await this.store.deleteSavedSearch(name);
    this.saved.delete(name.toLowerCase());
    return existed;
  }

  describe() {
    return this.store.describe();
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
