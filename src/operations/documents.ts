/**
 * The JSON side of the operations, beside the operation table's wire facts: the members each
 * operation reads from StringOfJSONParameters and the document it answers. One description serves
 * three readers: the operations validate their members with it (service/request-members.ts), the
 * docs are generated from it (src/docs/generate.ts → docs/OPERATIONS.md), and
 * test/documents.test.ts runs every operation and fails when an answer has a member
 * this file does not describe or lacks one it does.
 * The object shapes the members name are in shapes.ts, the member type in members.ts.
 */
import type { Member } from './members.ts';
import type { OperationName } from './table.ts';

export type { Bound, LimitName, Member } from './members.ts';

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
