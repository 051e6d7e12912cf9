/**
 * An import's report: what ImportContacts, UpsertContacts and the import CLI tell of an import
 * (counts, problems grouped by kind with their lines, columns not kept, likely duplicates), as
 * ProcessRequest's `<Response>` or as text for a person at a terminal.
 */
import type { RowError } from '../../errors.ts';
import type { describeRole } from '../../io/columns.ts';
import type { Conflict } from './duplicates.ts';
import type { XmlElement } from '../types.ts';
import { el, response, type Status } from './response.ts';

/** Files bigger than this are imported without the likely-duplicate search (its keys are held per row). */
export const DUPLICATE_SEARCH_MAX_ROWS = 100_000;

export interface Duplicate {
  line: number;
  /** The existing contact, or the earlier row's contact. */
  of: string;
  ofLine?: number;
  why: string;
  merged: boolean;
  conflicts: Conflict[];
}

export interface ImportReport {
  request: string;
  status: Status;
  dryRun: boolean;
  counts: {
    Rows: number;
    Valid: number;
    Invalid: number;
    Inserted: number;
    Updated: number;
    Deleted: number;
    Unchanged: number;
    Merged: number;
  };
  errors: RowError[];
  /** One entry per kind of problem, with the lines it hits. */
  problems: { field?: string; reason: string; lines: number[] }[];
  notKept: { column: string; why: string; lines: number[] }[];
  duplicates: Duplicate[];
  duplicateSearch: 'done' | 'skipped' | 'off';
  mapping?: ReturnType<typeof describeRole>[];
  fileError?: string;
}

/** Errors of the same field and reason, with their lines: "Country "Atlantis" is not a country: rows 4, 9, 17". */
export function groupProblems(errors: RowError[]): ImportReport['problems'] {
  const by = new Map<string, { field?: string; reason: string; lines: number[] }>();
  for (const e of errors) {
    const k = `${e.field ?? ''}\u0000${e.reason}`;
    const g = by.get(k) ?? { field: e.field || undefined, reason: e.reason, lines: [] };
    g.lines.push(e.line);
    by.set(k, g);
  }
  return [...by.values()].map((g) => ({
    ...g,
    lines: [...new Set(g.lines)].sort((a, b) => a - b),
  }));
}

const LINES_SHOWN = 50;
export const lineList = (lines: number[]) =>
  lines.slice(0, LINES_SHOWN).join(', ') +
  (lines.length > LINES_SHOWN ? ` … (${lines.length - LINES_SHOWN} more)` : '');

// In line order (a slice's Mode Insert refusals are found after its validation).
const rowErrors = (errors: RowError[]) =>
  [...errors]
    .sort((a, b) => a.line - b.line)
    .map((e) => el('Error', { Line: e.line, Field: e.field || undefined, Reason: e.reason }));

export function reportXml(r: ImportReport): string {
  if (r.fileError)
    return response(r.request, 'Rejected', [el('Error', { Line: 0, Reason: r.fileError })]);
  const c = r.counts;
  const summary =
    r.status === 'Rejected'
      ? el('Summary', {
          Rows: c.Rows,
          Valid: c.Valid,
          Invalid: c.Invalid,
          Inserted: 0,
          Updated: 0,
          Deleted: 0,
          Unchanged: 0,
        })
      : r.dryRun
        ? el('Summary', {
            Rows: c.Rows,
            Valid: c.Valid,
            Invalid: c.Invalid,
            DryRun: true,
            Merged: c.Merged || undefined,
          })
        : el('Summary', {
            Rows: c.Rows,
            Valid: c.Valid,
            Invalid: c.Invalid,
            Inserted: c.Inserted,
            Updated: c.Updated,
            Deleted: c.Deleted,
            Unchanged: c.Unchanged,
            Merged: c.Merged || undefined,
          });
  const children: XmlElement[] = [summary, ...rowErrors(r.errors)];
  for (const p of r.problems)
    children.push(
      el('Problem', {
        Field: p.field,
        Reason: p.reason,
        Rows: p.lines.length,
        Lines: lineList(p.lines),
      }),
    );
  for (const n of r.notKept)
    children.push(
      el('NotKept', {
        Column: n.column,
        Why: n.why,
        Rows: n.lines.length,
        Lines: lineList(n.lines),
      }),
    );
  for (const d of r.duplicates) {
    children.push(
      el(
        'Duplicate',
        { Line: d.line, Of: d.of, OfLine: d.ofLine, Why: d.why, Merged: d.merged },
        d.conflicts.map((x) => el('Conflict', { Field: x.field, Kept: x.kept, Other: x.other })),
      ),
    );
  }
  if (r.duplicateSearch === 'skipped')
    children.push(
      el('Note', {
        Reason: `no search for likely duplicates: the file has more than ${DUPLICATE_SEARCH_MAX_ROWS} rows`,
      }),
    );
  if (r.mapping)
    children.push(
      el(
        'Mapping',
        {},
        r.mapping.map((m) =>
          el('Column', { Name: m.Column, Field: m.Field, Label: m.Label, Note: m.Note }),
        ),
      ),
    );
  return response(r.request, r.status, children);
}

/** ImportReport for a person at a terminal (the import CLI). */
export function reportText(r: ImportReport, file: string): string {
  if (r.fileError) return `${file}: not imported: ${r.fileError}`;
  const c = r.counts;
  const L: string[] = [];
  const what =
    r.status === 'Rejected'
      ? 'REJECTED, nothing written'
      : r.dryRun
        ? 'dry run, nothing written'
        : r.status === 'Partial'
          ? 'partly imported'
          : 'imported';
  L.push(`${file}: ${what}. ${c.Rows} rows: ${c.Valid} good, ${c.Invalid} with problems.`);
  if (!r.dryRun && r.status !== 'Rejected')
    L.push(
      `  ${c.Inserted} added, ${c.Updated} updated, ${c.Unchanged} unchanged, ${c.Merged} merged, ${c.Deleted} deleted.`,
    );
  if (r.problems.length) {
    L.push('Problems:');
    for (const p of r.problems)
      L.push(
        `  ${p.field && !p.reason.startsWith(p.field) ? `${p.field}: ` : ''}${p.reason}: ${p.lines.length === 1 ? 'row' : 'rows'} ${lineList(p.lines)}`,
      );
  }
  if (r.notKept.length) {
    L.push('Not kept:');
    for (const n of r.notKept)
      L.push(
        `  ${n.column}: ${n.lines.length} ${n.lines.length === 1 ? 'row' : 'rows'} (${lineList(n.lines)}), ${n.why}`,
      );
  }
  if (r.duplicates.length) {
    L.push('Likely duplicates:');
    for (const d of r.duplicates) {
      L.push(
        `  row ${d.line} and ${d.ofLine !== undefined ? `row ${d.ofLine}` : `contact ${d.of}`}: ${d.why}${d.merged ? ', merged' : ''}`,
      );
      for (const x of d.conflicts)
        L.push(`    ${x.field}: kept "${x.kept}", "${x.other}" moved to Notes`);
    }
  }
  if (r.duplicateSearch === 'skipped')
    L.push(
      `No search for likely duplicates: the file has more than ${DUPLICATE_SEARCH_MAX_ROWS} rows.`,
    );
  if (r.mapping) {
    L.push('Columns:');
    for (const m of r.mapping)
      L.push(
        `  ${m.Column} → ${m.Field ?? '(not kept)'}${m.Label ? ` [${m.Label}]` : ''}${m.Note ? `  (${m.Note})` : ''}`,
      );
  }
  return L.join('\n');
}
