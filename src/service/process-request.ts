/**
 * ProcessRequest (CONTRACT.md §5): changes and file work. Malformed parameters (bad JSON, unknown
 * Request or member, wrong types, unknown DBName) are faults; records that fail validation give a
 * `Rejected` (nothing written) or, with AllOrNothing=false, `Partial` Response listing each bad row.
 * Every write is one atomic ChangeSet. The request's time budget is checked in the row loops and
 * once more just before the write: over budget, nothing is written (the write itself is one
 * transaction and is never cut short).
 */
import { fail, type RowError } from '../errors.ts';
import { FIELDS } from '../fields/schema.ts';
import { sameContact, validateContact } from '../fields/validate.ts';
import { parseCsv, writeCsv, type ParsedRow } from '../io/csv.ts';
import { decodeBytes } from '../io/decode.ts';
import { parseVCards, writeVCards } from '../io/vcard.ts';
import { authorize } from '../security/api-keys.ts';
import type { Deadline } from '../security/deadline.ts';
import type { Contact } from '../store/contact.ts';
import type { ContactDatabase } from '../store/database.ts';
import type { OperationContext } from './context.ts';
import { readMembers, type JsonObject } from './params.ts';
import { readFields, readSelection, selectContacts } from './query/selection.ts';
import { memberSpec, REQUESTS, requestDef, type RequestDef } from './requests/definitions.ts';
import { contactElement, el, response } from './requests/response.ts';
import { every, nextTurn } from '../next-turn.ts';

const PARAM = 'StringOfJSONParameters';

type Handler = (args: JsonObject, db: ContactDatabase, ctx: OperationContext) => Promise<string> | string;

export async function processRequest(ctx: OperationContext): Promise<string> {
  const name = ctx.params[Object.keys(ctx.params).find((k) => k.toLowerCase() === 'request') ?? ''];
  if (typeof name !== 'string' || !name) {
    throw fail('MissingParameter', `$.Request is required; use one of ${REQUESTS.map((r) => r.Request).join(', ')}.`, { parameter: PARAM, path: '$.Request' });
  }
  const def = requestDef(name);
  if (!def) throw fail('UnknownRequest', `$.Request: "${name}" is not a request; GetRequestSupport lists them.`, { parameter: PARAM, path: '$.Request' });
  const args = readMembers(ctx.params, memberSpec(def, ctx.limits));
  const db = ctx.databases.get(args.DBName as string, { parameter: PARAM, path: '$.DBName' });
  authorize(ctx.caller.key, def.Scope, db.name);
  return HANDLERS[def.Request](args, db, ctx);
}

const rowErrors = (errors: RowError[]) => errors.map((e) => el('Error', { Line: e.line, Field: e.field || undefined, Reason: e.reason }));

/**
 * Validates records, then writes the good ones in one ChangeSet (unless rejected or a dry run) —
 * all with the database's writes held, so what validation saw (Mode Insert: "not there yet") is
 * still true when the write lands, though validation lets the event loop through.
 */
function writeRecords(def: RequestDef, db: ContactDatabase, rows: ParsedRow[], deadline: Deadline, opts: { mode: string; dryRun: boolean; allOrNothing: boolean }): Promise<string> {
  return db.exclusive((tx) => validateAndWrite(def, db, tx, rows, deadline, opts));
}

