/**
 * A file to import (CONTRACT.md §5 ImportContacts) as slices of rows, whatever its format and wherever
 * it comes from: ProcessRequest's Content, already in memory, or a file on disk (the import CLI).
 * CSV is parsed as it is read; vCard and JSON files are parsed whole, then sliced.
 */
import { readFile } from 'node:fs/promises';
import { ROW_SLICE } from '../next-turn.ts';
import type { Checkpoint } from '../security/deadline.ts';
import { csvRows, FileProblem, NO_BUDGET, type FileLayout, type ParsedRow } from './csv.ts';
import { decodeBytes, fileChunks } from './decode.ts';
import { parseVCards } from './vcard.ts';

export type RowSlices = AsyncIterable<ParsedRow[]>;

/** Where a CSV reader leaves its columns once it has read the header (DryRun's mapping). */
export type LayoutHolder = { value?: FileLayout };

export function rowsOfText(
  format: string,
  text: string,
  budget: Checkpoint = NO_BUDGET,
  layout?: LayoutHolder,
): RowSlices {
  if (format === 'CSV')
    return csvRows(
      text,
      budget,
      layout &&
        ((l) => {
          layout.value = l;
        }),
    );
  return sliced(() => wholeFileRows(format, text, budget));
}

export function rowsOfFile(
  format: string,
  path: string,
  onBytes?: (n: number) => void,
  layout?: LayoutHolder,
): RowSlices {
  if (format === 'CSV')
    return csvRows(
      fileChunks(path, onBytes),
      NO_BUDGET,
      layout &&
        ((l) => {
          layout.value = l;
        }),
    );
  return (async function* () {
    const bytes = await readFile(path);
    onBytes?.(bytes.length);
    yield* rowsOfText(format, decodeBytes(bytes).text);
  })();
}

async function* sliced(rows: () => ParsedRow[]): RowSlices {
  const all = rows();
  for (let i = 0; i < all.length; i += ROW_SLICE) yield all.slice(i, i + ROW_SLICE);
}

function wholeFileRows(format: string, text: string, budget: Checkpoint): ParsedRow[] {
  if (format === 'VCard') {
    const { rows, error } = parseVCards(text, budget);
    if (error) throw new FileProblem(error);
    return rows;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new FileProblem(`the JSON file cannot be read: ${(e as Error).message}`);
  }
  const list = Array.isArray(data)
    ? data
    : data && typeof data === 'object'
      ? (data as { Contacts?: unknown }).Contacts
      : undefined;
  if (!Array.isArray(list))
    throw new FileProblem('the JSON file must be a list of contacts or {"Contacts":[…]}');
  return list.map((record, i) => ({ line: i + 1, record: record as Record<string, unknown> }));
}
