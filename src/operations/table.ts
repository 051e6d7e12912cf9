/**
 * THE operation table (INTERFACE.md §4): every wire fact about the seven operations lives here.
 * Routing, the WSDL, the help pages, test forms and docs are all derived from it.
 */

export type ParamName = 'StringOfJSONParameters' | 'DBName' | 'AsType';
export type ResultKind = 'document' | 'string';

export interface OperationDef {
  /** Wire name: the SOAP wrapper element and the GET/POST path segment. */
  readonly name: OperationName;
  /** `<action>` and `<ns_op>` of INTERFACE.md §4 rule 3 (GetRequestSupport → GetRequestSupportParameters). */
  readonly nsOp: string;
  /** INTERFACE.md §4 rule 4: the two GetPredictiveOptions operations write `//host/...`, no scheme. */
  readonly schemeless: boolean;
  /** Parameters in wire order. */
  readonly params: readonly ParamName[];
  /** `document` → anyType result shaped by AsType; `string` → xsd:string result. */
  readonly result: ResultKind;
  /** One-line description for help pages and docs. */
  readonly summary: string;
}

const DOC_PARAMS = ['StringOfJSONParameters', 'DBName', 'AsType'] as const;

export const OPERATIONS = [
  {
    name: 'GetPredictiveOptionsSearchContacts',
    nsOp: 'GetPredictiveOptionsSearchContacts',
    schemeless: true,
    params: DOC_PARAMS,
    result: 'document',
    summary:
      'Type-ahead over contacts: the contacts whose names, organisation, emails or phones start with the typed text.',
  },
  {
    name: 'GetPredictiveOptions',
    nsOp: 'GetPredictiveOptions',
    schemeless: true,
    params: DOC_PARAMS,
    result: 'document',
    summary: 'Value suggestions for one field of the filter panel, with counts.',
  },
  {
    name: 'GetSearchResults',
    nsOp: 'GetSearchResults',
    schemeless: false,
    params: DOC_PARAMS,
    result: 'document',
    summary: 'The search: matching contacts with filters, sort, paging and facets.',
  },
  {
    name: 'GetSearchResultHeaders',
    nsOp: 'GetSearchResultHeaders',
    schemeless: false,
    params: DOC_PARAMS,
    result: 'document',
    summary: 'The columns of the result grid for a view.',
  },
  {
    name: 'GetSearchFilters',
    nsOp: 'GetSearchFilters',
    schemeless: false,
    params: DOC_PARAMS,
    result: 'document',
    summary:
      'The filter panel: filterable fields, their controls, operators and disjunctive counts.',
  },
  {
    name: 'GetRequestSupport',
    nsOp: 'GetRequestSupportParameters',
    schemeless: false,
    params: ['StringOfJSONParameters', 'AsType'],
    result: 'document',
    summary:
      'Describes every ProcessRequest request: parameters and, for file requests, formats and columns.',
  },
  {
    name: 'ProcessRequest',
    nsOp: 'ProcessRequest',
    schemeless: false,
    params: ['StringOfJSONParameters'],
    result: 'string',
    summary:
      'Changes and file work (import, export, upsert, delete, saved searches); returns an XML response as a string.',
  },
] as const satisfies readonly (Omit<OperationDef, 'name'> & { name: string })[];

export type OperationName = (typeof OPERATIONS)[number]['name'];

export const OPERATION_NAMES: readonly OperationName[] = OPERATIONS.map((o) => o.name);

const byName = new Map<string, OperationDef>(OPERATIONS.map((o) => [o.name, o as OperationDef]));

/** Case-sensitive lookup, as the runtime routes GET/POST paths (golden get-op-lowercase). */
export function operation(name: string): OperationDef | undefined {
  return byName.get(name);
}

/** `http://{base}/API` or `//{base}/API` (INTERFACE.md §4 rule 4). */
export function apiBase(op: OperationDef, nsBase: string): string {
  return `${op.schemeless ? '' : 'http:'}//${nsBase}/API`;
}

export function soapAction(op: OperationDef, nsBase: string): string {
  return `${apiBase(op, nsBase)}/${op.nsOp}`;
}

export function requestNamespace(op: OperationDef, nsBase: string): string {
  return `${apiBase(op, nsBase)}/${op.nsOp}RequestData`;
}

export function responseNamespace(op: OperationDef, nsBase: string): string {
  return `${apiBase(op, nsBase)}/${op.nsOp}ResponseData`;
}

/** Namespace of the GET/POST roots `anyType` and `string` (INTERFACE.md §4 rule 5). */
export function httpResultNamespace(nsBase: string): string {
  return `http://${nsBase}/API`;
}
