/**
 * A database's saved searches as last read from or written to its store, by lower-cased name, and how
 * often they changed (part of the database's version, which keys the result cache).
 */
import type { SavedSearch } from '../fields/contact.ts';

export class SavedSearches {
  private byName = new Map<string, SavedSearch>();
  /** Bumped by every load, put and delete. */
  changes = 0;

  /** All of them, replacing what was held (a load from the store). */
  replace(all: readonly SavedSearch[]): void {
    this.byName = new Map(all.map((s) => [s.Name.toLowerCase(), s]));
    this.changes++;
  }

  list(): readonly SavedSearch[] {
    return [...this.byName.values()];
  }

  get(name: string): SavedSearch | undefined {
    return this.byName.get(name.toLowerCase());
  }

  put(s: SavedSearch): void {
    this.byName.set(s.Name.toLowerCase(), s);
    this.changes++;
  }

  delete(name: string): void {
    this.byName.delete(name.toLowerCase());
    this.changes++;
  }
}
