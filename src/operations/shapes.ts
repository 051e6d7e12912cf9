/**
 * The object shapes the operations' JSON members (documents.ts) name, requests' and answers' alike:
 * the docs list them (src/docs/generate.ts) and test/documents.test.ts checks every answer's objects
 * against them.
 */
import type { Member, Shape } from './members.ts';

const VALUE_OPTION: Member[] = [
  { name: 'Value', type: 'string', description: 'The value as stored.' },
  { name: 'Label', type: 'string', description: 'What to show.' },
  { name: 'Count', type: 'integer', description: 'Contacts that have it.' },
];

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
