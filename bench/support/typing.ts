/** The requests of the benchmarks. The typing sessions: every prefix (≤ 12 characters) of a last name, "first last", an email or a phone of 300 contacts spread over a database file. */
import Database from 'better-sqlite3';
import type { Contact } from '../../src/fields/contact.ts';

export function sampleContacts(dbFile: string, count = 300): Contact[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    const n = (db.prepare('SELECT count(*) AS n FROM contacts').get() as { n: number }).n;
    const ids = Array.from({ length: count }, (_, i) => `C${String(1 + Math.floor((i * n) / count)).padStart(7, '0')}`);
    const rows = db.prepare(`SELECT doc FROM contacts WHERE contact_id IN (${ids.map(() => '?').join(',')})`).all(...ids) as { doc: string }[];
    return rows.map((r) => JSON.parse(r.doc) as Contact);
  } finally {
    db.close();
  }
}

export function typingSessions(sample: readonly Contact[]): string[] {
  const typing: string[] = [];
  sample.forEach((c, i) => {
    const s = [c.LastName ?? c.DisplayName, `${c.FirstName ?? ''} ${c.LastName ?? ''}`.trim(), c.Emails[0], c.Phones[0]][i % 4] ?? c.DisplayName;
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
    Query: (c.LastName ?? c.DisplayName).slice(0, 3), PageSize: 25, Facets: ['Country', 'Tags'],
    Filters: [{ Field: 'Country', Op: 'In', Values: [countries[i % 5], countries[(i + 1) % 5]] }, { Field: 'CreatedAt', Op: 'Gte', Values: ['2022-01-01'] }],
  }));
}
