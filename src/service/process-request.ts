/**
 * ProcessRequest (CONTRACT.md §5): changes and file work. Malformed parameters (bad JSON, unknown
 * Request or member, wrong types, unknown DBName) are faults; records that fail validation give a
 * `Rejected` (nothing written) or, with AllOrNothing=false, `Partial` Response listing each bad row.
 * Every write is one transaction (imports: requests/import-records.ts). The request's time budget is
 * checked in the row loops and before every store write: over budget, the transaction is rolled back.
 */
import { fail } from '../errors.ts';
import { FIELDS } from '../fields/schema.ts';
import { writeCsv } from '../io/csv.ts';
import { base64Text } from '../io/decode.ts';
import { rowsOfText, type LayoutHolder, type RowSlices } from '../io/import-file.ts';
import { LargeText, LargeTextError } from '../large-text/large-text.ts';
import { writeVCards } from '../io/vcard.ts';
import { authorize } from '../security/api-keys.ts';
import type { Deadline } from '../security/deadline.ts';
import type { ContactDatabase } from '../database/database.ts';
import type { OperationContext } from './context.ts';
import { readMembers, type JsonObject } from './params.ts';
import { selectContacts } from '../search/select/selection.ts';
import { readFields, readSelection } from './read-selection.ts';
import { memberSpec, REQUESTS, requestDef } from './requests/definitions.ts';
import { importRecords, type ImportMode, type ImportOptions } from './requests/import-records.ts';
import { contactElement, el, response } from './requests/response.ts';

const PARAM = 'StringOfJSONParameters';

type Handler = (
  args: JsonObject,
  db: ContactDatabase,
  ctx: OperationContext,
) => Promise<string> | string;

export async function processRequest(ctx: OperationContext): Promise<string> {
  const name = ctx.params[Object.keys(ctx.params).find((k) => k.toLowerCase() === 'request') ?? ''];
  if (typeof name !== 'string' || !name) {
    throw fail(
      'MissingParameter',
      `$.Request is required; use one of ${REQUESTS.map((r) => r.Request).join(', ')}.`,
      { parameter: PARAM, path: '$.Request' },
    );
  }
  const def = requestDef(name);
  if (!def)
    throw fail(
      'UnknownRequest',
      `$.Request: "${name}" is not a request; GetRequestSupport lists them.`,
      { parameter: PARAM, path: '$.Request' },
    );
  const args = readMembers(ctx.params, memberSpec(def, ctx.limits));
  const db = ctx.databases.get(args.DBName as string, { parameter: PARAM, path: '$.DBName' });
  authorize(ctx.caller.key, def.Scope, db.name);
  if (def.Scope === 'write' && ctx.caller.crossSite) {
    throw fail(
      'Forbidden',
      `A page of another site may not change data here (${ctx.caller.crossSite}); a page served elsewhere needs its origin in allowedOrigins.`,
    );
  }
  await db.sync(); // reads (exports, saved searches, info) see others' writes; writes catch up anyway
  return HANDLERS[def.Request](args, db, ctx);
}

/** Imports and upserts: validated and written slice by slice in one transaction, with the database's writes held. */
function writeRecords(
  db: ContactDatabase,
  source: RowSlices,
  deadline: Deadline,
  opts: ImportOptions,
): Promise<string> {
  return db.exclusive((tx) => importRecords(tx.import, source, deadline, opts));
}

const notBase64 = () =>
  fail('InvalidValue', '$.Content is not base64 (Encoding is Base64).', {
    parameter: PARAM,
    path: '$.Content',
  });

/**
 * Content as rows: base64 decoded, its encoding detected (BOMs, UTF-8, else Windows-1252), read as
 * its Format. Content held by the large-text worker is decoded and read there, a slice at a time.
 */
function contentRows(
  content: string | LargeText,
  format: string,
  encoding: string,
  deadline: Deadline,
  layout: LayoutHolder,
  now: string,
): RowSlices {
  if (content instanceof LargeText)
    return (async function* () {
      try {
        for await (const slice of content.rows(format, encoding === 'Base64', layout, now)) {
          deadline.checkNow();
          yield slice;
        }
      } catch (e) {
        throw e instanceof LargeTextError && e.kind === 'base64' ? notBase64() : e;
      } finally {
        content.release();
      }
    })();
  if (encoding !== 'Base64') return rowsOfText(format, content, deadline, layout);
  const text = base64Text(content);
  if (text === undefined) throw notBase64();
  deadline.checkNow(); // base64 decoding of a large file is one long native call
  return rowsOfText(format, text, deadline, layout);
}

