/**
 * HTTP GET (query fields) and HTTP POST (form fields) to `API.asmx/<Operation>`: operation names are
 * case-sensitive, every parameter is required (golden get-no-params), extras are ignored, and POST
 * reads only an application/x-www-form-urlencoded body (golden post-wrong-content-type).
 */
import { fail, toServiceError } from '../../errors.ts';
import { OPERATIONS, operation, type OperationDef } from '../../operations/table.ts';
import type { Caller, Service } from '../../service/types.ts';
import type { OnError } from '../soap/binding.ts';
import type { RequestTrace, WireResponse } from '../wire.ts';
import { parseFields } from './decode.ts';
import { formError, formResultEncoder } from './encode.ts';

export interface FormCall {
  verb: 'GET' | 'POST';
  opName: string;
  query: string;
  contentType: string | undefined;
  body: string;
  caller: Omit<Caller, 'binding'>;
  /** The request's arrival number (arrivals.ts). */
  arrival?: number;
  trace?: RequestTrace;
}

/** Resolves `API.asmx/<name>` or answers the runtime's error for it (golden get-unknown-op, get-op-lowercase). */
export function resolveOperation(name: string): OperationDef | WireResponse {
  const op = operation(name);
  if (op) return op;
  const other = OPERATIONS.find((o) => o.name.toLowerCase() === name.toLowerCase());
  const message = other
    ? `Invalid method name '${name}', method names are case sensitive. The method name '${other.name}' with the same name but different casing was found.`
    : `${name} Web Service method name is not valid.`;
  return formError(fail('UnknownOperation', message), false);
}

export function createFormBinding(nsBase: string, service: Service, onInternalError: OnError) {
  const encode = formResultEncoder(nsBase);
  return async function handleForm(call: FormCall, op: OperationDef): Promise<WireResponse> {
    let fields: Map<string, string>;
    if (call.verb === 'GET') {
      fields = parseFields(call.query);
    } else {
      const ct = call.contentType ?? '';
      if (!/^\s*application\/x-www-form-urlencoded\b/i.test(ct)) {
        return formError(fail('InvalidRequestFormat', `Request format is invalid: ${ct}.`), false);
      }
      fields = parseFields(call.body);
    }
    const values: Record<string, string> = {};
    for (const p of op.params) {
      const v = fields.get(p.toLowerCase());
      if (v === undefined) return formError(fail('MissingParameter', `Missing parameter: ${p}.`, { parameter: p }), false);
      values[p] = v;
    }
    try {
      const result = await service.invoke({
        op: op.name,
        StringOfJSONParameters: values.StringOfJSONParameters ?? null,
        DBName: values.DBName ?? null,
        AsType: values.AsType ?? null,
        caller: { ...call.caller, binding: call.verb === 'GET' ? 'httpget' : 'httppost' }, arrival: call.arrival,
      });
      return encode(op, result);
    } catch (e) {
      const err = toServiceError(e);
      if (err.code === 'Internal') onInternalError(e, call.trace);
      return formError(err, true);
    }
  };
}
