/**
 * The JSON side of the operations, beside the operation table's wire facts: the members each
 * operation reads from StringOfJSONParameters and the document it answers. One description serves
 * three readers: the operations validate their members with it (service/request-members.ts), the
 * docs are generated from it (src/docs/generate.ts → docs/OPERATIONS.md), and
 * test/documents.test.ts runs every operation and fails when an answer has a member
 * this file does not describe or lacks one it does.
 *
 * Over 400 lines because it is a table: one description per operation and per shape; splitting it
 * would scatter the one place the JSON documents are described.
 */
import type { OperationName } from './table.ts';

/** A bound that is a setting: the member of `limits` (config) that holds it. */
export type LimitName = 'textChars' | 'limit' | 'pageSize' | 'filters' | 'valuesPerFilter';
export type Bound = number | LimitName;

/**
 * A JSON member. `type` is how the docs write it and how the test checks it: `string`, `integer`,
 * `boolean`, `any`, `object` (members named by data, e.g. a row's field names), a shape of SHAPES
 * by name, or any of these followed by `[]` for a list.
 */
export interface Member {
  readonly name: string;
  readonly type: string;
  readonly description: string;
  /** May be `null` in an answer. */
  readonly nullable?: boolean;
  /** May be absent from an answer (absent and null are the same in a request). */
  readonly optional?: boolean;
  readonly required?: boolean;
  readonly default?: string | number | boolean;
  /** Request members: the most characters (string) or the largest value (integer) accepted. */
  readonly maxLength?: Bound;
  readonly min?: number;
  readonly max?: Bound;
  /**
   * Request members the shared selection readers check (Query, Filters, Sort, Fields, Facets:
   * service/read-selection.ts): the operation takes them as sent and hands them over.
   */
  readonly selection?: boolean;
}

export interface Shape {
  readonly description: string;
  readonly members: readonly Member[];
}

export interface OperationDocument {
  /** Members of StringOfJSONParameters, in the order an UnknownMember error lists them. */
  readonly request: readonly Member[];
  /** Members of the answered document (AsType JSON, XML, InternalUse); absent for ProcessRequest. */
  readonly response?: readonly Member[];
  /** What a string result holds (ProcessRequest). */
  readonly responseText?: string;
}

const QUERY: Member = {
  name: 'Query',
  type: 'string',
  maxLength: 'textChars',
  selection: true,
  description:
    'Free text, matched and ranked as docs/SEARCH.md describes; empty matches every contact.',
};
const FILTERS: Member = {
  name: 'Filters',
  type: 'Filter[]',
  max: 'filters',
  selection: true,
  description: 'Filters, all of which a contact must pass.',
};
const TEXT: Member = {
  name: 'Text',
  type: 'string',
  maxLength: 'textChars',
  description: 'What the user has typed so far.',
};
const LIMIT: Member = {
  name: 'Limit',
  type: 'integer',
  min: 1,
  max: 'limit',
  default: 10,
  description: 'How many options to answer.',
};
const VIEW: Member = {
  name: 'View',
  type: 'string',
  maxLength: 128,
  description: '`Default`, `Compact`, `Export` or the name of a saved search (case-insensitive).',
};
const MORE: Member = {
  name: 'More',
  type: 'boolean',
  description: 'More options than Limit match.',
};

