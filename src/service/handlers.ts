/** The seven operations, protocol-free, keyed by wire name. */
import type { OperationName } from '../operations/table.ts';
import type { Document } from '../render/as-type.ts';
import type { OperationContext } from './context.ts';
import { getPredictiveOptionsSearchContacts } from './get-predictive-options-search-contacts.ts';
import { getPredictiveOptions } from './get-predictive-options.ts';
import { getSearchResults } from './get-search-results.ts';
import { getSearchResultHeaders } from './get-search-result-headers.ts';
import { getSearchFilters } from './get-search-filters.ts';
import { getRequestSupport } from './get-request-support.ts';
import { processRequest } from './process-request.ts';

export type Handler = (ctx: OperationContext) => Promise<Document | string> | Document | string;

export const HANDLERS: Record<OperationName, Handler> = {
  GetPredictiveOptionsSearchContacts: getPredictiveOptionsSearchContacts,
  GetPredictiveOptions: getPredictiveOptions,
  GetSearchResults: getSearchResults,
  GetSearchResultHeaders: getSearchResultHeaders,
  GetSearchFilters: getSearchFilters,
  GetRequestSupport: getRequestSupport,
  ProcessRequest: processRequest,
};
