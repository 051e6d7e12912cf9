/**
 * What every binding is (SOAP 1.1/1.2, HTTP GET/POST forms, JSON): it decodes a call into the plain
 * request the service takes — or answers at once when the call cannot be one (malformed, unknown
 * operation, wrong content type) — and encodes the service's result or error in its own format.
 * dispatch.ts holds the table of bindings and the one place a decoded request meets the service.
 * Every binding is handed the same call, the HTTP request as the front read it (`HttpCall`), and
 * takes from it what its format reads: the HTTP front knows no binding's parts.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ServiceError } from '../errors.ts';
import type { OperationDef, ParamName } from '../operations/table.ts';
import type {
  BindingName,
  Caller,
  OperationRequest,
  OperationResult,
  ParamValue,
} from '../service/types.ts';
import type { RequestTrace, WireResponse } from './wire.ts';
import type { LargeText } from '../large-text/large-text.ts';

/** What the HTTP front hands every binding, besides the call's own parts. */
export interface CallBase {
  /** Who calls (the binding adds its own name). */
  caller: Omit<Caller, 'binding'>;
  /** The request's arrival number (arrivals.ts). */
  arrival?: number;
  /** What the server counts and logs of the request; a binding fills in what only it finds out. */
  trace?: RequestTrace;
}

/**
 * A call as the HTTP front hands it to every binding: the request's method, query string, headers and
 * body, as read (SOAP reads Content-Type and SOAPAction; the forms the method, the query string or the
 * form body and Content-Type; JSON the body).
 */
export interface HttpCall extends CallBase {
  readonly method: 'GET' | 'POST';
  /** After the `?`, undecoded; '' without one. */
  readonly query: string;
  readonly headers: IncomingHttpHeaders;
  /** The body's text; '' for a large one, read from `large`. */
  readonly body: string;
  /** A body over LARGE_TEXT bytes, as received: every binding hands its bytes to the large-text worker, which reads it there. */
  readonly large?: LargeBody;
}

/** A large request body as received: its bytes, and the Content-Type that says how to decode them. */
export interface LargeBody {
  readonly contentType: string | undefined;
  readonly chunks: readonly Buffer[];
  readonly bytes: number;
}

/** A call to `<endpoint>/<Operation>`: also the operation its path names (http-form/binding.ts `resolveOperation`). */
export interface OperationCall extends HttpCall {
  readonly op: OperationDef;
}

/** A decoded call: the plain request, and what the binding's encoders need of the call (SOAP's version, the operation). */
export interface Decoded<Context> {
  readonly request: OperationRequest;
  readonly context: Context;
}

export interface Binding<Call, Context> {
  /** Synchronous for the usual call; a promise when decoding is long work done in slices (a large SOAP body). */
  decode(call: Call): Decoded<Context> | WireResponse | Promise<Decoded<Context> | WireResponse>;
  encode(result: OperationResult, context: Context): WireResponse;
  /** An error of the service for a decoded request (the operation ran, as far as caching clients can tell). */
  encodeError(err: ServiceError, context: Context): WireResponse;
}

/**
 * Bodies from this size on (only ProcessRequest's may be) are decoded in slices between turns of the
 * event loop; below it one decode takes a few milliseconds.
 */
export const SLICED_FROM_CHARS = 1024 * 1024;

/**
 * A large body's parameters as the large-text worker read them: StringOfJSONParameters (`isParams`
 * names it in the binding's own spelling) stays held there, for the service to parse there; any
 * other large value (a DBName of a MiB) comes here as the string it is, for the service to refuse.
 */
export async function heldParameters(
  entries: Iterable<[string, string | LargeText]>,
  isParams: (name: string) => boolean,
): Promise<{ values: Map<string, string>; large?: LargeText }> {
  const values = new Map<string, string>();
  let large: LargeText | undefined;
  for (const [k, v] of entries) {
    if (typeof v === 'string') values.set(k, v);
    else if (isParams(k) && !large) {
      large = v;
      values.set(k, '');
    } else {
      values.set(k, await v.text());
      v.release();
    }
  }
  return { values, large };
}

/** Told of an Internal error (a bug) with the request's trace, for the log. */
export type OnError = (err: unknown, trace?: RequestTrace) => void;

export const isDecoded = <C>(d: Decoded<C> | WireResponse): d is Decoded<C> => 'request' in d;

/**
 * The plain request of a call every binding has decoded to an operation and its parameter values:
 * a parameter the operation does not declare is null, whatever the call sent.
 */
export function plainRequest(
  op: OperationDef,
  value: (param: ParamName) => ParamValue | undefined,
  call: CallBase,
  binding: BindingName,
  /** StringOfJSONParameters held by the large-text worker (a large body's: heldParameters). */
  large?: LargeText,
): OperationRequest {
  const param = (p: ParamName) => (op.params.includes(p) ? (value(p) ?? null) : null);
  return {
    op: op.name,
    StringOfJSONParameters:
      large && op.params.includes('StringOfJSONParameters')
        ? large
        : param('StringOfJSONParameters'),
    DBName: param('DBName'),
    AsType: param('AsType'),
    caller: { ...call.caller, binding },
    arrival: call.arrival,
  };
}
