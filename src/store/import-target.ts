/**
 * Where an import writes (CONTRACT.md §5 ImportContacts): it looks up the contacts its rows name as
 * they were before it, then streams its good rows into ONE store transaction, slice by slice, and
 * commits or rolls back at the end — so a file read in slices is still all or nothing, and a crash
 * before the commit leaves none of it. The server's database adds its index (lookups from memory, the
 * index brought up to date after the commit); the import CLI writes to the store alone.
 */
import type { Contact } from '../fields/contact.ts';
import type { ContactScan } from '../fields/contact-scan.ts';
import type { ContactStore, StoreTransaction } from './store.ts';

export interface ImportTarget {
  /** The contacts with these ids as they were before this import (absent ids left out). */
  lookup(ids: readonly string[]): Promise<Map<string, Contact>>;
  /** Opens the import's one transaction. */
  begin(replaceAll: boolean): Promise<ImportWrite>;
  /**
   * For the likely-duplicate search: every contact as it was before this import, read by column
   * (`scan`, where an index holds them; undefined when it turns out none does) or else in batches
   * from the store (`existing`).
   */
  scan?(): ContactScan | undefined | Promise<ContactScan | undefined>;
  existing?(): AsyncIterable<readonly Contact[]>;
}

export interface ImportWrite {
  put(contacts: readonly Contact[]): Promise<void>;
  /** Commits; with replaceAll every contact whose id is not in `kept` is deleted first. Returns how many that deleted. */
  commit(kept: Iterable<string>): Promise<number>;
  rollback(): Promise<void>;
}

/**
 * Something that sees an import's writes as they go and has a last word before the commit: the import
 * CLI's segment (database/writer-segment.ts), which a server then loads instead of building one.
 */
export interface ImportTee<Sealed = unknown> {
  /** Contacts just put (in the transaction). */
  put(contacts: readonly Contact[]): void;
  /**
   * Just before the commit; may mark the transaction (StoreTransaction.segment). Never throws. What
   * it returns goes to ImportIndex.committed.
   */
  seal(tx: StoreTransaction): Promise<Sealed | undefined | void>;
  /** The write is rolled back or replaces everything: what was made for it is dropped. */
  abandon(): void;
}

/** What an index needs of an import: its lookups, and every written contact once the store has committed. */
export interface ImportIndex {
  get(id: string): Contact | undefined;
  /** Every contact, read by column. */
  scan(): ContactScan;
  committed(upserts: readonly Contact[], replaceAll: boolean, sealed?: unknown): Promise<void>;
}

/**
 * `scan`, without an index: the contacts read by column another way (the import CLI: from the
 * index snapshot beside the store, database/snapshot-index.ts), undefined when it cannot.
 */
export function importTarget(
  store: ContactStore,
  index?: ImportIndex,
  tee?: () => ImportTee | undefined,
  scan?: () => Promise<ContactScan | undefined>,
): ImportTarget {
  return {
    async lookup(ids) {
      const found = new Map<string, Contact>();
      if (index)
        for (const id of ids) {
          const c = index.get(id);
          if (c) found.set(id, c);
        }
      else for (const c of await store.get(ids)) found.set(c.ContactId, c);
      return found;
    },
    scan: index ? () => index.scan() : scan,
    existing: index ? undefined : () => store.loadAll(2_000),
    async begin(replaceAll) {
      const tx = await store.begin();
      const written: Contact[] = []; // for the index only: the CLI keeps nothing per row
      const seen = replaceAll ? undefined : tee?.(); // a Replace's feed row says "everything"
      return {
        async put(contacts) {
          await tx.put(contacts);
          if (index) for (const c of contacts) written.push(c);
          seen?.put(contacts);
        },
        async commit(kept) {
          let deleted = 0;
          let sealed: unknown;
          try {
            if (replaceAll) deleted = await tx.deleteAllExcept(kept);
            sealed = await seen?.seal(tx);
            await tx.commit();
          } catch (err) {
            seen?.abandon();
            await tx.rollback();
            throw err;
          }
          await index?.committed(written, replaceAll, sealed ?? undefined);
          return deleted;
        },
        rollback: () => {
          seen?.abandon();
          return tx.rollback();
        },
      };
    },
  };
}
