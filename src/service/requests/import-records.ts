/**
 * The write path of ImportContacts and UpsertContacts (CONTRACT.md §5), and of the import CLI:
 * rows arrive in slices; each slice is validated, its contacts looked up as they were before the
 * import, and its good rows streamed into the target's one transaction. At the end the transaction
 * commits (OK / Partial) or rolls back (Rejected, DryRun, a file that turns out unreadable, an error,
 * the time budget) — all or nothing however the file was read. Per row only what the report needs
 * (errors, columns not kept, duplicate keys) and the ids seen (duplicates, Mode Replace) are kept;
 * Mode Merge holds the file's contacts, since a row may merge into one written before it.
 *
 * The report itself (its shape, grouping, XML and text) is import-report.ts.
 */
import type { RowError } from '../../errors.ts';
import { sameContact, validateContact } from '../../fields/validate.ts';
import { describeRole } from '../../io/columns.ts';
import { FileProblem, type FileLayout } from '../../io/csv.ts';
import type { RowSlices } from '../../io/import-file.ts';
import { nextTurn, timeSlice } from '../../next-turn.ts';
import type { Deadline } from '../../security/deadline.ts';
import { deriveDisplayName, type Contact } from '../../fields/contact.ts';
import type { ImportTarget, ImportWrite } from '../../store/import-target.ts';
import type { IMPORT_MODES } from './definitions.ts';
import { duplicateKeys, KeyMap, mergeContacts, sharingRows, whyDuplicate } from './duplicates.ts';
import type { Status } from './response.ts';
import {
  DUPLICATE_SEARCH_MAX_ROWS,
  groupProblems,
  reportXml,
  type Duplicate,
  type ImportReport,
} from './import-report.ts';

export type ImportMode = (typeof IMPORT_MODES)[number];

export interface ImportOptions {
  /** The Request named in the Response. */
  request: string;
  mode: ImportMode;
  dryRun: boolean;
  allOrNothing: boolean;
  /** Called after each slice with the rows read so far (the CLI's progress). */
  progress?: (rows: number) => void;
  /** Look for likely duplicates (ImportContacts and the CLI; UpsertContacts names its contacts by id). */
  duplicates?: boolean;
  /** Filled by a CSV reader with its columns once the header is read (the mapping DryRun shows). */
  layout?: { value?: FileLayout };
  /** The import's time (created and updated stamps): that of rows validated where they were read (ParsedRow.checked). */
  now?: string;
}

/** ImportReport as the `<Response>` of ProcessRequest. */
export async function importRecords(
  target: ImportTarget,
  source: RowSlices,
  deadline: Pick<Deadline, 'check' | 'checkNow'>,
  opts: ImportOptions,
): Promise<string> {
  return reportXml(await importReport(target, source, deadline, opts));
}

