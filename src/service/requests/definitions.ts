/**
 * Every ProcessRequest request, described once (CONTRACT.md §5): GetRequestSupport publishes these
 * definitions and ProcessRequest validates against exactly them.
 */
import type { Limits } from '../../config.ts';
import { FIELDS } from '../../fields/schema.ts';
import type { MemberSpec, ObjectSpec } from '../params.ts';

export type ParamType = 'String' | 'Integer' | 'Boolean' | 'List' | 'Records' | 'Filters' | 'Sort';

export interface ParamDef {
  readonly Name: string;
  readonly Type: ParamType;
  readonly Required: boolean;
  readonly Default?: string | number | boolean;
  readonly Values?: readonly string[];
  readonly Description: string;
}

export interface RequestDef {
  readonly Request: string;
  readonly Description: string;
  readonly Scope: 'read' | 'write';
  readonly Parameters: readonly ParamDef[];
  /** Requests that carry a file. */
  readonly File?: boolean;
}

const p = (
  Name: string,
  Type: ParamType,
  Description: string,
  extra: Partial<ParamDef> = {},
): ParamDef => ({ Name, Type, Required: false, Description, ...extra });
const DB = p('DBName', 'String', 'The database to work on.', { Required: true });
const SELECTION = [
  p('Query', 'String', 'Free text, matched as in GetSearchResults.'),
  p('Filters', 'Filters', 'Filters as in GetSearchResults: [{"Field","Op","Values"}].'),
];
export const FORMATS = ['CSV', 'VCard', 'JSON'] as const;
export const IMPORT_MODES = ['Upsert', 'Insert', 'Replace', 'Merge'] as const;

export const REQUESTS: readonly RequestDef[] = [
  {
    Request: 'GetContact',
    Scope: 'read',
    Description: 'One contact by ContactId.',
    Parameters: [DB, p('ContactId', 'String', 'The contact to read.', { Required: true })],
  },
  {
    Request: 'UpsertContacts',
    Scope: 'write',
    Description: 'Inserts or replaces whole contact records, atomically.',
    Parameters: [
      DB,
      p(
        'Contacts',
        'Records',
        'Contact records (field names as in GetSearchResultHeaders); ContactId assigned when absent.',
        { Required: true },
      ),
    ],
  },
  {
    Request: 'DeleteContacts',
    Scope: 'write',
    Description: 'Deletes contacts by id, atomically.',
    Parameters: [
      DB,
      p('ContactIds', 'List', 'Ids to delete; unknown ids are reported, not an error.', {
        Required: true,
      }),
    ],
  },
  {
    Request: 'ImportContacts',
    Scope: 'write',
    File: true,
    Description:
      'Imports a CSV, vCard or JSON file; validated first, then written in one transaction.',
    Parameters: [
      DB,
      p('Format', 'String', 'The file format.', { Required: true, Values: FORMATS }),
      p('Content', 'String', 'The file, as text or base64.', { Required: true }),
      p('Encoding', 'String', 'How Content is carried.', {
        Default: 'Text',
        Values: ['Text', 'Base64'],
      }),
      p(
        'Mode',
        'String',
        'Upsert adds or replaces by ContactId; Insert refuses existing ids; Replace replaces the whole database; Merge merges each row into the contact it names by ContactId or likely duplicates (same email, phone, or name and organisation), field by field.',
        { Default: 'Upsert', Values: IMPORT_MODES },
      ),
      p(
        'DryRun',
        'Boolean',
        'Validate and report without writing: problems, likely duplicates, and what each column becomes.',
        { Default: false },
      ),
      p(
        'AllOrNothing',
        'Boolean',
        'Reject the whole file when a row is bad (true), or write the good rows and report the bad ones (false).',
        { Default: true },
      ),
    ],
  },
  {
    Request: 'ExportContacts',
    Scope: 'read',
    Description: 'Exports the contacts of a selection as a file.',
    Parameters: [
      DB,
      p('Format', 'String', 'The file format.', { Default: 'CSV', Values: FORMATS }),
      ...SELECTION,
      p('Fields', 'List', 'Fields to export (CSV); default all.'),
    ],
  },
  {
    Request: 'SaveSearch',
    Scope: 'write',
    Description: 'Saves a search under a name; it is also a View for headers, filters and results.',
    Parameters: [
      DB,
      p('Name', 'String', 'The name (case-insensitive; replaces a search of the same name).', {
        Required: true,
      }),
      ...SELECTION,
      p('Sort', 'Sort', 'Sort as in GetSearchResults.'),
      p('Fields', 'List', 'The columns of the view.'),
    ],
  },
  {
    Request: 'ListSavedSearches',
    Scope: 'read',
    Description: 'The saved searches of a database.',
    Parameters: [DB],
  },
  {
    Request: 'DeleteSavedSearch',
    Scope: 'write',
    Description: 'Deletes a saved search.',
    Parameters: [DB, p('Name', 'String', 'The saved search.', { Required: true })],
  },
  {
    Request: 'GetDatabaseInfo',
    Scope: 'read',
    Description: 'Contact count, backend, storage size and saved searches of a database.',
    Parameters: [DB],
  },
];

export function requestDef(name: string): RequestDef | undefined {
  return REQUESTS.find((r) => r.Request.toLowerCase() === name.toLowerCase());
}

/** The File description of GetRequestSupport, from the field schema. */
export function fileDescription(limits: Limits) {
  return {
    Formats: FORMATS,
    Columns: FIELDS.filter((f) => !f.readOnly).map((f) => ({
      Name: f.name,
      Aliases: f.aliases,
      Type: f.type,
      Required: false,
    })),
    MaxBytes: limits.processRequestBodyBytes,
    Encodings: ['Text', 'Base64'],
  };
}

/** The readMembers spec of a request: `Request` plus its Parameters. */
export function memberSpec(def: RequestDef, limits: Limits): ObjectSpec {
  const spec: Record<string, MemberSpec> = { Request: { type: 'string', required: true } };
  for (const prm of def.Parameters) {
    const required = prm.Required;
    switch (prm.Type) {
      case 'String':
        spec[prm.Name] = {
          type: 'string',
          required,
          values: prm.Values,
          maxLength: prm.Name === 'Content' ? limits.processRequestBodyBytes : limits.textChars,
        };
        break;
      case 'Integer':
        spec[prm.Name] = { type: 'integer', required };
        break;
      case 'Boolean':
        spec[prm.Name] = { type: 'boolean', required };
        break;
      case 'List':
        spec[prm.Name] = { type: 'stringArray', required, maxItems: 100_000, maxLength: 256 };
        break;
      default:
        spec[prm.Name] = { type: 'any', required };
    }
  }
  return spec;
}
