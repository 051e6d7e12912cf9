/** The contact record (CONTRACT.md §3) as stored and indexed. */

export interface Contact {
  ContactId: string;
  FirstName?: string;
  MiddleName?: string;
  LastName?: string;
  /** Derived: "First Middle Last", or the organisation when there is no name (see deriveDisplayName). */
  DisplayName: string;
  Organization?: string;
  JobTitle?: string;
  Emails: string[];
  /** As entered; matched by digits. */
  Phones: string[];
  Street?: string;
  City?: string;
  Region?: string;
  PostalCode?: string;
  /** ISO 3166-1 alpha-2, upper case. */
  Country?: string;
  Tags: string[];
  Notes?: string;
  /** ISO 8601 UTC. */
  CreatedAt: string;
  UpdatedAt: string;
}

export function deriveDisplayName(c: Pick<Contact, 'FirstName' | 'MiddleName' | 'LastName' | 'Organization'>): string {
  const name = [c.FirstName, c.MiddleName, c.LastName].filter((s) => s && s.trim()).join(' ').trim();
  return name || (c.Organization ?? '').trim();
}

export interface SavedSearch {
  Name: string;
  Query?: string;
  Filters?: unknown[];
  Sort?: unknown[];
  Fields?: string[];
  CreatedAt: string;
  UpdatedAt: string;
}