export async function importReport(
  target: ImportTarget,
  source: RowSlices,
  deadline: Pick<Deadline, 'check' | 'checkNow'>,
  opts: ImportOptions,
): Promise<ImportReport> {
  const now = opts.now ?? new Date().toISOString();
  const errors: RowError[] = [];
  const notKept = new Map<string, { why: string; lines: number[] }>();
  const seen = new Map<string, number>(); // ContactId → line: duplicates in the file, and what a Replace keeps
  const keys = new KeyMap<{ line: number; id: string }>(); // duplicate key → first row with it
  const duplicates: Duplicate[] = [];
  const rowOfLine = new Map<number, Contact>(); // Mode Merge: the file's contacts
  const merge = opts.mode === 'Merge';
  let searchDuplicates = Boolean(opts.duplicates) || merge;
  let rows = 0,
    inserted = 0,
    updated = 0,
    unchanged = 0,
    merged = 0;
  let write: ImportWrite | undefined;
  const report = (status: Status, extra: Partial<ImportReport> = {}): ImportReport => ({
    request: opts.request,
    status,
    dryRun: opts.dryRun,
    counts: {
      Rows: rows,
      Valid: inserted + updated + unchanged + merged,
      Invalid: errors.length ? new Set(errors.map((e) => e.line)).size : 0,
      Inserted: inserted,
      Updated: updated,
      Deleted: 0,
      Unchanged: unchanged,
      Merged: merged,
    },
    errors,
    problems: groupProblems(errors),
    notKept: [...notKept].map(([column, n]) => ({ column, ...n })),
    duplicates,
    duplicateSearch: searchDuplicates ? 'done' : opts.duplicates && !merge ? 'skipped' : 'off',
    mapping: opts.dryRun ? opts.layout?.value?.roles.map(describeRole) : undefined,
    ...extra,
  });
  const putGood = async (good: Contact[]) => {
    // Once AllOrNothing has a bad row, the file is Rejected: keep validating to report every row, write no more.
    if (!opts.dryRun && good.length && !(opts.allOrNothing && errors.length)) {
      deadline.checkNow(); // before every store write
      write ??= await target.begin(opts.mode === 'Replace');
      await write.put(good);
    }
  };
  // A slice's rows are validated in turns of a few ms, not the 500 of a slice in one turn: a search
  // waits behind one such turn at most, however slow the rows are (docs/perf-log/2026-11-28-fast-vm.md).
  const due = timeSlice();
  try {
    for await (const slice of source) {
      rows += slice.length;
      if (rows > DUPLICATE_SEARCH_MAX_ROWS && !merge) {
        searchDuplicates = false;
        keys.clear();
        duplicates.length = 0;
      }
      const valid: Contact[] = [];
      for (const row of slice) {
        if (due()) await nextTurn();
        deadline.check();
        for (const { column, why } of row.notKept ?? []) {
          const n = notKept.get(column) ?? { why, lines: [] };
          if (n.lines.length < 10_000) n.lines.push(row.line);
          notKept.set(column, n);
        }
        if (row.error || !(row.record || row.checked)) {
          errors.push({ line: row.line, reason: row.error ?? 'unreadable row' });
          continue;
        }
        const { contact, problems } = row.checked ?? validateContact(row.record, now);
        for (const pr of problems)
          errors.push({ line: row.line, field: pr.field, reason: pr.reason });
        if (!contact) continue;
        const dup = seen.get(contact.ContactId);
        if (dup !== undefined) {
          errors.push({
            line: row.line,
            field: 'ContactId',
            reason: `"${contact.ContactId}" is also on line ${dup}`,
          });
          continue;
        }
        seen.set(contact.ContactId, row.line);
        if (searchDuplicates) {
          let found = false;
          for (const k of duplicateKeys(contact)) {
            const first = keys.get(k);
            if (!first) {
              keys.set(k, { line: row.line, id: contact.ContactId });
              continue;
            }
            if (!found && first.line !== row.line) {
              duplicates.push({
                line: row.line,
                of: first.id,
                ofLine: first.line,
                why: whyDuplicate(k),
                merged: false,
                conflicts: [],
              });
              found = true;
            }
          }
        }
        if (merge) rowOfLine.set(row.line, contact);
        else valid.push(contact);
      }
      if (!merge) {
        const existing = await target.lookup(valid.map((c) => c.ContactId));
        const good: Contact[] = [];
        for (const contact of valid) {
          const prev = existing.get(contact.ContactId);
          if (prev) {
            if (opts.mode === 'Insert') {
              errors.push({
                line: seen.get(contact.ContactId)!,
                field: 'ContactId',
                reason: `"${contact.ContactId}" already exists (Mode Insert)`,
              });
              continue;
            }
            contact.CreatedAt = prev.CreatedAt;
            if (opts.mode !== 'Replace' && sameContact(prev, contact)) {
              unchanged++;
              continue;
            }
            updated++;
          } else inserted++;
          good.push(contact);
        }
        await putGood(good);
      }
      opts.progress?.(rows);
      await nextTurn(); // searches keep answering during a big import
    }
    if (searchDuplicates) await findExistingDuplicates(target, keys, seen, duplicates);
    if (merge)
      await putGood(
        await mergeRows(target, rowOfLine, duplicates, now, (n) => {
          inserted += n.inserted;
          updated += n.updated;
          unchanged += n.unchanged;
          merged += n.merged;
        }),
      );
  } catch (e) {
    await write?.rollback();
    if (e instanceof FileProblem) return { ...report('Rejected'), fileError: e.message };
    throw e;
  }
  const valid = inserted + updated + unchanged + merged;
  const rejected = errors.length > 0 && (opts.allOrNothing || valid === 0);
  if (rejected || opts.dryRun) {
    await write?.rollback();
    if (rejected) {
      inserted = updated = unchanged = merged = 0;
      return { ...report('Rejected'), counts: { ...report('Rejected').counts, Valid: valid } };
    }
    return report(errors.length ? 'Partial' : 'OK');
  }
  let deleted = 0;
  try {
    deadline.checkNow(); // the last moment a budget overrun can still leave the data untouched
    if (opts.mode === 'Replace') write ??= await target.begin(true); // a Replace with nothing new still empties the rest
    if (write) deleted = await write.commit(seen.keys());
  } catch (e) {
    await write?.rollback();
    throw e;
  }
  const done = report(errors.length ? 'Partial' : 'OK');
  done.counts.Deleted = deleted;
  return done;
}

