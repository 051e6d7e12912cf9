/**
 * The large-text worker (large-text.ts): holds the large texts of requests in flight, so that the
 * main thread never copies, flattens or parses one — it decodes their bytes, parses their JSON, reads
 * them as import files and posts back only what the main thread needs: small values, and rows a slice
 * at a time.
 */
import { parentPort } from 'node:worker_threads';
import { decodeBody } from '../http/body-charset.ts';
import { FileProblem, NO_BUDGET, type FileLayout, type ParsedRow } from '../io/csv.ts';
import { base64Text } from '../io/decode.ts';
import { rowsOfText } from '../io/import-file.ts';
import { validateContact } from '../fields/validate.ts';
import { LARGE_TEXT } from '../next-turn.ts';
import { parseFields } from '../protocol/http-form/decode.ts';
import { readEnvelope } from '../protocol/soap/decode.ts';
import type { ErrorKind, HeldString, Job, Reply } from './protocol.ts';
import { BACKGROUND_NICE, nicer } from '../nicer.mjs';

nicer(BACKGROUND_NICE); // searches' thread first: an import's parsing and checks wait for a spare core

const texts = new Map<number, string>();
const readings = new Map<
  number,
  {
    rows: AsyncIterator<ParsedRow[]>;
    layout: { value?: FileLayout };
    told: boolean;
    now?: string;
  }
>();
let nextHeld = 0;

const post = (reply: Reply, transfer: ArrayBuffer[] = []) =>
  parentPort!.postMessage(reply, transfer);

parentPort!.on('message', (job: Job) => {
  void run(job).catch((e: Error) => post({ id: job.id, error: e.message, kind: kindOf(e) }));
});

function kindOf(e: Error): ErrorKind {
  if (e instanceof SyntaxError) return 'json';
  if (e instanceof FileProblem) return 'file';
  if (e instanceof Gone) return 'gone';
  if (e instanceof NotBase64) return 'base64';
  throw e; // a bug: the worker's error event tells the main thread
}

class Gone extends Error {}
class NotBase64 extends Error {}

function held(id: number): string {
  const t = texts.get(id);
  if (t === undefined) throw new Gone(`text ${id} is not held`);
  return t;
}

/** A string held as a text of its own (ids on this side are negative: the main thread's are positive). */
function hold(s: string, key: string | null): HeldString {
  const text = --nextHeld;
  texts.set(text, s);
  return { key, text, length: s.length };
}

/** The entries whose value is a string over LARGE_TEXT, held and `cleared` in the value posted back. */
function holdLarge(
  entries: Iterable<[string, unknown]>,
  cleared: (key: string) => void,
): HeldString[] {
  const list: HeldString[] = [];
  for (const [k, v] of entries)
    if (typeof v === 'string' && v.length > LARGE_TEXT) {
      list.push(hold(v, k));
      cleared(k);
    }
  return list;
}

async function run(job: Job): Promise<void> {
  switch (job.op) {
    case 'bytes': {
      const text = decodeBody(job.contentType, Buffer.concat(job.chunks));
      texts.set(job.text, text);
      return post({ id: job.id, length: text.length });
    }
    case 'json': {
      const value = JSON.parse(held(job.of)) as unknown;
      if (typeof value === 'string' && value.length > LARGE_TEXT)
        return post({ id: job.id, value: '', held: [hold(value, null)] });
      // Only a top-level member may be large (ProcessRequest's Content, StringOfJSONParameters).
      const list =
        value !== null && typeof value === 'object' && !Array.isArray(value)
          ? holdLarge(Object.entries(value), (k) => ((value as Record<string, unknown>)[k] = ''))
          : [];
      return post({ id: job.id, value, held: list });
    }
    case 'envelope': {
      const outcome = readEnvelope(held(job.of));
      const params = 'read' in outcome ? outcome.read.params : undefined;
      const list = params ? holdLarge([...params], (k) => params.set(k, '')) : [];
      return post({ id: job.id, value: outcome, held: list });
    }
    case 'form': {
      const fields = parseFields(held(job.of));
      const list = holdLarge([...fields], (k) => fields.set(k, ''));
      return post({ id: job.id, value: fields, held: list });
    }
    case 'text': {
      const b = Buffer.from(held(job.of), 'utf8');
      const bytes = (b.byteOffset === 0 && b.buffer.byteLength === b.length ? b : new Uint8Array(b))
        .buffer as ArrayBuffer;
      return post({ id: job.id, bytes }, [bytes]);
    }
    case 'rows': {
      const text = job.base64 ? base64Text(held(job.of)) : held(job.of);
      if (text === undefined) throw new NotBase64('not base64');
      const layout: { value?: FileLayout } = {};
      const rows = rowsOfText(job.format, text, NO_BUDGET, layout)[Symbol.asyncIterator]();
      readings.set(job.reading, { rows, layout, told: false, now: job.now });
      return post({ id: job.id, done: true });
    }
    case 'next': {
      const r = readings.get(job.reading);
      if (!r) throw new Gone(`reading ${job.reading} is over`);
      const next = await r.rows.next();
      if (next.done) {
        readings.delete(job.reading);
        return post({ id: job.id, done: true });
      }
      if (r.now !== undefined) for (const row of next.value) check(row, r.now);
      const header =
        !r.told && r.layout.value ? r.layout.value.roles.map((x) => x.header) : undefined;
      if (header) r.told = true;
      return post({ id: job.id, slice: next.value, header });
    }
    case 'release': {
      if (job.of !== undefined) texts.delete(job.of);
      if (job.reading !== undefined) {
        void readings.get(job.reading)?.rows.return?.(undefined);
        readings.delete(job.reading);
      }
      return;
    }
  }
}

/** The row's record validated here and sent in its stead (ParsedRow.checked). */
function check(row: ParsedRow, now: string): void {
  if (row.error || !row.record) return;
  row.checked = validateContact(row.record, now);
  row.record = undefined;
}
