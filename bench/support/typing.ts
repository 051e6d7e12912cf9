/**
 * The requests of the benchmarks.
 * - Distinct typing traffic (the lead figure of bench:http and bench:typing, issue 22): every distinct
 *   prefix a user types to find a contact by name: 1–5 characters of a first name, alone or followed
 *   by a space and 1–4 characters of the last name, over all the database's contacts, in a seeded
 *   shuffled order, each sent once (so a result cache never answers one).
 * - The typing sessions: every prefix (≤ 12 characters) of a last name, "first last", an email or a
 *   phone of 300 contacts spread over a database file (the "one typing session replayed" figure).
 */
import { SimpleFaker } from '@faker-js/faker';
import Database from 'better-sqlite3';
import type { Contact } from '../../src/fields/contact.ts';

export function sampleContacts(dbFile: string, count = 300): Contact[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    const n = (db.prepare('SELECT count(*) AS n FROM contacts').get() as { n: number }).n;
    const ids = Array.from(
      { length: count },
      (_, i) => `C${String(1 + Math.floor((i * n) / count)).padStart(7, '0')}`,
    );
    const rows = db
      .prepare(`SELECT doc FROM contacts WHERE contact_id IN (${ids.map(() => '?').join(',')})`)
      .all(...ids) as { doc: string }[];
    return rows.map((r) => JSON.parse(r.doc) as Contact);
  } finally {
    db.close();
  }
}

export interface PersonName {
  readonly first?: string | null;
  readonly last?: string | null;
}

/**
 * Every contact's FirstName and LastName, in ContactId order (no full parse of the documents: fast at
 * 1M); the first `limit` contacts' only when given (bench:memory at 10M).
 */
export function contactNames(dbFile: string, limit = -1): PersonName[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT json_extract(doc, '$.FirstName') AS first, json_extract(doc, '$.LastName') AS last FROM contacts ORDER BY contact_id LIMIT ?`,
      )
      .all(limit) as PersonName[];
  } finally {
    db.close();
  }
}

/** Characters of the first name and of the last name a distinct typing query holds, at most. */
export const FIRST_NAME_CHARS = 5;
export const LAST_NAME_CHARS = 4;
/** The shuffle's seed: the same database always gives the same queries in the same order. */
export const TYPING_SEED = 22;

/**
 * The distinct typing queries of a set of names: for a first name F and last name L, F's first 1–5
 * characters (code points, as written), alone or followed by a space and L's first 1–4 characters.
 * A prefix is trimmed at its end (a name with a space inside gives "Mary", not "Mary "), empty ones
 * are dropped, and each string is kept once. Contacts without a first name (companies) give none.
 * The list is sorted (code-unit order) and shuffled with a seeded PRNG, so the order depends on the
 * set of names only, not on their order.
 */
export function distinctTypingQueries(names: Iterable<PersonName>, seed = TYPING_SEED): string[] {
  // Names repeat (pools of first and last names): their prefixes are made once, and the pairs are
  // collected per first-name prefix, so a million contacts need no string built per contact.
  const memo = new Map<string, string[]>();
  const prefixes = (name: string, max: number) => {
    const key = max + name;
    let out = memo.get(key);
    if (out) return out;
    out = [];
    const chars = Array.from(name.trim());
    for (let k = 1; k <= Math.min(max, chars.length); k++) {
      const p = chars.slice(0, k).join('').trimEnd();
      if (p && !out.includes(p)) out.push(p);
    }
    memo.set(key, out);
    return out;
  };
  const lastsAfter = new Map<string, Set<string>>();
  for (const { first, last } of names) {
    if (!first?.trim()) continue;
    const lasts = last?.trim() ? prefixes(last, LAST_NAME_CHARS) : [];
    for (const f of prefixes(first, FIRST_NAME_CHARS)) {
      let set = lastsAfter.get(f);
      if (!set) lastsAfter.set(f, (set = new Set()));
      for (const l of lasts) set.add(l);
    }
  }
  const all: string[] = [];
  for (const [f, lasts] of lastsAfter) {
    all.push(f);
    for (const l of lasts) all.push(`${f} ${l}`);
  }
  // Code-unit order, independent of the order the names came in; a first name with a space inside can
  // spell a pair ("Li N" of "Li Na" and of "Li" + "N…"): the sort puts such twins side by side.
  all.sort();
  const distinct = all.filter((q, i) => i === 0 || q !== all[i - 1]);
  return new SimpleFaker({ seed }).helpers.shuffle(distinct, { inplace: true });
}

export function typingSessions(sample: readonly Contact[]): string[] {
  const typing: string[] = [];
  sample.forEach((c, i) => {
    const s =
      [
        c.LastName ?? c.DisplayName,
        `${c.FirstName ?? ''} ${c.LastName ?? ''}`.trim(),
        c.Emails[0],
        c.Phones[0],
      ][i % 4] ?? c.DisplayName;
    for (let k = 1; k <= Math.min(s.length, 12); k++) typing.push(s.slice(0, k));
  });
  return typing;
}

/**
 * The faceted GetSearchResults requests of bench:http and bench:faceted: a 3-letter prefix of the
 * last name of the first 100 sampled contacts, Country In two values, CreatedAt Gte 2022-01-01,
 * facets Country and Tags, page 1 of 25.
 */
export function facetedSearches(sample: readonly Contact[]) {
  const countries = ['US', 'DE', 'FR', 'GB', 'SE'];
  return sample.slice(0, 100).map((c, i) => ({
    Query: (c.LastName ?? c.DisplayName).slice(0, 3),
    PageSize: 25,
    Facets: ['Country', 'Tags'],
    Filters: [
      { Field: 'Country', Op: 'In', Values: [countries[i % 5], countries[(i + 1) % 5]] },
      { Field: 'CreatedAt', Op: 'Gte', Values: ['2022-01-01'] },
    ],
  }));
}