/** Existing contacts (other than those the file names by id) that share a key with a row: one entry per row. */
async function findExistingDuplicates(
  target: ImportTarget,
  keys: KeyMap<{ line: number; id: string }>,
  seen: Map<string, number>,
  duplicates: Duplicate[],
): Promise<void> {
  if (!keys.size) return;
  const reported = new Set(duplicates.filter((d) => d.ofLine === undefined).map((d) => d.line));
  // Each row has at most one entry: found by its line (a search of the list per match was
  // quadratic when a file's rows are mostly duplicates of existing contacts).
  const entryOf = new Map(duplicates.map((d, i) => [d.line, i]));
  const consider = (c: Contact) => {
    if (seen.has(c.ContactId)) return;
    for (const k of duplicateKeys(c)) {
      const row = keys.get(k);
      if (!row || reported.has(row.line)) continue;
      reported.add(row.line);
      // A row that matches an existing contact is that contact's duplicate first, not an earlier row's.
      const i = entryOf.get(row.line);
      const entry = {
        line: row.line,
        of: c.ContactId,
        why: whyDuplicate(k),
        merged: false,
        conflicts: [],
      };
      if (i !== undefined) duplicates[i] = entry;
      else entryOf.set(row.line, duplicates.push(entry) - 1);
    }
  };
  const due = timeSlice(); // a million contacts: searches answer in between
  const scan = await target.scan?.();
  if (scan) {
    // Only the rows that share a key with a row not reported yet are read in full.
    const { rows, may } = await sharingRows(scan, keys, (row) => !reported.has(row.line));
    for (const row of rows) {
      if (due()) await nextTurn();
      if (may(row)) consider(scan.view(row));
    }
  } else if (target.existing)
    for await (const batch of target.existing())
      for (const c of batch) {
        if (due()) await nextTurn();
        consider(c);
      }
  duplicates.sort((a, b) => a.line - b.line);
}

/** Mode Merge: each row merged into the contact it duplicates (existing by id or likely duplicate, or an earlier row), else added. */
async function mergeRows(
  target: ImportTarget,
  rowOfLine: Map<number, Contact>,
  duplicates: Duplicate[],
  now: string,
  count: (n: { inserted: number; updated: number; unchanged: number; merged: number }) => void,
): Promise<Contact[]> {
  const dupOf = new Map(duplicates.map((d) => [d.line, d]));
  const wanted = [...rowOfLine.values()]
    .map((c) => c.ContactId)
    .concat(duplicates.filter((d) => d.ofLine === undefined).map((d) => d.of));
  const existing = await target.lookup([...new Set(wanted)]);
  const out = new Map<string, Contact>(); // id → the contact to write
  const lineTarget = new Map<number, string>(); // row line → the id its contact went to
  const byId: string[] = []; // ids named by a row that exist (updated or unchanged)
  const n = { inserted: 0, updated: 0, unchanged: 0, merged: 0 };
  for (const [line, row] of rowOfLine) {
    const d = dupOf.get(line);
    const named = existing.has(row.ContactId);
    const intoId = named
      ? row.ContactId
      : d
        ? d.ofLine === undefined
          ? d.of
          : lineTarget.get(d.ofLine)
        : undefined;
    const into = intoId === undefined ? undefined : (out.get(intoId) ?? existing.get(intoId));
    if (intoId === undefined || !into) {
      out.set(row.ContactId, row);
      lineTarget.set(line, row.ContactId);
      n.inserted++;
      continue;
    }
    const { merged, conflicts } = mergeContacts(into, row, `merged from line ${line}`);
    merged.DisplayName = deriveDisplayName(merged);
    merged.UpdatedAt = now;
    out.set(intoId, merged);
    lineTarget.set(line, intoId);
    if (named) {
      byId.push(intoId);
      if (conflicts.length)
        duplicates.push({ line, of: intoId, why: 'same ContactId', merged: true, conflicts });
    } else {
      d!.merged = true;
      d!.conflicts = conflicts;
      n.merged++;
    }
  }
  const write: Contact[] = [];
  for (const [id, c] of out) {
    const prev = existing.get(id);
    if (prev && sameContact(prev, c)) continue;
    write.push(c);
  }
  const written = new Set(write.map((c) => c.ContactId));
  for (const id of byId)
    if (written.has(id)) n.updated++;
    else n.unchanged++;
  duplicates.sort((a, b) => a.line - b.line);
  count(n);
  return write;
}
