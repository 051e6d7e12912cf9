/**
 * The one field schema (CONTRACT.md §3): headers, filters, validation, import columns and docs
 * are all derived from this table. Field names are the wire names.
 */

export type FieldType = 'String' | 'Date' | 'Number' | 'Boolean' | 'List';

export interface FieldDef {
  readonly name: FieldName;
  readonly label: string;
  readonly type: FieldType;
  /** Free text search looks at it (CONTRACT §4). */
  readonly searchable: boolean;
  readonly filterable: boolean;
  readonly sortable: boolean;
  /** Offered as Facets / Select options with counts. */
  readonly facetable: boolean;
  /** GetPredictiveOptions may suggest its values. */
  readonly predictive: boolean;
  /** Grid width in pixels. */
  readonly width: number;
  readonly align: 'Left' | 'Right' | 'Center';
  /** Display format hint for the grid (Date → `yyyy-MM-dd`, List → `, `-joined). */
  readonly format?: string;
  /** Ranking field class (CONTRACT §4: name > organisation > email > phone > other). */
  readonly rankClass?: 'name' | 'organisation' | 'email' | 'phone' | 'other';
  /** Import column aliases, matched case- and space-insensitively (Google Contacts and Outlook CSV names included). */
  readonly aliases: readonly string[];
  /** Derived or maintained by the service; never taken from an import. */
  readonly readOnly?: boolean;
  /** Maximum characters per value (per item for List). */
  readonly maxLength: number;
}

const f = (d: Partial<FieldDef> & Pick<FieldDef, 'name' | 'label' | 'type'>): FieldDef => ({
  searchable: false, filterable: true, sortable: true, facetable: false, predictive: false,
  width: 150, align: 'Left', aliases: [], maxLength: 256, ...d,
});

export const FIELDS = [
  f({ name: 'ContactId', label: 'Contact ID', type: 'String', width: 120, aliases: ['Id', 'Contact Id', 'UID'], maxLength: 64 }),
  f({ name: 'FirstName', label: 'First name', type: 'String', searchable: true, predictive: true, rankClass: 'name',
    aliases: ['First Name', 'Given Name', 'Forename'] }),
  f({ name: 'MiddleName', label: 'Middle name', type: 'String', searchable: true, rankClass: 'name',
    aliases: ['Middle Name', 'Additional Name'] }),
  f({ name: 'LastName', label: 'Last name', type: 'String', searchable: true, predictive: true, rankClass: 'name',
    aliases: ['Last Name', 'Family Name', 'Surname'] }),
  f({ name: 'DisplayName', label: 'Name', type: 'String', searchable: true, rankClass: 'name', width: 220, readOnly: true,
    aliases: ['Display Name', 'Full Name', 'Name'] }),
  f({ name: 'Organization', label: 'Organisation', type: 'String', searchable: true, predictive: true, facetable: true,
    rankClass: 'organisation', width: 200,
    aliases: ['Organisation', 'Company', 'Organization 1 - Name', 'Organization Name', 'Employer'] }),
  f({ name: 'JobTitle', label: 'Job title', type: 'String', searchable: true, predictive: true, rankClass: 'other',
    aliases: ['Job Title', 'Title', 'Organization 1 - Title', 'Position'] }),
  f({ name: 'Emails', label: 'Emails', type: 'List', searchable: true, sortable: false, rankClass: 'email', width: 220,
    aliases: ['Email', 'E-mail', 'E-mail Address', 'Email Address', 'E-mail 1 - Value', 'E-mail 2 Address', 'E-mail 3 Address', 'E-mail 2 - Value'],
    maxLength: 254 }),
  f({ name: 'Phones', label: 'Phones', type: 'List', searchable: true, sortable: false, rankClass: 'phone', width: 160,
    aliases: ['Phone', 'Telephone', 'Mobile Phone', 'Business Phone', 'Home Phone', 'Phone 1 - Value', 'Phone 2 - Value', 'Primary Phone', 'Other Phone'],
    maxLength: 64 }),
  f({ name: 'Street', label: 'Street', type: 'String', searchable: true, rankClass: 'other', width: 200,
    aliases: ['Address', 'Business Street', 'Home Street', 'Address 1 - Street', 'Street Address'] }),
  f({ name: 'City', label: 'City', type: 'String', searchable: true, predictive: true, facetable: true, rankClass: 'other',
    aliases: ['Town', 'Business City', 'Home City', 'Address 1 - City', 'Locality'] }),
  f({ name: 'Region', label: 'Region', type: 'String', searchable: true, predictive: true, facetable: true, rankClass: 'other',
    aliases: ['State', 'Province', 'County', 'Business State', 'Home State', 'Address 1 - Region'] }),
  f({ name: 'PostalCode', label: 'Postal code', type: 'String', searchable: true, rankClass: 'other', width: 100,
    aliases: ['Zip', 'Zip Code', 'Postcode', 'Business Postal Code', 'Home Postal Code', 'Address 1 - Postal Code'], maxLength: 32 }),
  f({ name: 'Country', label: 'Country', type: 'String', facetable: true, predictive: true, width: 80,
    aliases: ['Country Code', 'Business Country/Region', 'Home Country/Region', 'Address 1 - Country', 'Country/Region'], maxLength: 2 }),
  f({ name: 'Tags', label: 'Tags', type: 'List', searchable: true, sortable: false, facetable: true, predictive: true, rankClass: 'other',
    aliases: ['Tag', 'Labels', 'Categories', 'Group Membership'], maxLength: 64 }),
  f({ name: 'Notes', label: 'Notes', type: 'String', searchable: false, sortable: false, filterable: true, width: 300,
    aliases: ['Note', 'Comments'], maxLength: 4000 }),
  f({ name: 'CreatedAt', label: 'Created', type: 'Date', format: 'yyyy-MM-dd', width: 110, readOnly: true,
    aliases: ['Created', 'Created At'], maxLength: 40 }),
  f({ name: 'UpdatedAt', label: 'Updated', type: 'Date', format: 'yyyy-MM-dd', width: 110, readOnly: true,
    aliases: ['Updated', 'Updated At', 'Modified'], maxLength: 40 }),
] as const satisfies readonly FieldDef[];

export type FieldName =
  | 'ContactId' | 'FirstName' | 'MiddleName' | 'LastName' | 'DisplayName' | 'Organization' | 'JobTitle'
  | 'Emails' | 'Phones' | 'Street' | 'City' | 'Region' | 'PostalCode' | 'Country' | 'Tags' | 'Notes'
  | 'CreatedAt' | 'UpdatedAt';

const byLowerName = new Map<string, FieldDef>(FIELDS.map((d) => [d.name.toLowerCase(), d]));

/** Case-insensitive field lookup (CONTRACT §5: member names match case-insensitively; field names likewise). */
export function field(name: string): FieldDef | undefined {
  return byLowerName.get(name.toLowerCase());
}

/** Key for matching import headers: case- and space-insensitive (also ignores `_` and `-`). */
export function columnKey(header: string): string {
  return header.normalize('NFKC').toLowerCase().replace(/[\s_\-]+/g, '');
}
