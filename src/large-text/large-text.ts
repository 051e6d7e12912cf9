/**
 * A large text of a request (over LARGE_TEXT: an import's content), held by a worker thread of its
 * own (worker.ts) and known here by a handle. A 100,000-row ImportContacts over the JSON binding is a
 * 30 MB body; on the main thread its decode, the body's JSON.parse and StringOfJSONParameters' were
 * one native call each (140, 160 and 160 ms), and so was every copy, flattening or clone of a string
 * that size (60–220 ms): type-ahead beside it waited up to 616 ms (bench:live --via wire at 1M).
 * Here the bytes are transferred to the worker (no copy), the worker decodes and parses them and
 * holds the large strings of the result (StringOfJSONParameters, then Content) as texts of their own,
 * and the import's rows come back a slice at a time, parsed there: the main thread only sees rows.
 *
 * The worker starts with the first large text and stops once it holds none and has nothing to do
 * for IDLE_MS. If it dies, every handle it held fails (the request's Internal error) and the next
 * large text starts another. A handle dropped without release() is released when collected.
 */
import { Worker } from 'node:worker_threads';
import { headerRoles } from '../io/columns.ts';
import { FileProblem, type ParsedRow } from '../io/csv.ts';
import type { LayoutHolder, RowSlices } from '../io/import-file.ts';
import { besideMe, workerEntry } from '../worker-url.ts';
import { decodeSliced } from './decode-sliced.ts';
import type { ErrorKind, HeldString, Job, Reply } from './protocol.ts';
import type { EnvelopeOutcome, SoapRequest } from '../protocol/soap/decode.ts';

/** readEnvelope's outcome with its large parameters held (LargeText). */
export type LargeEnvelopeOutcome =
  | Exclude<EnvelopeOutcome, { read: SoapRequest }>
  | { read: Omit<SoapRequest, 'params'> & { params: Map<string, string | LargeText> } };

const IDLE_MS = 30_000;
const URL_OF_WORKER = besideMe('./worker', import.meta.url);

/** A failure the worker reported: JSON that is not JSON, an unreadable file, Content that is not base64, a text no longer held. */
export class LargeTextError extends Error {
  constructor(
    message: string,
    readonly kind: ErrorKind,
  ) {
    super(message);
  }
}

/** How many texts this process made and how many the worker holds now (tests: the path taken, nothing left behind). */
export const largeTextCounts = () => ({ made, held: TextWorker.heldNow() });
let made = 0;

export class LargeText {
  private released = false;
  private constructor(
    private readonly worker: TextWorker,
    private readonly id: number,
    /** Its length in UTF-16 code units, as a string's. */
    readonly length: number,
  ) {
    collected.register(this, { worker, id }, this);
    made++;
  }

  /**
   * A request body's bytes, decoded there as body-charset.ts `decodeBody` does here. A chunk that
   * owns its memory is transferred (no copy); one that shares it (a pooled Buffer) is copied.
   */
  static async fromBytes(
    contentType: string | undefined,
    chunks: readonly Buffer[],
  ): Promise<LargeText> {
    const w = TextWorker.current();
    const transfer: ArrayBuffer[] = [];
    const sent = chunks.map((c) => {
      const own = c.byteOffset === 0 && c.buffer.byteLength === c.length;
      const b = own ? c : new Uint8Array(c);
      transfer.push(b.buffer as ArrayBuffer);
      return new Uint8Array(b.buffer, 0, b.length);
    });
    const text = w.newId();
    const r = await w.ask({ op: 'bytes', id: 0, text, contentType, chunks: sent }, transfer);
    return new LargeText(w, text, (r as { length: number }).length);
  }

  /** `read` of a large request body's text (fromBytes), the text released after. */
  static async reading<T>(
    body: { contentType: string | undefined; chunks: readonly Buffer[] },
    read: (text: LargeText) => Promise<T>,
  ): Promise<T> {
    const text = await LargeText.fromBytes(body.contentType, body.chunks);
    try {
      return await read(text);
    } finally {
      text.release();
    }
  }

  /**
   * JSON.parse of the text. A string member of the value (or the value itself) over LARGE_TEXT stays
   * there, a LargeText in the value. Not JSON: a LargeTextError of kind 'json' with JSON.parse's message.
   */
  async json(): Promise<unknown> {
    const r = await this.ask('json');
    let value = r.value;
    for (const [key, t] of this.handles(r.held))
      if (key === null) value = t;
      else (value as Record<string, unknown>)[key] = t;
    return value;
  }

  /**
   * The text read as a SOAP envelope there (protocol/soap/decode.ts `readEnvelope`): a parameter
   * over LARGE_TEXT (StringOfJSONParameters) stays there, a LargeText in `read.params`.
   */
  async envelope(): Promise<LargeEnvelopeOutcome> {
    const r = await this.ask('envelope');
    const outcome = r.value as EnvelopeOutcome;
    if (!('read' in outcome)) return outcome;
    const params = new Map<string, string | LargeText>(outcome.read.params);
    for (const [key, t] of this.handles(r.held)) params.set(key!, t);
    return { read: { ...outcome.read, params } };
  }

