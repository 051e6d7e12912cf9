/**
 * Reads a request body within its size limit and the server's in-flight budget, decoding it as the
 * runtime does (body-charset.ts). The limit applies while the bytes stream in: a body is refused at
 * the first byte over it, never read to the end first. When the limit depends on what the body is
 * (SOAP: the routed operation), `max` is the smallest and `limitFor` names the body's own once it goes
 * over: by then what it is has arrived (the operation element comes first).
 */
import type http from 'node:http';
import { LARGE_TEXT } from '../next-turn.ts';
import type { LargeBody } from '../protocol/binding.ts';
import { decodeBody } from './body-charset.ts';
import { FREE_BYTES, type InflightBodies } from './inflight-bodies.ts';

export interface BodyRules {
  /** Bytes allowed, unless `limitFor` names another limit. */
  max: number;
  /** The most any body here may be, whatever `limitFor` says: a larger Content-Length is refused before reading. */
  ceiling?: number;
  /**
   * Called once, with the text received so far and the request's headers, when the body goes over
   * `max`: the body's own limit. Most bodies never get there, so their reading costs nothing more.
   */
  limitFor?: (head: string, headers: http.IncomingHttpHeaders) => number;
}

/** Why no body: over its limit, the in-flight budget stayed full, or the client went away. */
export class BodyRefused extends Error {
  constructor(readonly why: 'tooLarge' | 'busy' | 'gone') {
    super(why);
  }
}

/**
 * The in-flight bytes one request holds, given back when its answer is written or its connection
 * closes. Made at a body's first byte past FREE_BYTES: the usual small request makes none, and adds
 * no listener to its response.
 */
function holding(res: http.ServerResponse, inflight: InflightBodies) {
  let held = 0;
  let over = res.closed; // answered (or gone) before the body reached its first hold
  if (!over)
    res.once('close', () => {
      over = true;
      inflight.release(held);
      held = 0;
    });
  return {
    get held() {
      return held;
    },
    /** Holds `total` bytes in all; false when the budget did not make room in time. */
    async upTo(total: number): Promise<boolean> {
      const more = total - held;
      if (more <= 0) return true;
      if (!(await inflight.take(more))) return false;
      if (over)
        inflight.release(more); // answered meanwhile: nothing left to hold
      else held += more;
      return true;
    },
  };
}

/** A body as read: its text, or a large one (over LARGE_TEXT bytes) as received ('' the text). */
export interface ReadBody {
  text: string;
  large?: LargeBody;
}

export function readBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  rules: BodyRules,
  inflight: InflightBodies,
): Promise<ReadBody> {
  const contentType = req.headers['content-type'];
  const declared =
    req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (declared !== undefined && declared > (rules.ceiling ?? rules.max)) {
    req.resume(); // read and dropped while the answer goes out, so that the client sees the answer
    return Promise.reject(new BodyRefused('tooLarge'));
  }
  // Bytes are held as they arrive, not as declared: a client that declares 64 MiB and sends nothing holds nothing.
  let hold: ReturnType<typeof holding> | undefined;

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let limit = rules.max;
    let limitFor = rules.limitFor;
    let settled = false;
    let waiting = false;
    const refuse = (why: BodyRefused['why']) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.resume(); // the rest is read and dropped while the answer goes out
      reject(new BodyRefused(why));
    };
    const onData = (c: Buffer) => {
      size += c.length;
      chunks.push(c);
      if (size > limit && limitFor) {
        limit = limitFor(decodeBody(contentType, Buffer.concat(chunks)), req.headers);
        limitFor = undefined;
      }
      if (size > limit) return refuse('tooLarge');
      holdWhatArrived();
    };
    /** Holds the bytes received beyond the free part, the socket paused while it waits for room. */
    const holdWhatArrived = () => {
      if (settled || waiting || size - FREE_BYTES <= (hold?.held ?? 0)) return;
      hold ??= holding(res, inflight);
      waiting = true;
      req.pause();
      void hold.upTo(size - FREE_BYTES).then((ok) => {
        waiting = false;
        if (!ok) return refuse('busy');
        if (settled) return;
        req.resume();
        holdWhatArrived(); // chunks that came in while it waited
      });
    };
    req.on('data', onData);
    req.on('end', () => {
      if (settled) return;
      settled = true;
      // A large body is not decoded here: its binding hands the bytes to the large-text worker.
      if (size > LARGE_TEXT) {
        resolve({ text: '', large: { contentType, chunks, bytes: size } });
      } else
        resolve({
          text: decodeBody(contentType, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)),
        });
    });
    req.on('error', () => refuse('gone'));
    req.on('close', () => {
      if (!req.complete) refuse('gone');
    });
  });
}