async function validateAndWrite(def: RequestDef, db: ContactDatabase, tx: { write: ContactDatabase['write'] }, rows: ParsedRow[], deadline: Deadline,
  opts: { mode: string; dryRun: boolean; allOrNothing: boolean }): Promise<string> {
  const now = new Date().toISOString();
  const errors: RowError[] = [];
  const good: Contact[] = [];
  const seen = new Map<string, number>();
  let unchanged = 0;
  const due = every();
  for (const row of rows) {
    deadline.check();
    if (due()) await nextTurn(); // searches keep answering during a big import
    if (row.error || !row.record) { errors.push({ line: row.line, reason: row.error ?? 'unreadable row' }); continue; }
    const { contact, problems } = validateContact(row.record, (id) => db.get(id), now);
    for (const pr of problems) errors.push({ line: row.line, field: pr.field, reason: pr.reason });
    if (!contact) continue;
    const dup = seen.get(contact.ContactId);
    if (dup !== undefined) { errors.push({ line: row.line, field: 'ContactId', reason: `"${contact.ContactId}" is also on line ${dup}` }); continue; }
    seen.set(contact.ContactId, row.line);
    const existing = db.get(contact.ContactId);
    if (opts.mode === 'Insert' && existing) { errors.push({ line: row.line, field: 'ContactId', reason: `"${contact.ContactId}" already exists (Mode Insert)` }); continue; }
    if (existing && opts.mode !== 'Replace' && sameContact(existing, { ...contact, CreatedAt: existing.CreatedAt })) { unchanged++; continue; }
    good.push(contact);
  }
  const rejected = errors.length > 0 && (opts.allOrNothing || good.length === 0 && unchanged === 0);
  const counts = { Rows: rows.length, Valid: good.length + unchanged, Invalid: errors.length ? new Set(errors.map((e) => e.line)).size : 0 };
  if (rejected) return response(def.Request, 'Rejected', [el('Summary', { ...counts, Inserted: 0, Updated: 0, Deleted: 0, Unchanged: 0 }), ...rowErrors(errors)]);
  if (opts.dryRun) return response(def.Request, errors.length ? 'Partial' : 'OK', [el('Summary', { ...counts, DryRun: true }), ...rowErrors(errors)]);
  deadline.checkNow(); // the last moment a budget overrun can still leave the data untouched
  const summary = await tx.write({ upsert: good, replaceAll: opts.mode === 'Replace' });
  return response(def.Request, errors.length ? 'Partial' : 'OK', [
    el('Summary', { ...counts, Inserted: summary.inserted, Updated: summary.updated, Deleted: summary.deleted, Unchanged: unchanged }), ...rowErrors(errors)]);
}

function fileRows(format: string, content: string, encoding: string, deadline: Deadline): { rows: ParsedRow[]; error?: string } {
  let text = content;
  if (encoding === 'Base64') {
    if (!/^[A-Za-z0-9+/=\s_-]*$/.test(content)) throw fail('InvalidValue', '$.Content is not base64 (Encoding is Base64).', { parameter: PARAM, path: '$.Content' });
    text = decodeBytes(Buffer.from(content, 'base64')).text;
  }
  deadline.checkNow(); // base64 decoding of a large file is one long native call
  if (format === 'CSV') return parseCsv(text, deadline);
  if (format === 'VCard') return parseVCards(text, deadline);
  let data: unknown;
  try { data = JSON.parse(text); } catch (e) { return { rows: [], error: `the JSON file cannot be read: ${(e as Error).message}` }; }
  const list = Array.isArray(data) ? data : data && typeof data === 'object' ? (data as { Contacts?: unknown }).Contacts : undefined;
  if (!Array.isArray(list)) return { rows: [], error: 'the JSON file must be a list of contacts or {"Contacts":[…]}' };
  return { rows: list.map((record, i) => ({ line: i + 1, record: record as Record<string, unknown> })) };
}

