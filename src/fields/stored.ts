/**
 * A stored document as the index reads it. This service writes only validated, complete contacts;
 * a row written around it (by hand in the SQLite file or PostgreSQL, by another tool) may lack a
 * field or hold another type there, and one such row made the whole database fail to load (the
 * tokeniser read `.length` of a missing Emails): a million good contacts unavailable for one row.
 * Such a row is read as the nearest contact instead, the stored row left as it is: a list that must
 * be there (Emails, Phones, Tags) absent → empty, a single value where a list belongs → a list of
 * it, a number or boolean where text belongs → its text, anything else there → absent, DisplayName
 * derived when absent, the row's own key when ContactId is not a string. A complete row (every row
 * this service wrote) passes with one check per field and is returned as it is.
 */
import { FIELDS } from './schema.ts';
import { deriveDisplayName, type Contact } from './contact.ts';

/** The lists a Contact always has (the others, labels and Websites, may be absent). */
const ALWAYS_LISTS: ReadonlySet<string> = new Set(['Emails', 'Phones', 'Tags']);
/** Text a Contact always has. */
const ALWAYS_TEXT: ReadonlySet<string> = new Set([
  'ContactId',
  'DisplayName',
  'CreatedAt',
  'UpdatedAt',
]);

// Not validate.ts's asList and checks: those read a client's input (a string split at ";", values
// trimmed, labels and countries made canonical); a stored value is read as it is, only its type mended.
const isText = (v: unknown): v is string => typeof v === 'string';
const asText = (v: unknown): string | undefined =>
  isText(v) ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/** Whether `doc` is what this service writes: every field of its type, the ones a contact always has there. */
function complete(doc: Record<string, unknown>): boolean {
  for (const f of FIELDS) {
    const v = doc[f.name];
    if (v === undefined) {
      if (ALWAYS_LISTS.has(f.name) || ALWAYS_TEXT.has(f.name)) return false;
    } else if (f.type === 'List') {
      if (!Array.isArray(v)) return false;
      for (let i = 0; i < v.length; i++) if (!isText(v[i])) return false;
    } else if (!isText(v)) return false;
  }
  return true;
}

/** `doc` (a stored document, parsed) as a Contact; `rowKey`: the row's contact_id, where the caller has it. */
export function storedContact(doc: unknown, rowKey?: string): Contact {
  const d = (doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? doc : {}) as Record<
    string,
    unknown
  >;
  if (complete(d)) return d as unknown as Contact;
  const out: Record<string, unknown> = { ...d };
  for (const f of FIELDS) {
    const v = d[f.name];
    if (f.type === 'List') {
      const items = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
      const list = items.map(asText).filter(isText);
      if (list.length || ALWAYS_LISTS.has(f.name) || Array.isArray(v)) out[f.name] = list;
      else delete out[f.name];
    } else {
      const text = asText(v);
      if (text === undefined) delete out[f.name];
      else out[f.name] = text;
    }
  }
  if (!isText(out.ContactId)) out.ContactId = rowKey ?? '';
  const c = out as unknown as Contact;
  if (!isText(out.DisplayName)) c.DisplayName = deriveDisplayName(c);
  if (!isText(out.CreatedAt)) c.CreatedAt = isText(out.UpdatedAt) ? out.UpdatedAt : '';
  if (!isText(out.UpdatedAt)) c.UpdatedAt = c.CreatedAt;
  return c;
}