export const DOCUMENTS: Record<OperationName, OperationDocument> = {
  GetPredictiveOptionsSearchContacts: {
    request: [
      TEXT,
      LIMIT,
      {
        ...QUERY,
        description:
          'Narrows the candidates (matched as in GetSearchResults); Text alone ranks them.',
      },
      { ...FILTERS, description: 'Narrow the candidates, as in GetSearchResults.' },
    ],
    response: [
      { name: 'Text', type: 'string', description: 'Text as sent.' },
      {
        name: 'Options',
        type: 'ContactOption[]',
        description: 'Best first; empty when Text is empty or blank.',
      },
      MORE,
    ],
  },
  GetPredictiveOptions: {
    request: [
      {
        name: 'Field',
        type: 'string',
        required: true,
        maxLength: 64,
        description: 'A field with value suggestions (Predictive in docs/FIELDS.md).',
      },
      TEXT,
      LIMIT,
      { ...QUERY, description: 'Counts are taken over the contacts this matches.' },
      { ...FILTERS, description: 'Counts are taken over the contacts these pass.' },
    ],
    response: [
      { name: 'Field', type: 'string', description: 'The field, as the schema names it.' },
      { name: 'Text', type: 'string', description: 'Text as sent.' },
      {
        name: 'Options',
        type: 'ValueOption[]',
        description:
          'Distinct values of Field in which each typed word starts a different word, by Count descending, then Label.',
      },
      MORE,
    ],
  },
  GetSearchResults: {
    request: [
      QUERY,
      FILTERS,
      {
        name: 'Sort',
        type: 'Sort[]',
        selection: true,
        description:
          'Sort keys in order; default relevance when Query is given, else LastName, FirstName. Ties by ContactId.',
      },
      {
        name: 'Page',
        type: 'integer',
        min: 1,
        max: 1_000_000,
        default: 1,
        description: 'Page number, 1-based.',
      },
      {
        name: 'PageSize',
        type: 'integer',
        min: 1,
        max: 'pageSize',
        default: 25,
        description: 'Rows per page.',
      },
      {
        name: 'After',
        type: 'string',
        maxLength: 4096,
        description:
          'The `Next` of the previous page of the same Query, Filters and Sort: stable deep paging (Page is then ignored).',
      },
      VIEW,
      {
        name: 'Fields',
        type: 'string[]',
        selection: true,
        description: "Field names to return instead of the view's.",
      },
      {
        name: 'Facets',
        type: 'string[]',
        selection: true,
        description: 'Facetable fields to count values of.',
      },
    ],
    response: [
      { name: 'Total', type: 'integer', description: 'Exact number of matching contacts.' },
      {
        name: 'Page',
        type: 'integer',
        nullable: true,
        description: 'The page; null when After was given.',
      },
      { name: 'PageSize', type: 'integer', description: 'Rows per page.' },
      {
        name: 'Next',
        type: 'string',
        nullable: true,
        description: 'Opaque cursor for After; null on the last page.',
      },
      {
        name: 'Headers',
        type: 'string[]',
        description: 'The field names of each row, ContactId first unless the view places it.',
      },
      {
        name: 'Rows',
        type: 'object[]',
        description:
          'One object per contact, member names as in Headers: a string, a list of strings (List fields) or null.',
      },
      {
        name: 'Facets',
        type: 'Facet[]',
        description:
          "One per requested facet, in request order; counts apply Query and every filter except the field's own.",
      },
    ],
  },
  GetSearchResultHeaders: {
    request: [
      VIEW,
      {
        name: 'Fields',
        type: 'string[]',
        selection: true,
        description: 'Field names for a custom grid (View is then `Custom`).',
      },
    ],
    response: [
      { name: 'View', type: 'string', description: 'The view answered (`Custom` for Fields).' },
      {
        name: 'Headers',
        type: 'Header[]',
        description: "The view's columns in display order, then every other field, hidden.",
      },
    ],
  },
  GetSearchFilters: {
    request: [
      QUERY,
      FILTERS,
      { ...VIEW, description: 'A saved search whose Query and Filters apply when none are given.' },
    ],
    response: [
      {
        name: 'Filters',
        type: 'FilterPanelEntry[]',
        description: 'One entry per filterable field, in schema order.',
      },
    ],
  },
  GetRequestSupport: {
    request: [
      {
        name: 'Request',
        type: 'string',
        maxLength: 64,
        description: 'One ProcessRequest request to describe; default all.',
      },
    ],
    response: [
      {
        name: 'Requests',
        type: 'RequestDescription[]',
        description: 'What ProcessRequest accepts, from the definitions it validates against.',
      },
    ],
  },
  ProcessRequest: {
    request: [
      {
        name: 'Request',
        type: 'string',
        required: true,
        description: 'Which request; its members follow (see "ProcessRequest requests").',
      },
    ],
    responseText:
      'A string holding an XML document `<Response Request="…" Status="OK|Partial|Rejected">…</Response>` (docs/PROCESS-REQUEST.md).',
  },
};

