/** The contact record (CONTRACT.md §3) as stored and indexed. */

export interface Contact {
  ContactId: string;
  /** Honorific: "Dr.", "Mr.", "Frau". */
  NamePrefix?: string;
  FirstName?: string;
  MiddleName?: string;
  LastName?: string;
  /** "Jr.", "PhD". */
  NameSuffix?: string;
  /** Derived: "First Middle Last", or the organisation when there is no name (see deriveDisplayName). */
  DisplayName: string;
  Nickname?: string;
  /** Reading (phonetic) names, as phones keep them for Japanese and Chinese names. */
  PhoneticFirstName?: string;
  PhoneticLastName?: string;
  Organization?: string;
  Department?: string;
  JobTitle?: string;
  Emails: string[];
  /**
   * Parallel to Emails: EmailLabels[i] ("work", "home", a custom label) labels Emails[i]; '' for none.
   * Absent or shorter than Emails when the last emails have no label (never longer).
   */
  EmailLabels?: string[];
  /** As entered; matched by digits. */
  Phones: string[];
  /** Parallel to Phones, as EmailLabels is to Emails ("mobile", "work fax" …). */
  PhoneLabels?: string[];
  Websites?: string[];
  /** `YYYY-MM-DD`, or `--MM-DD` when the year is not known. */
  Birthday?: string;
  /** What the one address is ("work", "home", a custom label). */
  AddressLabel?: string;
  /** Street lines, joined by line breaks. */
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

export function deriveDisplayName(
  c: Pick<Contact, 'FirstName' | 'MiddleName' | 'LastName' | 'Organization'>,
): string {
  const name = [c.FirstName, c.MiddleName, c.LastName]
    .filter((s) => s && s.trim())
    .join(' ')
    .trim();
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
