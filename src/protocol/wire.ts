import type { OperationResult } from '../service/types.ts';

/** What a binding hands back to the HTTP server: status, headers, body bytes. */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  /** Text, or bytes already encoded (UTF-8) for a response that is sent again and again. */
  body: string | Buffer;
}

/**
 * Encodes each result object once. The service's result cache hands back the very object it stored,
 * so a repeated request skips escaping, the envelope and UTF-8 encoding too; the response is shared
 * and must not be changed by its users. Results that are not reused are simply collected.
 */
export function encodedOnce(encode: (result: OperationResult) => WireResponse): (result: OperationResult) => WireResponse {
  const done = new WeakMap<OperationResult, WireResponse>();
  return (result) => {
    let w = done.get(result);
    if (w === undefined) {
      w = encode(result);
      w = { ...w, body: Buffer.from(w.body) };
      done.set(result, w);
    }
    return w;
  };
}