const HANDLERS: Record<string, Handler> = {
  GetContact(args, db) {
    const c = db.get(args.ContactId as string);
    if (!c)
      return response('GetContact', 'Rejected', [
        el('Error', { Field: 'ContactId', Reason: `no contact "${args.ContactId as string}"` }),
      ]);
    return response('GetContact', 'OK', [contactElement(c as unknown as Record<string, unknown>)]);
  },

  async UpsertContacts(args, db, ctx) {
    const list = args.Contacts;
    if (!Array.isArray(list))
      throw fail('InvalidValue', '$.Contacts must be a list of contact records.', {
        parameter: PARAM,
        path: '$.Contacts',
      });
    const rows = list.map((record, i) => ({
      line: i + 1,
      record: record as Record<string, unknown>,
    }));
    return writeRecords(
      db,
      (async function* () {
        yield rows;
      })(),
      ctx.deadline,
      { request: 'UpsertContacts', mode: 'Upsert', dryRun: false, allOrNothing: true },
    );
  },

  async DeleteContacts(args, db, ctx) {
    const ids = args.ContactIds as string[];
    const missing = ids.filter((id) => !db.get(id));
    ctx.deadline.checkNow();
    const summary = await db.write({ delete: ids });
    return response('DeleteContacts', 'OK', [
      el('Summary', { Deleted: summary.deleted, NotFound: missing.length }),
      ...missing.slice(0, 1000).map((id) => el('NotFound', { ContactId: id })),
    ]);
  },

  async ImportContacts(args, db, ctx) {
    const layout: LayoutHolder = {};
    const now = new Date().toISOString(); // the rows' too, where the worker validates them
    return writeRecords(
      db,
      contentRows(
        args.Content as string | LargeText,
        args.Format as string,
        (args.Encoding as string | undefined) ?? 'Text',
        ctx.deadline,
        layout,
        now,
      ),
      ctx.deadline,
      {
        request: 'ImportContacts',
        mode: (args.Mode as ImportMode | undefined) ?? 'Upsert',
        dryRun: (args.DryRun as boolean | undefined) ?? false,
        allOrNothing: (args.AllOrNothing as boolean | undefined) ?? true,
        duplicates: true,
        layout,
        now,
      },
    );
  },

  ExportContacts(args, db, ctx) {
    const sel = readSelection(
      { Query: args.Query, Filters: args.Filters },
      ctx.limits,
      undefined,
      ctx.deadline,
    );
    const fields = readFields(args.Fields, '$.Fields') ?? [...FIELDS];
    const contacts = selectContacts(db.index, sel);
    const format = (args.Format as string | undefined) ?? 'CSV';
    const stamp = new Date().toISOString().slice(0, 10);
    const deadline = ctx.deadline;
    deadline.checkNow(); // the selection may have used most of the budget
    const [body, type, ext] =
      format === 'CSV'
        ? [writeCsv(contacts, fields, deadline), 'text/csv; charset=utf-8', 'csv']
        : format === 'VCard'
          ? [writeVCards(contacts, deadline), 'text/vcard; charset=utf-8', 'vcf']
          : [
              JSON.stringify({
                Contacts: contacts.map((c) => {
                  deadline.check();
                  return Object.fromEntries(
                    fields.map((f) => [
                      f.name,
                      (c as unknown as Record<string, unknown>)[f.name] ?? null,
                    ]),
                  );
                }),
              }),
              'application/json',
              'json',
            ];
    return response('ExportContacts', 'OK', [
      el(
        'File',
        {
          Name: `${db.name}-${stamp}.${ext}`,
          ContentType: type,
          Encoding: 'Text',
          Count: contacts.length,
        },
        [body],
      ),
    ]);
  },

  async SaveSearch(args, db, ctx) {
    const sel = readSelection(
      { Query: args.Query, Filters: args.Filters, Sort: args.Sort },
      ctx.limits,
    ); // validate before saving
    const fields = readFields(args.Fields, '$.Fields');
    const name = (args.Name as string).trim();
    if (!name || ['default', 'compact', 'export', 'custom'].includes(name.toLowerCase())) {
      throw fail('InvalidValue', `$.Name "${name}" is empty or the name of a built-in view.`, {
        parameter: PARAM,
        path: '$.Name',
      });
    }
    const now = new Date().toISOString();
    const prev = db.savedSearch(name);
    await db.putSavedSearch({
      Name: name,
      Query: sel.query || undefined,
      Filters: args.Filters as unknown[] | undefined,
      Sort: args.Sort as unknown[] | undefined,
      Fields: fields?.map((f) => f.name),
      CreatedAt: prev?.CreatedAt ?? now,
      UpdatedAt: now,
    });
    return response('SaveSearch', 'OK', [
      el('SavedSearch', { Name: name, Replaced: Boolean(prev) }),
    ]);
  },

  ListSavedSearches(_args, db) {
    return response(
      'ListSavedSearches',
      'OK',
      db
        .savedSearches()
        .map((s) =>
          el(
            'SavedSearch',
            { Name: s.Name, Query: s.Query, Fields: s.Fields?.join(','), UpdatedAt: s.UpdatedAt },
            [JSON.stringify({ Filters: s.Filters ?? [], Sort: s.Sort ?? [] })],
          ),
        ),
    );
  },

  async DeleteSavedSearch(args, db) {
    const existed = await db.deleteSavedSearch(args.Name as string);
    return response(
      'DeleteSavedSearch',
      existed ? 'OK' : 'Rejected',
      existed
        ? []
        : [el('Error', { Field: 'Name', Reason: `no saved search "${args.Name as string}"` })],
    );
  },

  async GetDatabaseInfo(_args, db) {
    const info = await db.describe();
    return response('GetDatabaseInfo', 'OK', [
      el('Database', {
        Name: db.name,
        Backend: db.backend,
        Contacts: db.size,
        SavedSearches: db.savedSearches().length,
        ...info,
      }),
    ]);
  },
};

// Every definition has a handler, and no handler lacks a definition.
for (const r of REQUESTS) if (!HANDLERS[r.Request]) throw new Error(`no handler for ${r.Request}`);
