/**
 * The write path of ImportContacts and UpsertContacts (CONTRACT.md §5), and of the import CLI:
 * rows arrive in slices; each slice is validated, its contacts looked up as they were before the
 * import, and its good rows streamed into the target's one transaction. At the end the transaction
 * commits (OK / Partial) or rolls back (Rejected, DryRun, a file that turns out unreadable, an error,
 * the time budget) — all or nothing however the file was read. Per row only what the Response
 * reports (errors) and the ids seen (duplicates, Mode Replace) are kept.
 */
import type { RowError } from '../../errors.ts';
import { sameContact, validateContact } from '../../fields/validate.ts';
import { FileProblem } from '../../io/csv.ts';
import type { RowSlices } from '../../io/import-file.ts';
import { nextTurn } from '../../next-turn.ts';
import type { Deadline } from '../../security/deadline.ts';
import type { Contact } from '../../fields/contact.ts';
import type { ImportTarget, ImportWrite } from '../../store/import-target.ts';
import type { IMPORT_MODES } from './definitions.ts';
import { el, response } from './response.ts';

export type ImportMode = (typeof IMPORT_MODES)[number];

export interface ImportOptions {
  /** The Request named in the Response. */
  request: string;
  mode: ImportMode;
  dryRun: boolean;
  allOrNothing: boolean;
  /** Called after each slice with the rows read so far (the CLI's progress). */
  progress?: (rows: number) => void;
}

// In line order (a slice's Mode Insert refusals are found after its validation).
const rowErrors = (errors: RowError[]) => errors.sort((a, b) => a.line - b.line).map((e) => el('Error', { Line: e.line, Field: e.field || undefined, Reason: e.reason }));

export async function importRecords(target: ImportTarget, source: RowSlices, deadline: Pick<Deadline, 'check' | 'checkNow'>, opts: ImportOptions): Promise<string> {
  const now = new Date().toISOString();
  const errors: RowError[] = [];
  const seen = new Map<string, number>(); // ContactId → line: duplicates in the file, and what a Replace keeps
  let rows = 0, inserted = 0, updated = 0, unchanged = 0;
  let write: ImportWrite | undefined;
  try {
    for await (const slice of source) {
      rows += slice.length;
      const valid: Contact[] = [];
      for (const row of slice) {
        deadline.check();
        if (row.error || !row.record) { errors.push({ line: row.line, reason: row.error ?? 'unreadable row' }); continue; }
        const { contact, problems } = validateContact(row.record, now);
        for (const pr of problems) errors.push({ line: row.line, field: pr.field, reason: pr.reason });
        if (!contact) continue;
        const dup = seen.get(contact.ContactId);
        if (dup !== undefined) { errors.push({ line: row.line, field: 'ContactId', reason: `"${contact.ContactId}" is also on line ${dup}` }); continue; }
        seen.set(contact.ContactId, row.line);
        valid.push(contact);
      }
      const existing = await target.lookup(valid.map((c) => c.ContactId));
      const good: Contact[] = [];
      for (const contact of valid) {
        const prev = existing.get(contact.ContactId);
        if (prev) {
          if (opts.mode === 'Insert') { errors.push({ line: seen.get(contact.ContactId)!, field: 'ContactId', reason: `"${contact.ContactId}" already exists (Mode Insert)` }); continue; }
          contact.CreatedAt = prev.CreatedAt;
          if (opts.mode !== 'Replace' && sameContact(prev, contact)) { unchanged++; continue; }
          updated++;
        } else inserted++;
        good.push(contact);
      }
      // Once AllOrNothing has a bad row, the file is Rejected: keep validating to report every row, write no more.
      if (!opts.dryRun && good.length && !(opts.allOrNothing && errors.length)) {
        deadline.checkNow(); // before every store write
        write ??= await target.begin(opts.mode === 'Replace');
        await write.put(good);
      }
      opts.progress?.(rows);
      await nextTurn(); // searches keep answering during a big import
    }
  } catch (e) {
    await write?.rollback();
    if (e instanceof FileProblem) return response(opts.request, 'Rejected', [el('Error', { Line: 0, Reason: e.message })]);
    throw e;
  }
  const counts = { Rows: rows, Valid: inserted + updated + unchanged, Invalid: errors.length ? new Set(errors.map((e) => e.line)).size : 0 };
  const rejected = errors.length > 0 && (opts.allOrNothing || counts.Valid === 0);
  if (rejected || opts.dryRun) {
    await write?.rollback();
    if (rejected) return response(opts.request, 'Rejected', [el('Summary', { ...counts, Inserted: 0, Updated: 0, Deleted: 0, Unchanged: 0 }), ...rowErrors(errors)]);
    return response(opts.request, errors.length ? 'Partial' : 'OK', [el('Summary', { ...counts, DryRun: true }), ...rowErrors(errors)]);
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
  return response(opts.request, errors.length ? 'Partial' : 'OK', [
    el('Summary', { ...counts, Inserted: inserted, Updated: updated, Deleted: deleted, Unchanged: unchanged }), ...rowErrors(errors)]);
}
