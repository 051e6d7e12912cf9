/**
 * HTTP GET (query fields) and HTTP POST (form fields) to `API.asmx/<Operation>`: operation names are
 * case-sensitive, every parameter is required (golden get-no-params), extras are ignored, and POST
 * reads only an application/x-www-form-urlencoded body (golden post-wrong-content-type).
 */
import { LargeText } from '../../large-text/large-text.ts';
import { fail } from '../../errors.ts';
import { OPERATIONS, operation, type OperationDef } from '../../operations/table.ts';
import {
  heldParameters,
  plainRequest,
  SLICED_FROM_CHARS,
  type Binding,
  type Decoded as BindingDecoded,
  type LargeBody,
  type OperationCall,
} from '../binding.ts';
import type { WireResponse } from '../wire.ts';
import { parseFields, parseFieldsInSlices } from './decode.ts';
import { formError, formResultEncoder } from './encode.ts';

type Decoded = BindingDecoded<OperationDef>;

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

export function formBinding(nsBase: string): Binding<OperationCall, OperationDef> {
  const encodeResult = formResultEncoder(nsBase);
  return {
    decode,
    encode: (result, op) => encodeResult(op, result),
    encodeError: (err) => formError(err, true),
  };

  /** A body of a MiB or more (only ProcessRequest's may be) is decoded in slices between turns of the event loop. */
  function decode(call: OperationCall): Decoded | WireResponse | Promise<Decoded | WireResponse> {
    if (call.method === 'GET') return withFields(call, parseFields(call.query));
    const ct = call.headers['content-type'] ?? '';
    if (!/^\s*application\/x-www-form-urlencoded\b/i.test(ct)) {
      return formError(fail('InvalidRequestFormat', `Request format is invalid: ${ct}.`), false);
    }
    if (call.large) return decodeLarge(call, call.large);
    if (call.body.length >= SLICED_FROM_CHARS)
      return parseFieldsInSlices(call.body).then((fields) => withFields(call, fields));
    return withFields(call, parseFields(call.body));
  }

  /** A large body read as a form by the large-text worker: StringOfJSONParameters stays there, a LargeText. */
  async function decodeLarge(
    call: OperationCall,
    body: LargeBody,
  ): Promise<Decoded | WireResponse> {
    const fields = await LargeText.reading(body, (text) => text.form());
    const { values, large } = await heldParameters(fields, (k) => k === 'stringofjsonparameters');
    return withFields(call, values, large);
  }

  /** The operation's parameters out of the decoded fields, as its plain request. */
  function withFields(
    call: OperationCall,
    fields: Map<string, string>,
    large?: LargeText,
  ): Decoded | WireResponse {
    const op = call.op;
    const values: Record<string, string> = {};
    for (const p of op.params) {
      const v = fields.get(p.toLowerCase());
      if (v === undefined)
        return formError(
          fail('MissingParameter', `Missing parameter: ${p}.`, { parameter: p }),
          false,
        );
      values[p] = v;
    }
    return {
      request: plainRequest(
        op,
        (p) => values[p],
        call,
        call.method === 'GET' ? 'httpget' : 'httppost',
        large,
      ),
      context: op,
    };
  }
}
