/**
 * Dispatch: the table of bindings, and the one place a decoded request meets the service. The HTTP
 * front (http/server.ts) routes by path, reads the body and hands the request as read (`HttpCall`)
 * to the binding protocol/select.ts named; the binding decodes it (or answers at once), the service
 * runs it, the binding encodes what came back.
 */
import { toServiceError } from '../errors.ts';
import type { Service } from '../service/types.ts';
import {
  isDecoded,
  type Binding,
  type HttpCall,
  type OnError,
  type OperationCall,
} from './binding.ts';
import { formBinding } from './http-form/binding.ts';
import { jsonBinding } from './json/binding.ts';
import { soapBinding } from './soap/binding.ts';
import type { RequestTrace, WireResponse } from './wire.ts';

/** What each binding is handed, by its name in the table: at `<endpoint>/<Operation>` also the operation. */
export interface Calls {
  soap: HttpCall;
  form: OperationCall;
  json: OperationCall;
}

export type Dispatch = <K extends keyof Calls>(binding: K, call: Calls[K]) => Promise<WireResponse>;

/**
 * @param memoEntries SOAP envelopes whose decoding is kept (the result cache's entry count, so that
 *   what the result cache answers is decoded once too); 0 decodes every request.
 */
export function createDispatch(
  nsBase: string,
  service: Service,
  onInternalError: OnError,
  memoEntries = 0,
  onRepeat = false,
): Dispatch {
  const runner =
    <Call extends { trace?: RequestTrace }, C>(binding: Binding<Call, C>) =>
    (call: Call) =>
      run(binding, call, service, onInternalError);
  const table: { [K in keyof Calls]: (call: Calls[K]) => Promise<WireResponse> } = {
    soap: runner(soapBinding(nsBase, memoEntries, onRepeat)),
    form: runner(formBinding(nsBase)),
    json: runner(jsonBinding()),
  };
  return (name, call) => table[name](call);
}

async function run<Call extends { trace?: RequestTrace }, C>(
  binding: Binding<Call, C>,
  call: Call,
  service: Service,
  onInternalError: OnError,
): Promise<WireResponse> {
  const pending = binding.decode(call);
  const decoded = pending instanceof Promise ? await pending : pending;
  if (!isDecoded(decoded)) return decoded;
  try {
    return binding.encode(await service.invoke(decoded.request), decoded.context);
  } catch (e) {
    const err = toServiceError(e);
    if (err.code === 'Internal') onInternalError(e, call.trace);
    const w = binding.encodeError(err, decoded.context);
    // A database still loading at start says when to come back (registry.ts), in every binding.
    const retryAfter = (err as { retryAfter?: number }).retryAfter;
    return retryAfter === undefined
      ? w
      : {
          ...w,
          rawHeaders: undefined,
          headers: { ...w.headers, 'Retry-After': String(retryAfter) },
        };
  }
}
