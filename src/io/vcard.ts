/**
 * vCard import and export. Import: 2.1 (made 3.0 first: vcard21.ts), 3.0 and 4.0, parsed by ical.js
 * into jCard and mapped here — labels from TYPE parameters or Apple's `itemN.X-ABLabel`, Apple's
 * `X-ABADR` country code, phonetic names, birthdays with or without a year; a property the contact
 * does not keep (PHOTO, X-… of other programs) is named per card for the import report. Export: vCard
 * 4.0 written here (escaping and 75-octet line folding per RFC 6350), holding every field.
 */
import ICAL from 'ical.js';
import { canonicalLabel, labelTypes } from '../fields/labels.ts';
import type { Checkpoint } from '../security/deadline.ts';
import type { Contact } from '../store/contact.ts';
import { NO_BUDGET, type ParsedRow } from './csv.ts';
import { vcard21to30 } from './vcard21.ts';

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
      const card = /^VERSION:\s*2\.1\s*$/im.test(block) ? vcard21to30(block.slice(0, block.search(/^END:VCARD/im) + 9)) : block;
      const parsed = ICAL.parse(card) as unknown;
      const jcard = (Array.isArray(parsed) && parsed[0] === 'vcard' ? parsed : (parsed as unknown[])[0]) as [string, JCardProp[]];
      rows.push({ line, ...fromJCard(jcard[1]) });
    } catch (e) {
      rows.push({ line, error: `the vCard cannot be read: ${(e as Error).message}` });
    }
  }
  return { rows };
}

/** Properties that are the card's bookkeeping, not data a contact loses. */
const BOOKKEEPING = new Set(['version', 'prodid', 'rev', 'kind', 'x-ablabel', 'x-abadr', 'x-abuid', 'x-apple-omit-year', 'sort-string', 'x-abshowas']);
/** TYPE values that say how to use a value, not what it is. */
const NOT_LABELS = new Set(['pref', 'voice', 'internet', 'x400', 'msg', 'dom', 'intl', 'postal', 'parcel']);

/** A text value: ical.js leaves `\;` escaped in text (not in N, ADR, ORG components), so it is undone here. */
const unescapeSemicolon = (s: string) => s.replace(/\\;/g, ';');
const text = (values: unknown[]) => values.map((v) => unescapeSemicolon(Array.isArray(v) ? v.join(' ') : String(v ?? ''))).join(',');
const parts = (v: unknown) => (Array.isArray(v) ? v.map((x) => (Array.isArray(x) ? x.join(',') : String(x ?? ''))) : String(v ?? '').split(';'));

function labelOf(params: Record<string, unknown>, groupLabel: string | undefined): string {
  if (groupLabel) return canonicalLabel(groupLabel);
  const t = params.type;
  const types = (Array.isArray(t) ? t : t === undefined ? [] : [t]).flatMap((x) => String(x).split(','))
    .map((x) => x.trim().replace(/^x-/i, '')).filter((x) => x && !NOT_LABELS.has(x.toLowerCase()));
  return types.length ? canonicalLabel(types.join(' ')) : '';
}