const HANDLERS: Record<string, Handler> = {
  GetContact(args, db) {
    const c = db.get(args.ContactId as string);
    if (!c) return response('GetContact', 'Rejected', [el('Error', { Field: 'ContactId', Reason: `no contact "${args.ContactId as string}"` })]);
    return response('GetContact', 'OK', [contactElement(c as unknown as Record<string, unknown>)]);
  },

  async UpsertContacts(args, db, ctx) {
    const list = args.Contacts;
    if (!Array.isArray(list)) throw fail('InvalidValue', '$.Contacts must be a list of contact records.', { parameter: PARAM, path: '$.Contacts' });
    return writeRecords(requestDef('UpsertContacts')!, db, list.map((record, i) => ({ line: i + 1, record: record as Record<string, unknown> })),
      ctx.deadline, { mode: 'Upsert', dryRun: false, allOrNothing: true });
  },

  async DeleteContacts(args, db, ctx) {
    const ids = args.ContactIds as string[];
    const missing = ids.filter((id) => !db.get(id));
    ctx.deadline.checkNow();
    const summary = await db.write({ delete: ids });
    return response('DeleteContacts', 'OK', [el('Summary', { Deleted: summary.deleted, NotFound: missing.length }),
      ...missing.slice(0, 1000).map((id) => el('NotFound', { ContactId: id }))]);
  },

  async ImportContacts(args, db, ctx) {
    const parsed = fileRows(args.Format as string, args.Content as string, (args.Encoding as string | undefined) ?? 'Text', ctx.deadline);
    if (parsed.error) return response('ImportContacts', 'Rejected', [el('Error', { Line: 0, Reason: parsed.error })]);
    return writeRecords(requestDef('ImportContacts')!, db, parsed.rows, ctx.deadline, {
      mode: (args.Mode as string | undefined) ?? 'Upsert', dryRun: (args.DryRun as boolean | undefined) ?? false,
      allOrNothing: (args.AllOrNothing as boolean | undefined) ?? true,
    });
  },

  ExportContacts(args, db, ctx) {
    const sel = readSelection({ Query: args.Query, Filters: args.Filters }, ctx.limits, undefined, ctx.deadline);
    const fields = readFields(args.Fields, '$.Fields') ?? [...FIELDS];
    const contacts = selectContacts(db, sel);
    const format = (args.Format as string | undefined) ?? 'CSV';
    const stamp = new Date().toISOString().slice(0, 10);
    const deadline = ctx.deadline;
    deadline.checkNow(); // the selection may have used most of the budget
    const [body, type, ext] = format === 'CSV' ? [writeCsv(contacts, fields, deadline), 'text/csv; charset=utf-8', 'csv']
      : format === 'VCard' ? [writeVCards(contacts, deadline), 'text/vcard; charset=utf-8', 'vcf']
      : [JSON.stringify({ Contacts: contacts.map((c) => {
        deadline.check();
        return Object.fromEntries(fields.map((f) => [f.name, (c as unknown as Record<string, unknown>)[f.name] ?? null]));
      }) }), 'application/json', 'json'];
    return response('ExportContacts', 'OK', [el('File', { Name: `${db.name}-${stamp}.${ext}`, ContentType: type, Encoding: 'Text', Count: contacts.length }, [body])]);
  },

  async SaveSearch(args, db, ctx) {
    const sel = readSelection({ Query: args.Query, Filters: args.Filters, Sort: args.Sort }, ctx.limits); // validate before saving
    const fields = readFields(args.Fields, '$.Fields');
    const name = (args.Name as string).trim();
    if (!name || ['default', 'compact', 'export', 'custom'].includes(name.toLowerCase())) {
      throw fail('InvalidValue', `$.Name "${name}" is empty or the name of a built-in view.`, { parameter: PARAM, path: '$.Name' });
    }
    const now = new Date().toISOString();
    const prev = db.savedSearch(name);
    await db.putSavedSearch({
      Name: name, Query: sel.query || undefined, Filters: args.Filters as unknown[] | undefined, Sort: args.Sort as unknown[] | undefined,
      Fields: fields?.map((f) => f.name), CreatedAt: prev?.CreatedAt ?? now, UpdatedAt: now,
    });
    return response('SaveSearch', 'OK', [el('SavedSearch', { Name: name, Replaced: Boolean(prev) })]);
  },

  ListSavedSearches(_args, db) {
    return response('ListSavedSearches', 'OK', db.savedSearches().map((s) =>
      el('SavedSearch', { Name: s.Name, Query: s.Query, Fields: s.Fields?.join(','), UpdatedAt: s.UpdatedAt }, [JSON.stringify({ Filters: s.Filters ?? [], Sort: s.Sort ?? [] })])));
  },

  async DeleteSavedSearch(args, db) {
    const existed = await db.deleteSavedSearch(args.Name as string);
    return response('DeleteSavedSearch', existed ? 'OK' : 'Rejected', existed ? [] : [el('Error', { Field: 'Name', Reason: `no saved search "${args.Name as string}"` })]);
  },

  async GetDatabaseInfo(_args, db) {
    const info = await db.describe();
    return response('GetDatabaseInfo', 'OK', [el('Database', { Name: db.name, Backend: db.backend, Contacts: db.size, SavedSearches: db.savedSearches().length, ...info })]);
  },
};

// Every definition has a handler, and no handler lacks a definition.
for (const r of REQUESTS) if (!HANDLERS[r.Request]) throw new Error(`no handler for ${r.Request}`);
