/**
 * vCard 3.0 / 4.0 import (ical.js parses; we map its jCard) and vCard 4.0 export (written here:
 * escaping and 75-octet line folding per RFC 6350).
 */
import ICAL from 'ical.js';
import type { Checkpoint } from '../security/deadline.ts';
import type { Contact } from '../fields/contact.ts';
import { NO_BUDGET, type ParsedRow } from './csv.ts';

type JCardProp = [string, Record<string, unknown>, string, ...unknown[]];

export function parseVCards(text: string, budget: Checkpoint = NO_BUDGET): { rows: ParsedRow[]; error?: string } {
  const blocks = text.replace(/\r\n/g, '\n').split(/(?=^BEGIN:VCARD)/im).filter((b) => /BEGIN:VCARD/i.test(b));
  if (blocks.length === 0) return { rows: [], error: 'no BEGIN:VCARD found' };
  const rows: ParsedRow[] = [];
  let line = 1;
  let offset = 0;
  let counted = 0; // newlines before `counted` are in `line`
  const normalised = text.replace(/\r\n/g, '\n');
  for (const block of blocks) {
    budget.check();
    const at = normalised.indexOf(block, offset);
    // Count only the newlines since the previous card: recounting from the start was quadratic.
    for (let i = normalised.indexOf('\n', counted); i !== -1 && i < at; i = normalised.indexOf('\n', i + 1)) line++;
    counted = at;
    offset = at + block.length;
    try {
      const parsed = ICAL.parse(block) as unknown;
      const card = (Array.isArray(parsed) && parsed[0] === 'vcard' ? parsed : (parsed as unknown[])[0]) as [string, JCardProp[]];
      rows.push({ line, record: fromJCard(card[1]) });
    } catch (e) {
      rows.push({ line, error: `the vCard cannot be read: ${(e as Error).message}` });
    }
  }
  return { rows };
}

function fromJCard(props: JCardProp[]): Record<string, unknown> {
  const r: Record<string, unknown> = {};
  const list = (k: string, v: string) => { r[k] = [...((r[k] as string[] | undefined) ?? []), v]; };
  for (const [name, , , ...values] of props) {
    const v = values[0];
    switch (name) {
      case 'uid': r.ContactId = String(v).replace(/^urn:uuid:/, ''); break;
      case 'n': {
        const parts = Array.isArray(v) ? v.map((x) => (Array.isArray(x) ? x.join(' ') : String(x ?? ''))) : String(v).split(';');
        r.LastName = parts[0] || undefined; r.FirstName = parts[1] || undefined; r.MiddleName = parts[2] || undefined;
        break;
      }
      case 'org': r.Organization = Array.isArray(v) ? v.filter(Boolean).join(', ') : String(v); break;
      case 'title': r.JobTitle = String(v); break;
      case 'email': list('Emails', String(v)); break;
      case 'tel': list('Phones', String(v).replace(/^tel:/, '')); break;
      case 'adr': {
        const a = Array.isArray(v) ? v.map((x) => (Array.isArray(x) ? x.join(' ') : String(x ?? ''))) : String(v).split(';');
        r.Street = a[2] || undefined; r.City = a[3] || undefined; r.Region = a[4] || undefined; r.PostalCode = a[5] || undefined; r.Country = a[6] || undefined;
        break;
      }
      case 'categories': for (const c of values) list('Tags', String(c)); break;
      case 'note': r.Notes = String(v); break;
      case 'fn': r._fn = String(v); break;
    }
  }
  if (!r.FirstName && !r.LastName && !r.Organization && typeof r._fn === 'string') r.FirstName = r._fn;
  delete r._fn;
  return r;
}

/** Text value escaping (RFC 6350 §3.4); `part` also escapes `;` for components of N, ADR and ORG. */
const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n').replace(/\r/g, '').replace(/,/g, '\\,');
const part = (s: string) => esc(s).replace(/;/g, '\\;');

/** Folds a content line at 75 octets without splitting a UTF-8 sequence. */
function fold(line: string): string {
  const out: string[] = [];
  let cur = '', bytes = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > (out.length ? 74 : 75)) { out.push(cur); cur = ''; bytes = 0; }
    cur += ch; bytes += n;
  }
  out.push(cur);
  return out.join('\r\n ');
}

export function writeVCards(contacts: Iterable<Contact>, budget: Checkpoint = NO_BUDGET): string {
  let s = '';
  for (const c of contacts) {
    budget.check();
    const L = ['BEGIN:VCARD', 'VERSION:4.0', `UID:${esc(c.ContactId)}`, `FN:${esc(c.DisplayName)}`,
      `N:${part(c.LastName ?? '')};${part(c.FirstName ?? '')};${part(c.MiddleName ?? '')};;`];
    if (c.Organization) L.push(`ORG:${part(c.Organization)}`);
    if (c.JobTitle) L.push(`TITLE:${esc(c.JobTitle)}`);
    for (const e of c.Emails) L.push(`EMAIL:${esc(e)}`);
    for (const p of c.Phones) L.push(`TEL;VALUE=text:${esc(p)}`);
    if (c.Street || c.City || c.Region || c.PostalCode || c.Country) {
      L.push(`ADR:;;${part(c.Street ?? '')};${part(c.City ?? '')};${part(c.Region ?? '')};${part(c.PostalCode ?? '')};${part(c.Country ?? '')}`);
    }
    if (c.Tags.length) L.push(`CATEGORIES:${c.Tags.map(esc).join(',')}`);
    if (c.Notes) L.push(`NOTE:${esc(c.Notes)}`);
    L.push('END:VCARD');
    s += L.map(fold).join('\r\n') + '\r\n';
  }
  return s;
}
