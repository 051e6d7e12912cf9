/**
 * Record validation and normalisation driven by the field schema (CONTRACT.md §3): trims, lengths,
 * emails, phones, ISO country codes, ids; DisplayName derived; read-only fields ignored on input.
 * Returns the record or the reasons it is refused, naming each field.
 */
import { randomUUID } from 'node:crypto';
import { deriveDisplayName, type Contact } from './contact.ts';
import { FIELDS, field, type FieldDef } from './schema.ts';

export interface FieldProblem {
  field: string;
  reason: string;
}

const EMAIL = /^[^\s@<>(),;:"\[\]]+@[^\s@<>(),;:"\[\]]+\.[^\s@<>(),;:"\[\]]{2,}$/;
const ISO_COUNTRY = /^[A-Z]{2}$/;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

function asList(v: unknown): string[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (Array.isArray(v)) return v.map((x) => String(x ?? '').trim()).filter(Boolean);
  return String(v).split(/[;\n]+/).map((s) => s.trim()).filter(Boolean);
}

/**
 * Validates one incoming record (member names matched case-insensitively against the schema).
 * `now` stamps CreatedAt and UpdatedAt; the caller keeps an existing contact's CreatedAt on update.
 */
export function validateContact(raw: unknown, now: string): { contact?: Contact; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { problems: [{ field: '', reason: 'a contact must be an object of fields' }] };
  const values = new Map<FieldDef, unknown>();
  for (const [k, v] of Object.entries(raw)) {
    const def = field(k);
    if (!def) { problems.push({ field: k, reason: `unknown field; fields are ${FIELDS.map((f) => f.name).join(', ')}` }); continue; }
    if (def.readOnly) continue;
    values.set(def, v);
  }
  const out: Record<string, unknown> = {};
  for (const [def, v] of values) {
    if (def.type === 'List') {
      const list = asList(v);
      if (!list) continue;
      for (const item of list) {
        if (item.length > def.maxLength) problems.push({ field: def.name, reason: `"${item.slice(0, 40)}…" is longer than ${def.maxLength} characters` });
        if (CONTROL.test(item)) problems.push({ field: def.name, reason: 'contains control characters' });
        if (def.name === 'Emails' && !EMAIL.test(item)) problems.push({ field: def.name, reason: `"${item}" is not an email address` });
        if (def.name === 'Phones' && !/\d/.test(item)) problems.push({ field: def.name, reason: `"${item}" has no digits` });
      }
      out[def.name] = [...new Set(list)];
      continue;
    }
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' && typeof v !== 'number') { problems.push({ field: def.name, reason: 'must be text' }); continue; }
    let s = String(v).trim();
    if (!s) continue;
    if (s.length > def.maxLength) problems.push({ field: def.name, reason: `is longer than ${def.maxLength} characters` });
    if (CONTROL.test(s)) problems.push({ field: def.name, reason: 'contains control characters' });
    if (def.name === 'Country') {
      s = s.toUpperCase();
      if (!ISO_COUNTRY.test(s)) problems.push({ field: def.name, reason: `"${s}" is not an ISO 3166-1 alpha-2 code like US or DE` });
    }
    out[def.name] = s;
  }
  const c: Contact = {
    ...(out as Partial<Contact>),
    ContactId: (out.ContactId as string | undefined) || randomUUID(),
    DisplayName: '',
    Emails: (out.Emails as string[] | undefined) ?? [],
    Phones: (out.Phones as string[] | undefined) ?? [],
    Tags: (out.Tags as string[] | undefined) ?? [],
    CreatedAt: now,
    UpdatedAt: now,
  };
  c.DisplayName = deriveDisplayName(c);
  if (!c.DisplayName && c.Emails.length === 0 && c.Phones.length === 0) {
    problems.push({ field: 'FirstName', reason: 'a contact needs a name, an organisation, an email or a phone' });
  }
  return problems.length ? { problems } : { contact: c, problems };
}

/** Compares two contacts field by field, ignoring UpdatedAt (for Unchanged counts). */
export function sameContact(a: Contact, b: Contact): boolean {
  return FIELDS.every((f) => f.name === 'UpdatedAt' || JSON.stringify((a as unknown as Record<string, unknown>)[f.name] ?? null) === JSON.stringify((b as unknown as Record<string, unknown>)[f.name] ?? null));
}
