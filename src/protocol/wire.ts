import type { ErrorCode } from '../errors.ts';
import { SeenBefore } from '../seen-before.ts';
import type { OperationName } from '../operations/table.ts';
import type { BindingName, OperationResult } from '../service/types.ts';

/** What a binding hands back to the HTTP server: status, headers, body bytes. */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  /** Text, or bytes already encoded (UTF-8) for a response that is sent again and again. */
  body: string | Buffer;
  /** The headers with Content-Length as node:http's flat list, prepared once for a response sent again and again. */
  rawHeaders?: string[];
  /**
   * The body's UTF-8 length where its maker knows it from its parts. A body made by concatenation is
   * a rope; measuring it makes a flat copy of the whole answer (2.2 KB a type-ahead answer), and
   * node:http's write then copies it again with the head.
   */
  bodyBytes?: number;
  /**
   * The body as flat pieces (`body` is their concatenation), written in one go: node:http joins its
   * head to a text body and the socket's write flattens the join, a third copy of the answer; pieces
   * already flat go out as they are.
   */
  chunks?: readonly string[];
  /** The stable code of an error answer (CONTRACT §7), for metrics and the request log; absent on success. */
  errorCode?: ErrorCode;
}

/** What the server counts and logs about one request; a binding fills in what only it finds out (SOAP's operation). */
export interface RequestTrace {
  readonly id: string;
  op?: OperationName;
  binding?: BindingName;
}

/** Two constant pieces a text answer goes between, flat, and their UTF-8 length together. */
export type Frame = readonly [head: string, tail: string, bytes: number];

/** A Frame of `head` and `tail` (a template literal is a rope until something reads it: flat copies made once). */
export function frame(head: string, tail: string): Frame {
  const h = Buffer.from(head).toString(),
    t = Buffer.from(tail).toString();
  return [h, t, Buffer.byteLength(h) + Buffer.byteLength(t)];
}

/**
 * A text answer in its frame, `text` already escaped and flat (escapeText scanned it), so that
 * neither its length nor its write copies it: `chunks` go out as they are.
 */
export function framed(
  headers: Record<string, string>,
  [head, tail, bytes]: Frame,
  text: string,
): WireResponse {
  return {
    status: 200,
    headers,
    body: head + text + tail,
    bodyBytes: bytes + Buffer.byteLength(text),
    chunks: [head, text, tail],
  };
}

/** The headers a response goes out with: its own and Content-Length, as node:http's flat [name, value, …] list. */
export function headerList(w: WireResponse): string[] {
  const list: string[] = [];
  for (const name in w.headers) list.push(name, w.headers[name]);
  list.push('Content-Length', String(w.bodyBytes ?? Buffer.byteLength(w.body)));
  return list;
}

/**
 * Encodes each result object once. The service's result cache hands back the very object it stored,
 * so a repeated request skips escaping, the envelope and the header list too; the response is shared
 * and must not be changed by its users. The body stays text the first time (a framed answer's flat
 * pieces, `chunks`, written as they are), while bytes cost a Buffer (a new 8 KB pool every few
 * answers): 27 µs a distinct type-ahead answer at 10k (bench:http --cpu-prof). Sent a second time,
 * the result is a cache hit likely to come again: its UTF-8 bytes are made then, once. Results that
 * are not reused are simply collected.
 */
export function encodedOnce(
  encode: (result: OperationResult) => WireResponse,
): (result: OperationResult) => WireResponse {
  const done = new WeakMap<OperationResult, WireResponse>();
  return (result) => {
    let w = done.get(result);
    if (w === undefined) {
      w = { ...encode(result) };
      w.rawHeaders = headerList(w);
      done.set(result, w);
    } else if (typeof w.body === 'string') {
      w.body = Buffer.from(w.body);
      w.chunks = undefined;
    }
    return w;
  };
}

/**
 * A bounded memo of a pure function of a request's text (a SOAP envelope → what it asks). Type-ahead
 * clients send the very same few hundred bytes again and again; the memo answers them without
 * parsing. It holds at most `entries` texts of at most `maxChars` each and `totalChars` together;
 * past that the oldest go first. What `fn` throws is not kept: the next call runs it again. The
 * values are shared: callers must not change them. With `onRepeat`, a text is kept the second time
 * it comes (../seen-before.ts).
 */
export function memoized<T>(
  fn: (text: string) => T,
  bounds: { entries: number; maxChars: number; totalChars: number; onRepeat?: boolean },
): (text: string) => T {
  const memo = new Map<string, T>();
  const seen = bounds.onRepeat && bounds.entries > 0 ? new SeenBefore(bounds.entries) : undefined;
  let chars = 0;
  return (text) => {
    if (text.length > bounds.maxChars || bounds.entries === 0) return fn(text);
    let v = memo.get(text);
    if (v === undefined) {
      v = fn(text);
      if (seen && !seen.again(text)) return v;
      memo.set(text, v);
      chars += text.length;
      for (const old of memo.keys()) {
        if (memo.size <= bounds.entries && chars <= bounds.totalChars) break;
        memo.delete(old);
        chars -= old.length;
      }
    }
    return v;
  };
}
