/**
 * Record validation and normalisation driven by the field schema (CONTRACT.md §3): trims, lengths,
 * emails, phones, ISO country codes, ids; DisplayName derived; read-only fields ignored on input.
 * Returns the record or the reasons it is refused, naming each field.
 */
import { randomUUID } from 'node:crypto';
import { deriveDisplayName, type Contact } from './contact.ts';
import { countryCode } from './country.ts';
import { canonicalLabel } from './labels.ts';
import { ADDRESS_PARTS, FIELDS, field, LABEL_LISTS, type FieldDef } from './schema.ts';

export interface FieldProblem {
  field: string;
  reason: string;
}

const EMAIL = /^[^\s@<>(),;:"[\]]+@[^\s@<>(),;:"[\]]+\.[^\s@<>(),;:"[\]]{2,}$/;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Half of a UTF-16 pair with no other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/;
/** The label list of a list field: its items label the field's items one for one. */

/** `YYYY-MM-DD`, `YYYYMMDD`, `--MM-DD`, `--MMDD` (vCard, Google) or an ISO timestamp → `YYYY-MM-DD` / `--MM-DD`. */
export function isoBirthday(s: string): string | undefined {
  const m = /^(\d{4}|--)-?(\d{2})-?(\d{2})(?:T.*)?$/.exec(s);
  if (!m) return undefined;
  const [, y, mo, d] = m;
  const probe = new Date(Date.UTC(y === '--' ? 2000 : Number(y), Number(mo) - 1, Number(d))); // 2000: a leap year, for 02-29
  if (probe.getUTCMonth() !== Number(mo) - 1 || probe.getUTCDate() !== Number(d)) return undefined;
  return `${y === '--' ? '-' : y}-${mo}-${d}`;
}

function asList(v: unknown): string[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (Array.isArray(v)) return v.map((x) => String(x ?? '').trim()).filter(Boolean);
  return String(v)
    .split(/[;\n]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Validates one incoming record (member names matched case-insensitively against the schema).
 * `now` stamps CreatedAt and UpdatedAt; the caller keeps an existing contact's CreatedAt on update.
 */
export function validateContact(
  raw: unknown,
  now: string,
): { contact?: Contact; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { problems: [{ field: '', reason: 'a contact must be an object of fields' }] };
  const values = new Map<FieldDef, unknown>();
  for (const [k, v] of Object.entries(raw)) {
    const def = field(k);
    if (!def) {
      problems.push({
        field: k,
        reason: `unknown field; fields are ${FIELDS.map((f) => f.name).join(', ')}`,
      });
      continue;
    }
    if (def.readOnly) continue;
    values.set(def, v);
  }
  const out: Record<string, unknown> = {};
  for (const [def, v] of values) {
    if (def.type === 'List') {
      // A label list keeps its empty items: they hold the places of unlabelled emails or phones.
      const list = LABEL_LISTS.has(def.name) ? labelList(v) : asList(v);
      if (!list) continue;
      for (const item of list) {
        if (item.length > def.maxLength)
          problems.push({
            field: def.name,
            reason: `"${item.slice(0, 40)}…" is longer than ${def.maxLength} characters`,
          });
        if (CONTROL.test(item))
          problems.push({ field: def.name, reason: 'contains control characters' });
        if (LONE_SURROGATE.test(item))
          problems.push({
            field: def.name,
            reason: 'contains half of a character (a lone UTF-16 surrogate)',
          });
        if (LINE_BREAK.test(item))
          problems.push({
            field: def.name,
            reason: `"${item.slice(0, 40)}" has a line break; give each item separately`,
          });
        if (def.name === 'Emails' && !EMAIL.test(item))
          problems.push({ field: def.name, reason: `"${item}" is not an email address` });
        if (def.name === 'Phones' && !/\d/.test(item))
          problems.push({ field: def.name, reason: `"${item}" has no digits` });
      }
      out[def.name] = LABEL_LISTS.has(def.name)
        ? list.map(canonicalLabel)
        : def.name === 'Emails' || def.name === 'Phones'
          ? list
          : [...new Set(list)];
      continue;
    }
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' && typeof v !== 'number') {
      problems.push({ field: def.name, reason: 'must be text' });
      continue;
    }
    // One kind of line break (\n): vCard and the search page know no other, and a round trip must not change it.
    let s = String(v).replace(/\r\n?/g, '\n').trim();
    if (!s) continue;
    // A country is judged by what it names (a name is longer than its code), not by its length.
    if (s.length > def.maxLength && def.name !== 'Country')
      problems.push({ field: def.name, reason: `is longer than ${def.maxLength} characters` });
    if (CONTROL.test(s)) problems.push({ field: def.name, reason: 'contains control characters' });
    // No file can carry it: UTF-8 has no lone surrogate, so an export would change it.
    if (LONE_SURROGATE.test(s))
      problems.push({
        field: def.name,
        reason: 'contains half of a character (a lone UTF-16 surrogate)',
      });
    if (def.name === 'Country') {
      const code = countryCode(s);
      if (code) s = code;
      else
        problems.push({
          field: def.name,
          reason: `Country "${s}" is not a country (give a name, e.g. Spain or España, or an ISO 3166-1 code like ES)`,
        });
    }
    if (def.name === 'Birthday') {
      const iso = isoBirthday(s);
      if (iso) s = iso;
      else
        problems.push({
          field: def.name,
          reason: `Birthday "${s}" is not a date (use YYYY-MM-DD, or --MM-DD without a year)`,
        });
    }
    if (def.name === 'AddressLabel') s = canonicalLabel(s);
    out[def.name] = s;
  }
  for (const [labels, of] of LABEL_LISTS) pairLabels(out, of, labels, problems);
  if (out.AddressLabel && !ADDRESS_PARTS.some((k) => out[k])) {
    problems.push({
      field: 'AddressLabel',
      reason: 'labels the address; give Street, City, Region, PostalCode or Country too',
    });
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
    problems.push({
      field: 'FirstName',
      reason: 'a contact needs a name, an organisation, an email or a phone',
    });
  }
  return problems.length ? { problems } : { contact: c, problems };
}

function labelList(v: unknown): string[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  return Array.isArray(v) ? v.map((x) => String(x ?? '').trim()) : asList(v);
}

/**
 * Emails (or Phones) and their labels as pairs: a repeated item is kept once, with the first label
 * it had; trailing empty labels are dropped (no labels at all: the member is absent).
 */
function pairLabels(
  out: Record<string, unknown>,
  of: string,
  labelsName: string,
  problems: FieldProblem[],
): void {
  const items = (out[of] as string[] | undefined) ?? [];
  const labels = (out[labelsName] as string[] | undefined) ?? [];
  if (labels.length > items.length) {
    problems.push({
      field: labelsName,
      reason: `has ${labels.length} labels for ${items.length} ${of}; give one label per item ('' for none)`,
    });
    return;
  }
  const keptItems: string[] = [],
    keptLabels: string[] = [];
  const at = new Map<string, number>();
  items.forEach((item, i) => {
    const prev = at.get(item);
    if (prev === undefined) {
      at.set(item, keptItems.length);
      keptItems.push(item);
      keptLabels.push(labels[i] ?? '');
    } else if (!keptLabels[prev]) keptLabels[prev] = labels[i] ?? '';
  });
  while (keptLabels.length && !keptLabels[keptLabels.length - 1]) keptLabels.pop();
  if (items.length) out[of] = keptItems;
  if (keptLabels.length) out[labelsName] = keptLabels;
  else delete out[labelsName];
}

/** Compares two contacts field by field, ignoring UpdatedAt (for Unchanged counts). */
export function sameContact(a: Contact, b: Contact): boolean {
  const value = (c: Contact, name: string) => {
    const v = (c as unknown as Record<string, unknown>)[name];
    return JSON.stringify(Array.isArray(v) && v.length === 0 ? null : (v ?? null)); // an empty list is no list
  };
  return FIELDS.every((f) => f.name === 'UpdatedAt' || value(a, f.name) === value(b, f.name));
}