function fromJCard(props: JCardProp[]): { record: Record<string, unknown>; notKept: string[] } {
  const r: Record<string, unknown> = {};
  const notKept: string[] = [];
  const groupLabel = new Map<string, string>(), groupCountry = new Map<string, string>();
  for (const [name, params, , ...values] of props) {
    const g = params.group as string | undefined;
    if (g && name === 'x-ablabel') groupLabel.set(g, String(values[0]));
    if (g && name === 'x-abadr') groupCountry.set(g, String(values[0]));
  }
  const list = (k: string, v: string) => { r[k] = [...((r[k] as string[] | undefined) ?? []), v]; };
  const labelled = (k: 'Emails' | 'Phones', v: string, label: string) => {
    const items = (r[k] as string[] | undefined) ?? [];
    const labels = (r[k === 'Emails' ? 'EmailLabels' : 'PhoneLabels'] as string[] | undefined) ?? [];
    while (labels.length < items.length) labels.push('');
    items.push(v); labels.push(label);
    r[k] = items; r[k === 'Emails' ? 'EmailLabels' : 'PhoneLabels'] = labels;
  };
  let fn: string | undefined;
  for (const [name, params, , ...values] of props) {
    const v = values[0];
    const group = params.group as string | undefined;
    switch (name) {
      case 'uid': r.ContactId = String(v).replace(/^urn:uuid:/, ''); break;
      case 'fn': fn = text(values); break;
      case 'n': {
        const p = parts(v);
        r.LastName = p[0] || undefined; r.FirstName = p[1] || undefined; r.MiddleName = p[2] || undefined;
        r.NamePrefix = p[3] || undefined; r.NameSuffix = p[4] || undefined;
        break;
      }
      case 'nickname': r.Nickname = text(values); break;
      case 'x-phonetic-first-name': r.PhoneticFirstName = text(values); break;
      case 'x-phonetic-last-name': r.PhoneticLastName = text(values); break;
      case 'org': {
        const p = parts(v);
        r.Organization = p[0] || undefined; r.Department = p.slice(1).filter(Boolean).join(', ') || undefined;
        break;
      }
      case 'title': r.JobTitle = text(values); break;
      case 'email': labelled('Emails', text(values), labelOf(params, group && groupLabel.get(group))); break;
      case 'tel': labelled('Phones', text(values).replace(/^tel:/, ''), labelOf(params, group && groupLabel.get(group))); break;
      case 'url': list('Websites', text(values)); break;
      case 'bday': {
        const d = String(v);
        r.Birthday = params['x-apple-omit-year'] ? `--${d.slice(5, 10)}` : d.length === 8 && /^\d+$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}` : d;
        break;
      }
      case 'adr': {
        const a = parts(v);
        if (r.Street !== undefined || r.City !== undefined || r.Country !== undefined) { notKept.push('ADR'); break; } // one address per contact
        const street = [a[2], a[1], a[0]].filter(Boolean).join('\n'); // street, extended, PO box
        r.Street = street || undefined; r.City = a[3] || undefined; r.Region = a[4] || undefined; r.PostalCode = a[5] || undefined;
        r.Country = a[6] || (group && groupCountry.get(group)) || undefined;
        const label = labelOf(params, group && groupLabel.get(group));
        if (label) r.AddressLabel = label;
        break;
      }
      case 'categories': for (const c of values) list('Tags', unescapeSemicolon(String(c))); break;
      case 'note': r.Notes = text(values); break;
      default: if (!BOOKKEEPING.has(name)) notKept.push(name.toUpperCase());
    }
  }
  for (const k of ['EmailLabels', 'PhoneLabels']) if (!(r[k] as string[] | undefined)?.some(Boolean)) delete r[k];
  if (!r.FirstName && !r.LastName && !r.Organization && fn) r.FirstName = fn;
  return { record: r, notKept: [...new Set(notKept)] };
}

/** Text value escaping (RFC 6350 §3.4): `\`, line breaks, `,` and `;` (which N, ADR and ORG need and other text may have). */
const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/\r\n|\r|\n/g, '\\n').replace(/,/g, '\\,').replace(/;/g, '\\;');
const part = esc;

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
    let item = 0;
    /** A property with its label: TYPE when vCard has words for it, else Apple's group + X-ABLabel (other programs read it too). */
    const withLabel = (L: string[], prop: string, params: string, value: string, label: string | undefined) => {
      if (!label) { L.push(`${prop}${params}:${value}`); return; }
      const types = labelTypes(label);
      if (types) { L.push(`${prop}${params};TYPE=${types.join(',')}:${value}`); return; }
      item++;
      L.push(`item${item}.${prop}${params}:${value}`, `item${item}.X-ABLabel:${esc(label)}`);
    };
    const L = ['BEGIN:VCARD', 'VERSION:4.0', `UID:${esc(c.ContactId)}`, `FN:${esc(c.DisplayName)}`,
      `N:${[c.LastName, c.FirstName, c.MiddleName, c.NamePrefix, c.NameSuffix].map((x) => part(x ?? '')).join(';')}`];
    if (c.Nickname) L.push(`NICKNAME:${esc(c.Nickname)}`);
    if (c.PhoneticFirstName) L.push(`X-PHONETIC-FIRST-NAME:${esc(c.PhoneticFirstName)}`);
    if (c.PhoneticLastName) L.push(`X-PHONETIC-LAST-NAME:${esc(c.PhoneticLastName)}`);
    if (c.Organization || c.Department) L.push(`ORG:${part(c.Organization ?? '')}${c.Department ? `;${part(c.Department)}` : ''}`);
    if (c.JobTitle) L.push(`TITLE:${esc(c.JobTitle)}`);
    c.Emails.forEach((e, i) => withLabel(L, 'EMAIL', '', esc(e), c.EmailLabels?.[i]));
    c.Phones.forEach((p, i) => withLabel(L, 'TEL', ';VALUE=text', esc(p), c.PhoneLabels?.[i]));
    for (const w of c.Websites ?? []) L.push(`URL:${w}`); // a URI: not text-escaped (RFC 6350 §6.7.8)
    if (c.Birthday) L.push(`BDAY:${c.Birthday.startsWith('--') ? `--${c.Birthday.slice(2).replace('-', '')}` : c.Birthday.replace(/-/g, '')}`);
    if (c.Street || c.City || c.Region || c.PostalCode || c.Country) {
      withLabel(L, 'ADR', '', `;;${part(c.Street ?? '')};${part(c.City ?? '')};${part(c.Region ?? '')};${part(c.PostalCode ?? '')};${part(c.Country ?? '')}`, c.AddressLabel);
    }
    if (c.Tags.length) L.push(`CATEGORIES:${c.Tags.map(esc).join(',')}`);
    if (c.Notes) L.push(`NOTE:${esc(c.Notes)}`);
    L.push('END:VCARD');
    s += L.map(fold).join('\r\n') + '\r\n';
  }
  return s;
}