  /** The text read as a form body there (protocol/http-form/decode.ts `parseFields`): a field over LARGE_TEXT stays there, a LargeText. */
  async form(): Promise<Map<string, string | LargeText>> {
    const r = await this.ask('form');
    const fields = new Map<string, string | LargeText>(r.value as Map<string, string>);
    for (const [key, t] of this.handles(r.held)) fields.set(key!, t);
    return fields;
  }

  private async ask(op: 'json' | 'envelope' | 'form') {
    return (await this.worker.ask({ op, id: 0, of: this.id })) as {
      value: unknown;
      held: HeldString[];
    };
  }

  /** The worker's held strings as handles, by the key they had. */
  private handles(held: readonly HeldString[]): [string | null, LargeText][] {
    return held.map((h) => {
      this.worker.hold(h.text);
      return [h.key, new LargeText(this.worker, h.text, h.length)];
    });
  }

  /** The text here, decoded from its UTF-8 bytes in slices between turns (for a consumer that needs the string). */
  async text(): Promise<string> {
    const r = (await this.worker.ask({ op: 'text', id: 0, of: this.id })) as { bytes: ArrayBuffer };
    return decodeSliced(new TextDecoder(), new Uint8Array(r.bytes));
  }

  /**
   * The text as an import file (io/import-file.ts `rowsOfText`), read there: each slice of rows is
   * asked for when the import wants it. With `base64` the text is base64 decoded first (its encoding
   * detected as decodeBytes does). Throws FileProblem as rowsOfText does; a LargeTextError 'base64'.
   * With `now`, each row's record comes validated there (ParsedRow.checked).
   */
  rows(format: string, base64: boolean, layout?: LayoutHolder, now?: string): RowSlices {
    const w = this.worker,
      of = this.id;
    return {
      async *[Symbol.asyncIterator]() {
        const reading = w.newId();
        await w.ask({ op: 'rows', id: 0, of, reading, format, base64, now }).catch(asFileProblem);
        let done = false;
        try {
          for (;;) {
            const r = (await w.ask({ op: 'next', id: 0, reading }).catch(asFileProblem)) as
              { slice: ParsedRow[]; header?: string[] } | { done: true };
            if ('done' in r) {
              done = true;
              return;
            }
            if (r.header && layout) layout.value = { roles: headerRoles(r.header) };
            yield r.slice;
          }
        } finally {
          if (!done) w.tell({ op: 'release', id: 0, reading });
        }
      },
    };
  }

  /** The worker drops the text. */
  release(): void {
    if (this.released) return;
    this.released = true;
    collected.unregister(this);
    this.worker.tell({ op: 'release', id: 0, of: this.id });
  }
}

const asFileProblem = (e: unknown): never => {
  if (e instanceof LargeTextError && e.kind === 'file') throw new FileProblem(e.message);
  throw e;
};

const collected = new FinalizationRegistry<{ worker: TextWorker; id: number }>(({ worker, id }) =>
  worker.tell({ op: 'release', id: 0, of: id }),
);

/** The one worker, while it lives: its jobs in flight and the texts it holds. */
class TextWorker {
  private static live?: TextWorker;
  private readonly w: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (r: Reply) => void; reject: (e: Error) => void }
  >();
  private held = new Set<number>();
  private idle?: NodeJS.Timeout;
  private gone = false;
  private ids = 0;

  static heldNow(): number {
    return TextWorker.live && !TextWorker.live.gone ? TextWorker.live.held.size : 0;
  }

  static current(): TextWorker {
    if (!TextWorker.live || TextWorker.live.gone) TextWorker.live = new TextWorker();
    return TextWorker.live;
  }

  private constructor() {
    this.w = new Worker(workerEntry(URL_OF_WORKER));
    this.w.on('message', (r: Reply) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if ('error' in r) p.reject(new LargeTextError(r.error, r.kind));
      else p.resolve(r);
      this.settle();
    });
    const die = (err: Error) => {
      if (this.gone) return;
      this.gone = true;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.w.on('error', die);
    this.w.on('exit', (code) => die(new Error(`the large-text worker exited (${code})`)));
  }

  newId(): number {
    return ++this.ids;
  }

  ask(job: Job, transfer: ArrayBuffer[] = []): Promise<Reply> {
    if (this.gone) return Promise.reject(new Error('the large-text worker is gone'));
    const id = this.newId();
    this.track(job);
    clearTimeout(this.idle);
    this.w.ref(); // work in flight keeps the process up
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.w.postMessage({ ...job, id }, transfer);
    });
  }

  tell(job: Job): void {
    if (this.gone) return;
    this.track(job);
    this.w.postMessage(job);
    this.settle();
  }

  /** A text the worker made (a parsed value's large string) is held until released. */
  hold(text: number): void {
    this.held.add(text);
  }

  private track(job: Job) {
    if (job.op === 'bytes') this.held.add(job.text);
    if (job.op === 'release' && job.of !== undefined) this.held.delete(job.of);
  }

  /** Nothing in flight: the process may exit; nothing held either: the worker stops after IDLE_MS. */
  private settle() {
    if (this.pending.size) return;
    this.w.unref();
    clearTimeout(this.idle);
    if (this.held.size === 0)
      this.idle = setTimeout(() => {
        if (this.pending.size || this.held.size) return;
        this.gone = true;
        void this.w.terminate();
      }, IDLE_MS).unref();
  }
}
