/**
 * The plain request and result that pass between the bindings (protocol/) and the service.
 * Nothing here knows about SOAP, query strings or forms.
 */
import type { DatabaseStats } from '../metrics/metrics.ts';
import type { OperationName } from '../operations/table.ts';
import type { ApiKey } from '../security/api-keys.ts';
import type { LargeText } from '../large-text/large-text.ts';

export type BindingName = 'soap11' | 'soap12' | 'httpget' | 'httppost' | 'json';

/** A wire parameter value: `null` when the request left it out (SOAP), else the text sent. */
export type ParamValue = string | null;

export interface OperationRequest {
  readonly op: OperationName;
  /** A LargeText when the large-text worker holds it (a body over LARGE_TEXT bytes, in any binding). */
  readonly StringOfJSONParameters: ParamValue | LargeText;
  readonly DBName: ParamValue;
  readonly AsType: ParamValue;
  readonly caller: Caller;
  /** When the request was read in full (arrivals.ts): lets a change-feed check made since serve it. */
  readonly arrival?: number;
}

export interface Caller {
  readonly binding: BindingName;
  /** The request came from a loopback address. */
  readonly loopback: boolean;
  /** Authenticated API key id, when keys are configured. */
  readonly keyId?: string;
  /** The authenticated key with its scopes and databases; absent when no keys are configured. */
  readonly key?: ApiKey;
  /** A browser sent this from a page of another site: what showed it (security/same-origin.ts). Writes are refused. */
  readonly crossSite?: string;
}

/** An XML element as the XML AsType writes it (CONTRACT §6), serialized by each binding. */
export interface XmlElement {
  readonly name: string;
  readonly attrs?: readonly (readonly [string, string])[];
  readonly children: readonly (XmlElement | string)[];
}

/**
 * What an operation answers, ready for a binding:
 * `text` — a string (AsType JSON / InternalUse, and ProcessRequest's XML string);
 * `element` — an element written inline in the result (AsType XML).
 */
export type OperationResult =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'element'; readonly element: XmlElement };

/** The protocol-free service as the wire layer sees it. Throws ServiceError. */
export interface Service {
  invoke(req: OperationRequest): Promise<OperationResult>;
  /** Counters for /metrics (absent in test doubles). */
  stats?(): ServiceStats;
  /** The databases that do not answer now (GET /healthz); absent in test doubles. */
  down?(): { name: string; reason: string }[];
  /** The databases still loading at start, with the contacts read so far (GET /healthz); absent in test doubles. */
  loading?(): { name: string; read: number }[];
  /** Each database's figures for /metrics (absent in test doubles). */
  databaseStats?(): Promise<DatabaseStats[]>;
}

export interface ServiceStats {
  resultCache: ResultCacheStats;
}

/** The result cache's figures (result-cache.ts), for /metrics. */
export interface ResultCacheStats {
  hits: number;
  misses: number;
  entries: number;
  /** Characters held (result texts and element text), the measure of the size budget. */
  chars: number;
}
