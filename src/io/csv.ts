/**
 * CSV import and export (CONTRACT.md §5 ImportContacts / ExportContacts) with csv-parse and
 * csv-stringify. Headers match field names or aliases case- and space-insensitively (Google Contacts
 * and Outlook names included); several email or phone columns merge into the lists. Exports
 * neutralise spreadsheet formulas.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { FIELDS, columnKey, type FieldDef } from '../fields/schema.ts';
import type { Checkpoint } from '../security/deadline.ts';
import type { Contact } from '../store/contact.ts';

/** For callers without a time budget. */
export const NO_BUDGET: Checkpoint = { check() {} };

export interface ParsedRow {
  /** 1-based line of the row in the file (the header is line 1). */
  line: number;
  record?: Record<string, unknown>;
  error?: string;
}

const COLUMN = new Map<string, FieldDef>();
for (const f of FIELDS) {
  COLUMN.set(columnKey(f.name), f);
  for (const a of f.aliases) COLUMN.set(columnKey(a), f);
}

/** Column header → field, trying aliases and the numbered variants ("E-mail 2 Address", "Phone 3 - Value"). */
export function columnField(header: string): FieldDef | undefined {
  const key = columnKey(header);
  return COLUMN.get(key) ?? COLUMN.get(key.replace(/\d+/g, '1')) ?? COLUMN.get(key.replace(/\d+/g, ''));
}

function detectDelimiter(text: string): string {
  const firstLine = text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'));
  let best = ',', count = -1;
  for (const d of [',', ';', '\t', '|']) {
    const n = firstLine.split(d).length - 1;
    if (n > count) { best = d; count = n; }
  }
  return best;
}

/** `budget.check()` runs per record; csv-parse itself is one synchronous call and cannot be cut short. */
export function parseCsv(text: string, budget: Checkpoint = NO_BUDGET): { rows: ParsedRow[]; unknownColumns: string[]; error?: string } {
  const delimiter = detectDelimiter(text);
  let records: string[][];
  try {
    records = parse(text, { delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, relax_quotes: false }) as string[][];
  } catch (e) {
    return { rows: [], unknownColumns: [], error: `the CSV cannot be read: ${(e as Error).message}` };
  }
  if (records.length === 0) return { rows: [], unknownColumns: [], error: 'the CSV is empty' };
  const header = records[0];
  const fields = header.map(columnField);
  const unknownColumns = header.filter((_, i) => !fields[i]);
  if (!fields.some(Boolean)) return { rows: [], unknownColumns, error: 'no column matches a contact field (e.g. First Name, Last Name, E-mail Address)' };
  const rows: ParsedRow[] = [];
  // Line numbers: csv-parse does not report them per record in sync mode, so count newlines outside quotes.
  const lines = recordLines(text, budget);
  for (let r = 1; r < records.length; r++) {
    budget.check();
    const cells = records[r];
    const line = lines[r] ?? r + 1;
    if (cells.length !== header.length) {
      rows.push({ line, error: `has ${cells.length} cells where the header has ${header.length}` });
      continue;
    }
    const record: Record<string, unknown> = {};
    cells.forEach((cell, i) => {
      const f = fields[i];
      if (!f || cell.trim() === '') return;
      if (f.type === 'List') record[f.name] = [...((record[f.name] as string[] | undefined) ?? []), ...cell.split(/[;\n]+|\s:::\s/).map((s) => s.trim()).filter(Boolean)];
      else if (record[f.name] === undefined) record[f.name] = cell;
    });
    rows.push({ line, record });
  }
  return { rows, unknownColumns };
}

/** Starting line of each record (1-based), skipping empty lines, honouring quotes. */
function recordLines(text: string, budget: Checkpoint): number[] {
  const starts: number[] = [];
  let line = 1, inQuotes = false, atStart = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (atStart && ch !== '\n' && ch !== '\r') { starts.push(line); atStart = false; }
    if (ch === '"') inQuotes = !inQuotes;
    else if (ch === '\n') { line++; budget.check(); if (!inQuotes) atStart = true; }
  }
  return starts;
}

/**
 * A cell that a spreadsheet would run as a formula gets a leading apostrophe (CONTRACT §8). A value of
 * only digits and phone punctuation after its sign ("+46 8 123 456 78", "-12.5") cannot call anything
 * and is left alone, so phone numbers survive an export.
 */
export function neutralise(cell: string): string {
  if (/^[+-][\d\s().\/-]*$/.test(cell)) return cell;
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

export function writeCsv(contacts: Iterable<Contact>, fields: readonly FieldDef[], budget: Checkpoint = NO_BUDGET): string {
  const rows: string[][] = [fields.map((f) => f.name)];
  for (const c of contacts) {
    budget.check();
    rows.push(fields.map((f) => {
      const v = (c as unknown as Record<string, unknown>)[f.name];
      return neutralise(Array.isArray(v) ? v.join('; ') : v === undefined || v === null ? '' : String(v));
    }));
  }
  return stringify(rows, { record_delimiter: '\r\n' });
}
