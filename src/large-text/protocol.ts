/** The messages between the main thread's LargeText handles (large-text.ts) and the worker that holds the texts (worker.ts). */
import type { ParsedRow } from '../io/csv.ts';

/** `id` names the job (its reply carries it); `text` / `of` name a held text. */
export type Job =
  /** Decode request bytes, in the chunks received (body-charset.ts rules), and hold the text. */
  | { op: 'bytes'; id: number; text: number; contentType: string | undefined; chunks: Uint8Array[] }
  /** Parse a text as JSON; a large string member of the value (or the value itself) is held as a new text. */
  | { op: 'json'; id: number; of: number }
  /** Read a text as a SOAP envelope (protocol/soap/decode.ts readEnvelope); a large parameter's text is held as a new text. */
  | { op: 'envelope'; id: number; of: number }
  /** Read a text as a form body (protocol/http-form/decode.ts parseFields); a large field is held as a new text. */
  | { op: 'form'; id: number; of: number }
  /** A text as UTF-8 bytes. */
  | { op: 'text'; id: number; of: number }
  /** Start reading a text as an import file; `next` (with the same `reading`) takes each slice. */
  | {
      op: 'rows';
      id: number;
      of: number;
      reading: number;
      format: string;
      base64: boolean;
      /** Validate each row's record with this import time (ParsedRow.checked). */
      now?: string;
    }
  | { op: 'next'; id: number; reading: number }
  /** Drop a text, or a reading (not answered). */
  | { op: 'release'; id: number; of?: number; reading?: number };

/** A large string of a parsed value, held by the worker as text `text` (`key` null: the value itself; for an envelope or a form, the parameter's or field's name). */
export type HeldString = { key: string | null; text: number; length: number };

export type ErrorKind = 'json' | 'file' | 'base64' | 'gone';

export type Reply = { id: number } & (
  | { length: number }
  | { value: unknown; held: HeldString[] }
  | { bytes: ArrayBuffer }
  | { slice: ParsedRow[]; header?: string[] }
  | { done: true }
  | { error: string; kind: ErrorKind }
);
