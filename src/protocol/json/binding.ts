/**
 * The ASP.NET AJAX style (golden post-json-content-type, CONTRACT §10): `application/json` POST to
 * `API.asmx/<Operation>` with `{"StringOfJSONParameters":…,"DBName":…,"AsType":…}`, answered `{"d":…}`.
 * An element result (AsType XML) travels as its XML text. Errors answer the error's HTTP status with
 * `{"Message","Code","Parameter","Path"}` (ASP.NET AJAX's `Message` member, without type or stack).
 */
import { fail, type ServiceError } from '../../errors.ts';
import {
  heldParameters,
  plainRequest,
  type Binding,
  type LargeBody,
  type OperationCall,
} from '../binding.ts';
import { CACHE_NOT_RAN, CACHE_RAN, CONTENT_TYPE } from '../constants.ts';
import { encodedOnce, type WireResponse } from '../wire.ts';
import { writeElement } from '../../render/xml.ts';
import { LargeText, LargeTextError } from '../../large-text/large-text.ts';

export function jsonError(err: ServiceError, ran: boolean): WireResponse {
  return {
    // Server errors keep their status (Internal 500, Unavailable 503); wire-level client errors that golden answers 500 are 400 here.
    status:
      err.faultClass === 'Server' ? err.httpStatus : err.httpStatus >= 500 ? 400 : err.httpStatus,
    headers: {
      'Content-Type': CONTENT_TYPE.json,
      'Cache-Control': ran ? CACHE_RAN : CACHE_NOT_RAN,
      jsonerror: 'true',
    },
    body: JSON.stringify({
      Message: err.message,
      Code: err.code,
      Parameter: err.parameter ?? null,
      Path: err.path ?? null,
    }),
    errorCode: err.code,
  };
}

export function jsonBinding(): Binding<OperationCall, undefined> {
  const encode = encodedOnce((result) => {
    const d = result.kind === 'text' ? result.text : writeElement(result.element);
    return {
      status: 200,
      headers: { 'Content-Type': CONTENT_TYPE.json, 'Cache-Control': CACHE_RAN },
      body: JSON.stringify({ d }),
    };
  });
  return { decode, encode: (result) => encode(result), encodeError: (err) => jsonError(err, true) };

  function decode(call: OperationCall) {
    // A large body (an import's content) is decoded and parsed by the large-text worker.
    if (call.large) return decodeLarge(call, call.large);
    const body = call.body;
    if (body.trim() === '') return decodeArgs(call, {});
    let args: unknown;
    try {
      args = JSON.parse(body);
    } catch {
      return notJson();
    }
    return decodeArgs(call, args);
  }

  async function decodeLarge(call: OperationCall, large: LargeBody) {
    let args: unknown;
    try {
      args = await LargeText.reading(large, (text) => text.json());
    } catch (e) {
      if (e instanceof LargeTextError && e.kind === 'json') return notJson();
      throw e; // the worker died: an Internal error
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args))
      return decodeArgs(call, args);
    const { values, large: params } = await heldParameters(
      Object.entries(args).filter((e): e is [string, LargeText] => e[1] instanceof LargeText),
      (k) => k.toLowerCase() === 'stringofjsonparameters',
    );
    return decodeArgs(call, { ...args, ...Object.fromEntries(values) }, params);
  }

  function notJson() {
    return jsonError(fail('InvalidJson', 'The request body is not valid JSON.'), false);
  }

  function decodeArgs({ op, caller, arrival }: OperationCall, args: unknown, large?: LargeText) {
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      return jsonError(
        fail(
          'InvalidJson',
          "The request body must be a JSON object of the operation's parameters.",
        ),
        false,
      );
    }
    const byName = new Map(Object.entries(args as object).map(([k, v]) => [k.toLowerCase(), v]));
    const values: Record<string, string | null> = {};
    for (const p of op.params) {
      const v = byName.get(p.toLowerCase());
      if (v !== undefined && v !== null && typeof v !== 'string') {
        return jsonError(fail('InvalidValue', `${p} must be a string.`, { parameter: p }), false);
      }
      values[p] = (v as string | undefined) ?? null;
    }
    return {
      request: plainRequest(op, (p) => values[p], { caller, arrival }, 'json', large),
      context: undefined,
    };
  }
}
