/**
 * Contacts read by column, for a pass over every contact that tests a few fields of each (an import's
 * likely-duplicate search over a million): implemented by the search index's table (SearchIndex.scan),
 * handed to the service through the import target (store/import-target.ts).
 */
import type { Contact } from './contact.ts';
import type { FieldName } from './schema.ts';

export interface ContactScan {
  /** The live rows, in the index's order. */
  rows(): Iterable<number>;
  /** `fn` of a field's values, asked once per distinct value where the column shares them (Column.memo). */
  memo<T>(field: FieldName, fn: (value: string) => T): ValueMemo<T>;
  /** The row's contact as a view: members read when first asked, for reading by name only. */
  view(row: number): Contact;
  /**
   * The live rows, ascending, that may hold one of `emails` (an address compared as the index folds
   * it: search/normalize.ts) or a phone whose digits end with one of `phoneEnds`: a superset, read
   * from the index's terms (search/index/term-rows.ts, in time slices), not from every row. Absent:
   * read every row.
   */
  rowsWith?(emails: readonly string[], phoneEnds: readonly string[]): Promise<Uint32Array>;
}

/** A function of a field's values, read by row. */
export interface ValueMemo<T> {
  /** Of the row's value (a list's first item); undefined when absent. */
  first(row: number): T | undefined;
  /** Whether `test` says yes of any of the row's values (none: no). */
  some(row: number, test: (t: T) => boolean): boolean;
}