const VALUE_OPTION: Member[] = [
  { name: 'Value', type: 'string', description: 'The value as stored.' },
  { name: 'Label', type: 'string', description: 'What to show.' },
  { name: 'Count', type: 'integer', description: 'Contacts that have it.' },
];

/** The object shapes the members above name, requests' and answers' alike. */
export const SHAPES: Record<string, Shape> = {
  Filter: {
    description:
      'A filter of a request, e.g. `{"Field":"Country","Op":"In","Values":["US","CA"]}`.',
    members: [
      { name: 'Field', type: 'string', required: true, description: 'A filterable field.' },
      {
        name: 'Op',
        type: 'string',
        default: 'Eq',
        description: 'An operator the field\'s type allows (see "Filter operators").',
      },
      {
        name: 'Values',
        type: 'string[]',
        max: 'valuesPerFilter',
        description: 'The operands (strings, numbers or booleans); dates as ISO 8601.',
      },
      {
        name: 'Value',
        type: 'string',
        optional: true,
        description: 'One operand, instead of Values.',
      },
    ],
  },
  Sort: {
    description: 'A sort key of a request, e.g. `{"Field":"LastName","Dir":"Asc"}`.',
    members: [
      {
        name: 'Field',
        type: 'string',
        required: true,
        description: 'A sortable field; case- and accent-insensitive order.',
      },
      { name: 'Dir', type: 'string', default: 'Asc', description: '`Asc` or `Desc`.' },
    ],
  },
  ContactOption: {
    description: 'A type-ahead option.',
    members: [
      { name: 'ContactId', type: 'string', description: 'The contact.' },
      { name: 'Label', type: 'string', description: 'Its DisplayName.' },
      {
        name: 'Description',
        type: 'string',
        description: 'Organisation · first email (what of them there is).',
      },
      {
        name: 'Matches',
        type: 'Match[]',
        description: 'What matched, by Field then Start, for highlighting.',
      },
    ],
  },
  Match: {
    description: "Matched characters in a field's original (not normalised) text.",
    members: [
      { name: 'Field', type: 'string', description: 'The field.' },
      {
        name: 'Item',
        type: 'integer',
        optional: true,
        description: 'Index in a List field (Emails, Phones, Tags); absent for other fields.',
      },
      { name: 'Start', type: 'integer', description: 'First matched UTF-16 code unit.' },
      { name: 'Length', type: 'integer', description: 'Matched code units.' },
    ],
  },
  ValueOption: { description: 'A value with its count.', members: VALUE_OPTION },
  Facet: {
    description: 'The value counts of one field.',
    members: [
      { name: 'Field', type: 'string', description: 'The field.' },
      { name: 'Values', type: 'ValueOption[]', description: 'By Count descending, then Label.' },
    ],
  },
  Header: {
    description: 'A column of the result grid, from the field schema (docs/FIELDS.md).',
    members: [
      { name: 'Field', type: 'string', description: 'The field.' },
      { name: 'Label', type: 'string', description: 'Column title.' },
      {
        name: 'Type',
        type: 'string',
        description: '`String`, `Date`, `Number`, `Boolean` or `List`.',
      },
      { name: 'Sortable', type: 'boolean', description: 'May be a Sort key.' },
      { name: 'Width', type: 'integer', description: 'Default width.' },
      { name: 'Align', type: 'string', description: '`Left`, `Right` or `Center`.' },
      { name: 'Format', type: 'string', nullable: true, description: 'Display format hint.' },
      { name: 'Visible', type: 'boolean', description: 'Part of the view.' },
    ],
  },
  FilterPanelEntry: {
    description: 'One control of the filter panel.',
    members: [
      { name: 'Field', type: 'string', description: 'The field.' },
      { name: 'Label', type: 'string', description: 'What to show.' },
      { name: 'Type', type: 'string', description: "The field's type." },
      {
        name: 'Control',
        type: 'string',
        description:
          '`Text`, `Predictive`, `MultiSelect`, `DateRange`, `NumberRange` or `Checkbox` (a field with too many values to list is `Predictive` or `Text`).',
      },
      { name: 'Operators', type: 'string[]', description: 'The operators a Filter on it may use.' },
      {
        name: 'Options',
        type: 'ValueOption[]',
        nullable: true,
        description: 'MultiSelect: the values with disjunctive counts; else null.',
      },
      {
        name: 'Min',
        type: 'string',
        nullable: true,
        description: 'Ranges: the smallest value under the other filters; else null.',
      },
      {
        name: 'Max',
        type: 'string',
        nullable: true,
        description: 'Ranges: the largest value; else null.',
      },
      {
        name: 'Selected',
        type: 'string[]',
        description: "The values the request's Filters give this field.",
      },
    ],
  },
  RequestDescription: {
    description: 'One ProcessRequest request.',
    members: [
      { name: 'Request', type: 'string', description: 'Its name.' },
      { name: 'Description', type: 'string', description: 'What it does.' },
      {
        name: 'Scope',
        type: 'string',
        description: 'The API key scope it needs: `read` or `write`.',
      },
      {
        name: 'Parameters',
        type: 'RequestParameter[]',
        description: 'Its JSON members besides Request.',
      },
      {
        name: 'File',
        type: 'FileDescription',
        nullable: true,
        description: 'For requests that carry a file; else null.',
      },
    ],
  },
  RequestParameter: {
    description: 'A member of a ProcessRequest request.',
    members: [
      { name: 'Name', type: 'string', description: 'Member name.' },
      {
        name: 'Type',
        type: 'string',
        description: '`String`, `Integer`, `Boolean`, `List`, `Records`, `Filters` or `Sort`.',
      },
      { name: 'Required', type: 'boolean', description: 'Must be given.' },
      { name: 'Default', type: 'any', nullable: true, description: 'Value when absent.' },
      {
        name: 'Values',
        type: 'string[]',
        nullable: true,
        description: 'The allowed values, when a fixed list.',
      },
      { name: 'Description', type: 'string', description: 'What it is.' },
    ],
  },
  FileDescription: {
    description: 'What an import file may hold.',
    members: [
      { name: 'Formats', type: 'string[]', description: 'File formats.' },
      {
        name: 'Columns',
        type: 'FileColumn[]',
        description: 'Columns (CSV headers, JSON members) from the field schema.',
      },
      { name: 'MaxBytes', type: 'integer', description: 'Largest request body.' },
      { name: 'Encodings', type: 'string[]', description: 'How Content may be carried.' },
    ],
  },
  FileColumn: {
    description: 'A column an import reads.',
    members: [
      { name: 'Name', type: 'string', description: 'Field name.' },
      {
        name: 'Aliases',
        type: 'string[]',
        description: 'Other headers read as this field (Google, Outlook exports).',
      },
      { name: 'Type', type: 'string', description: "The field's type." },
      { name: 'Required', type: 'boolean', description: 'Must be present.' },
    ],
  },
  Internal: {
    description: 'Diagnostics added by AsType InternalUse (the search page shows them).',
    members: [
      { name: 'ElapsedMicroseconds', type: 'integer', description: 'Time in the service.' },
      { name: 'Backend', type: 'string', nullable: true, description: '`sqlite` or `postgres`.' },
      { name: 'Database', type: 'string', nullable: true, description: 'The database answered.' },
      { name: 'Candidates', type: 'integer', nullable: true, description: 'Contacts considered.' },
      {
        name: 'Request',
        type: 'any',
        description: 'The request after defaults and normalisation.',
      },
    ],
  },
};
