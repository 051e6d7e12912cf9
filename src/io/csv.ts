/**
 * CSV import and export (CONTRACT.md §5 ImportContacts / ExportContacts) with csv-parse and
 * csv-stringify. What each column becomes is src/io/columns.ts (field names, Google Contacts and
 * Outlook headers in four languages); several email or phone columns merge into the lists with their
 * labels. Exports neutralise spreadsheet formulas in a way the import undoes (columns.ts unneutralise).
 */
import { Readable, pipeline } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import type { FieldDef } from '../fields/schema.ts';
import { headerRoles, joinOwnList, rowRecord, type ColumnRole } from './columns.ts';
import type { NotKept } from './not-kept.ts';
import type { Checkpoint } from '../security/deadline.ts';
import type { Contact } from '../fields/contact.ts';
import type { FieldProblem } from '../fields/validate.ts';
import { ROW_SLICE } from '../next-turn.ts';
import { wholeCharEnd } from './decode.ts';

/** For callers without a time budget. */
export const NO_BUDGET: Checkpoint = { check() {}, spend() {} };

export interface ParsedRow {
  /** 1-based line of the row in the file (the header is line 1). */
  line: number;
  record?: Record<string, unknown>;
  error?: string;
  /** Columns (or vCard properties) of this row with values the contact does not keep, and why. */
  notKept?: NotKept[];
  /**
   * The record validated where it was read (validateContact with the import's `now`), in its stead:
   * the large-text worker does it, so the thread that answers searches does not (~10 µs a row).
   */
  checked?: { contact?: Contact; problems: FieldProblem[] };
}

/** A file's columns and what each becomes (DryRun shows it): reported once, before the rows. */
export interface FileLayout {
  roles: readonly ColumnRole[];
}

/** The file as a whole cannot be imported (unreadable, empty, no known column): the import is Rejected, nothing written. */
export class FileProblem extends Error {}

/** The separator of a header line: the most frequent of , ; tab | outside quotes (Excel writes ; where , is the decimal comma). */
export function detectDelimiter(firstLine: string): string {
  const outside = firstLine.replace(/"[^"]*"/g, '');
  let best = ',',
    count = 0;
  for (const d of [',', ';', '\t', '|']) {
    const n = outside.split(d).length - 1;
    if (n > count) {
      best = d;
      count = n;
    }
  }
  return best;
}

const TEXT_CHUNK = 64 * 1024;
/** `text` in chunks of about TEXT_CHUNK, never between the two halves of a surrogate pair (the parser encodes each chunk: a lone half would be U+FFFD). */
function* textChunks(text: string): Generator<string> {
  for (let i = 0; i < text.length;) {
    const end = wholeCharEnd(text, i + TEXT_CHUNK);
    yield text.slice(i, end);
    i = end;
  }
}

/** Newlines (`\n`) in `s`. */
function newlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * CSV rows in slices of ROW_SLICE, parsed as they are read (csv-parse's stream API): a file of any size is
 * held one slice at a time, and a caller that awaits between slices lets the event loop through.
 * Text input (ProcessRequest's Content) is fed in 64 KiB pieces; a file comes as its read chunks
 * (Buffers are UTF-8; csv-parse decodes them). `budget.check()` runs per record. A file that cannot
 * be read (broken quoting, empty, no known column) throws FileProblem — possibly after some slices.
 */
export async function* csvRows(
  input: string | AsyncIterable<string | Buffer>,
  budget: Checkpoint = NO_BUDGET,
  layout?: (l: FileLayout) => void,
): AsyncGenerator<ParsedRow[]> {
  const source = typeof input === 'string' ? textChunks(input) : input;
  const it = (
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]()
  ) as AsyncIterator<string | Buffer> | Iterator<string | Buffer>;
  // The delimiter is read off the first line, so the chunks up to its end are taken first.
  const head: (string | Buffer)[] = [];
  let firstLine = '';
  while (!firstLine.includes('\n')) {
    const next = await it.next();
    if (next.done) break;
    head.push(next.value);
    firstLine += typeof next.value === 'string' ? next.value : next.value.toString('utf8');
  }
  async function* all() {
    yield* head;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  }
  // Empty lines come through as [""] and are skipped here, so every line is counted: csv-parse's own
  // line counts drift after an empty CRLF line when it skips them.
  const parser = parse({
    delimiter: detectDelimiter(firstLine.split('\n', 1)[0]),
    bom: true,
    relax_column_count: true,
    relax_quotes: false,
  });
  pipeline(Readable.from(all(), { objectMode: false }), parser, () => {
    /* errors reach the loop below through the parser */
  });

  let header: string[] | undefined;
  let roles: ColumnRole[] = [];
  let line = 1; // where the next record starts
  let slice: ParsedRow[] = [];
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      budget.check();
      const at = line;
      line++;
      for (const cell of cells) line += newlines(cell); // quoted line breaks
      if (cells.length === 1 && cells[0] === '') continue;
      if (!header) {
        header = cells;
        roles = headerRoles(header);
        if (!roles.some((r) => r.field || r.fullName))
          throw new FileProblem(
            'no column matches a contact field (e.g. First Name, Last Name, E-mail Address)',
          );
        layout?.({ roles });
        continue;
      }
      slice.push(
        cells.length !== header.length
          ? { line: at, error: `has ${cells.length} cells where the header has ${header.length}` }
          : { line: at, ...rowRecord(cells, roles) },
      );
      if (slice.length === ROW_SLICE) {
        yield slice;
        slice = [];
      }
    }
  } catch (e) {
    if (e instanceof CsvError) throw new FileProblem(`the CSV cannot be read: ${e.message}`);
    throw e;
  }
  if (!header) throw new FileProblem('the CSV is empty');
  if (slice.length) yield slice;
}

/**
 * A cell that a spreadsheet would run as a formula gets a leading apostrophe (CONTRACT §8). A value of
 * only digits and phone punctuation after its sign ("+46 8 123 456 78", "-12.5") cannot call anything
 * and is left alone, so phone numbers survive an export. A value that itself starts with `'` gets one
 * more, so the import (columns.ts unneutralise) can take exactly one off and give every value back.
 */
export function neutralise(cell: string): string {
  if (/^[+-][\d\s()./-]*$/.test(cell)) return cell;
  return /^[=+\-@\t\r']/.test(cell) ? `'${cell}` : cell;
}

export function writeCsv(
  contacts: Iterable<Contact>,
  fields: readonly FieldDef[],
  budget: Checkpoint = NO_BUDGET,
): string {
  const rows: string[][] = [fields.map((f) => f.name)];
  for (const c of contacts) {
    budget.check();
    rows.push(
      fields.map((f) => {
        const v = (c as unknown as Record<string, unknown>)[f.name];
        return neutralise(
          Array.isArray(v) ? joinOwnList(v) : v === undefined || v === null ? '' : String(v),
        );
      }),
    );
  }
  // Any line break is quoted: csv-stringify quotes only the record delimiter (CRLF), and a bare LF or CR cell broke the row.
  return stringify(rows, { record_delimiter: '\r\n', quoted_match: /[\r\n\u2028\u2029]/ });
}
