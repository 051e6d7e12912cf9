/**
 * vCard import and export. Import: 2.1 (made 3.0 first: vcard21.ts), 3.0 and 4.0, read as content
 * lines (vcard-lines.ts) and mapped here — labels from TYPE parameters or Apple's `itemN.X-ABLabel`, Apple's
 * `X-ABADR` country code, phonetic names (X-PHONETIC-…, else a Japanese name's SORT-AS or SORT-STRING), birthdays with or without a year; a property the contact
 * does not keep (PHOTO, X-… of other programs) is named per card for the import report. Export: vCard
 * 4.0 written here (escaping and 75-octet line folding per RFC 6350), holding every field.
 */
import { canonicalLabel, labelTypes } from '../fields/labels.ts';
import type { Checkpoint } from '../security/deadline.ts';
import type { Contact } from '../fields/contact.ts';
import { NO_BUDGET, type ParsedRow } from './csv.ts';
import { WHY, type NotKept } from './not-kept.ts';
import { contentLines, splitText, unescapeText, type ContentLine } from './vcard-lines.ts';
import { vcard21to30 } from './vcard21.ts';

export function parseVCards(
  text: string,
  budget: Checkpoint = NO_BUDGET,
): { rows: ParsedRow[]; error?: string } {
  // Lines end at \n only: `^` and `$` with the m flag would also end a line at U+2028/2029, which
  // values may hold ("FN:a\u2028BEGIN:VCARD" is one line); (?<![^\n]) is "at the start of a line".
  const blocks = text
    .replace(/\r\n/g, '\n')
    .split(/(?<![^\n])(?=BEGIN:VCARD)/i)
    .filter((b) => /BEGIN:VCARD/i.test(b));
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
    for (
      let i = normalised.indexOf('\n', counted);
      i !== -1 && i < at;
      i = normalised.indexOf('\n', i + 1)
    )
      line++;
    counted = at;
    offset = at + block.length;
    try {
      const end = block.search(/(?<![^\n])END:VCARD[ \t]*(?![^\n])/i);
      if (end < 0) throw new Error('END:VCARD is missing');
      const card = block.slice(0, end + 9);
      // 2.1 (and a 3.0 that uses its QUOTED-PRINTABLE, as some phones write) is made plain 3.0 first.
      const lines = contentLines(
        /(?<![^\n])VERSION:[ \t]*2\.1[ \t]*(?![^\n])/i.test(card) ||
          /;ENCODING=QUOTED-PRINTABLE[;:]/i.test(card)
          ? vcard21to30(card)
          : card,
      );
      rows.push({ line, ...fromLines(lines) });
    } catch (e) {
      rows.push({ line, error: `the vCard cannot be read: ${(e as Error).message}` });
    }
  }
  return { rows };
}

/** Properties that are the card's bookkeeping, not data a contact loses. */
const BOOKKEEPING = new Set([
  'version',
  'prodid',
  'rev',
  'kind',
  'x-ablabel',
  'x-abadr',
  'x-abuid',
  'x-apple-omit-year',
  'x-abshowas',
]);
/** TYPE values that say how to use a value, not what it is. */
const NOT_LABELS = new Set([
  'pref',
  'voice',
  'internet',
  'x400',
  'msg',
  'dom',
  'intl',
  'postal',
  'parcel',
]);

const text = (l: ContentLine) => unescapeText(l.raw);

function labelOf(params: Record<string, string[]>, groupLabel: string | undefined): string {
  if (groupLabel) return canonicalLabel(groupLabel);
  const types = (params.type ?? [])
    .map((x) => x.trim().replace(/^x-/i, ''))
    .filter((x) => x && !NOT_LABELS.has(x.toLowerCase()));
  return types.length ? canonicalLabel(types.join(' ')) : '';
}

/** Names written in a script whose readings are kept apart (Han, kana, Hangul). */
const READ_SCRIPTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * A sort string as the reading of a name (CONTRACT §4: readings are stored in the phonetic fields):
 * only for a name in a script read apart and a sort string other than the name itself — a Latin
 * name's sort string ("Harten" of "van der Harten") is a sort key, not a reading.
 */
function readingOf(name: string | undefined, sortAs: string | undefined): string | undefined {
  const reading = sortAs?.trim();
  if (!name || !reading || reading === name.trim() || !READ_SCRIPTS.test(name)) return undefined;
  return reading;
}

/** `1980-05-17`, `19800517`, `--0517`, `1980-05-17T…` → what validation reads (`--MM-DD` when Apple says the year is not known). */
function birthday(l: ContentLine): string {
  const d = l.raw.trim().replace(/T.*$/, '');
  const iso = /^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}` : d;
  return l.params['x-apple-omit-year'] && /^\d{4}-\d{2}-\d{2}$/.test(iso)
    ? `--${iso.slice(5)}`
    : iso;
}

function fromLines(props: ContentLine[]): { record: Record<string, unknown>; notKept: NotKept[] } {
  const r: Record<string, unknown> = {};
  const notKept: NotKept[] = [];
  const groupLabel = new Map<string, string>(),
    groupCountry = new Map<string, string>();
  for (const p of props) {
    if (p.group && p.name === 'x-ablabel') groupLabel.set(p.group, text(p));
    if (p.group && p.name === 'x-abadr') groupCountry.set(p.group, text(p));
  }
  const list = (k: string, v: string) => {
    r[k] = [...((r[k] as string[] | undefined) ?? []), v];
  };
  const labelled = (k: 'Emails' | 'Phones', v: string, label: string) => {
    const items = (r[k] as string[] | undefined) ?? [];
    const labels =
      (r[k === 'Emails' ? 'EmailLabels' : 'PhoneLabels'] as string[] | undefined) ?? [];
    while (labels.length < items.length) labels.push('');
    items.push(v);
    labels.push(label);
    r[k] = items;
    r[k === 'Emails' ? 'EmailLabels' : 'PhoneLabels'] = labels;
  };
  let fn: string | undefined;
  let sortLast: string | undefined, sortFirst: string | undefined, sortString: string | undefined;
  for (const p of props) {
    const groupLab = p.group ? groupLabel.get(p.group) : undefined;
    switch (p.name) {
      case 'begin':
      case 'end':
        break;
      case 'uid':
        r.ContactId = text(p).replace(/^urn:uuid:/, '');
        break;
      case 'fn':
        fn = text(p);
        break;
      case 'n': {
        const n = splitText(p.raw, ';');
        r.LastName = n[0] || undefined;
        r.FirstName = n[1] || undefined;
        r.MiddleName = n[2] || undefined;
        r.NamePrefix = n[3] || undefined;
        r.NameSuffix = n[4] || undefined;
        // vCard 4.0 SORT-AS="family,given": Japanese address books keep the names' readings there.
        const sortAs = p.params['sort-as'] ?? [];
        sortLast = readingOf(n[0], sortAs[0]);
        sortFirst = readingOf(n[1], sortAs[1]);
        break;
      }
      case 'sort-string': // vCard 3.0: the family name's sort string, its reading in Japanese cards
        sortString = text(p);
        break;
      case 'nickname':
        r.Nickname = splitText(p.raw, ',').filter(Boolean).join(', ');
        break;
      case 'x-phonetic-first-name':
        r.PhoneticFirstName = text(p);
        break;
      case 'x-phonetic-last-name':
        r.PhoneticLastName = text(p);
        break;
      case 'org': {
        const o = splitText(p.raw, ';');
        r.Organization = o[0] || undefined;
        r.Department = o.slice(1).filter(Boolean).join(', ') || undefined;
        break;
      }
      case 'title':
        r.JobTitle = text(p);
        break;
      case 'email':
        labelled('Emails', text(p), labelOf(p.params, groupLab));
        break;
      case 'tel':
        labelled('Phones', text(p).replace(/^tel:/i, ''), labelOf(p.params, groupLab));
        break;
      case 'url':
        list('Websites', p.raw.replace(/\\:/g, ':'));
        break; // a URI: not text-escaped (some 3.0 writers escape its ':')
      case 'bday':
        r.Birthday = birthday(p);
        break;
      case 'adr': {
        if (r.Street !== undefined || r.City !== undefined || r.Country !== undefined) {
          notKept.push({ column: 'ADR', why: WHY.secondAddress });
          break;
        } // one address per contact
        const a = splitText(p.raw, ';');
        const street = [a[2], a[1], a[0]].filter(Boolean).join('\n'); // street, extended, PO box
        r.Street = street || undefined;
        r.City = a[3] || undefined;
        r.Region = a[4] || undefined;
        r.PostalCode = a[5] || undefined;
        r.Country = a[6] || (p.group && groupCountry.get(p.group)) || undefined;
        const label = labelOf(p.params, groupLab);
        if (label) r.AddressLabel = label;
        break;
      }
      case 'categories':
        for (const c of splitText(p.raw, ',')) if (c) list('Tags', c);
        break;
      case 'note':
        r.Notes = text(p);
        break;
      default:
        if (!BOOKKEEPING.has(p.name))
          notKept.push({
            column: p.name.toUpperCase(),
            why: p.name === 'photo' ? WHY.photo : WHY.noField,
          });
    }
  }
  for (const k of ['EmailLabels', 'PhoneLabels'])
    if (!(r[k] as string[] | undefined)?.some(Boolean)) delete r[k];
  // X-PHONETIC-… said so outright; else a sort string that reads the name (readingOf).
  r.PhoneticLastName ??= sortLast ?? readingOf(r.LastName as string | undefined, sortString);
  r.PhoneticFirstName ??= sortFirst;
  if (r.PhoneticLastName === undefined) delete r.PhoneticLastName;
  if (r.PhoneticFirstName === undefined) delete r.PhoneticFirstName;
  if (!r.FirstName && !r.MiddleName && !r.LastName && !r.Organization && fn) r.FirstName = fn; // a card with a name only in FN
  return { record: r, notKept: [...new Map(notKept.map((n) => [n.column, n])).values()] };
}

/** Text value escaping (RFC 6350 §3.4): `\`, line breaks, `,` and `;` (which N, ADR and ORG need and other text may have). */
const esc = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/,/g, '\\,')
    .replace(/;/g, '\\;');
const part = esc;

/** Folds a content line at 75 octets without splitting a UTF-8 sequence. */
function fold(line: string): string {
  const out: string[] = [];
  let cur = '',
    bytes = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > (out.length ? 74 : 75)) {
      out.push(cur);
      cur = '';
      bytes = 0;
    }
    cur += ch;
    bytes += n;
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
    const withLabel = (
      L: string[],
      prop: string,
      params: string,
      value: string,
      label: string | undefined,
    ) => {
      if (!label) {
        L.push(`${prop}${params}:${value}`);
        return;
      }
      const types = labelTypes(label);
      if (types) {
        L.push(`${prop}${params};TYPE=${types.join(',')}:${value}`);
        return;
      }
      item++;
      L.push(`item${item}.${prop}${params}:${value}`, `item${item}.X-ABLabel:${esc(label)}`);
    };
    const L = [
      'BEGIN:VCARD',
      'VERSION:4.0',
      `UID:${esc(c.ContactId)}`,
      `FN:${esc(c.DisplayName)}`,
      `N:${[c.LastName, c.FirstName, c.MiddleName, c.NamePrefix, c.NameSuffix].map((x) => part(x ?? '')).join(';')}`,
    ];
    if (c.Nickname) L.push(`NICKNAME:${esc(c.Nickname)}`);
    if (c.PhoneticFirstName) L.push(`X-PHONETIC-FIRST-NAME:${esc(c.PhoneticFirstName)}`);
    if (c.PhoneticLastName) L.push(`X-PHONETIC-LAST-NAME:${esc(c.PhoneticLastName)}`);
    if (c.Organization || c.Department)
      L.push(`ORG:${part(c.Organization ?? '')}${c.Department ? `;${part(c.Department)}` : ''}`);
    if (c.JobTitle) L.push(`TITLE:${esc(c.JobTitle)}`);
    c.Emails.forEach((e, i) => withLabel(L, 'EMAIL', '', esc(e), c.EmailLabels?.[i]));
    c.Phones.forEach((p, i) => withLabel(L, 'TEL', ';VALUE=text', esc(p), c.PhoneLabels?.[i]));
    for (const w of c.Websites ?? []) L.push(`URL:${w}`); // a URI: not text-escaped (RFC 6350 §6.7.8)
    if (c.Birthday)
      L.push(
        `BDAY:${c.Birthday.startsWith('--') ? `--${c.Birthday.slice(2).replace('-', '')}` : c.Birthday.replace(/-/g, '')}`,
      );
    if (c.Street || c.City || c.Region || c.PostalCode || c.Country) {
      withLabel(
        L,
        'ADR',
        '',
        `;;${part(c.Street ?? '')};${part(c.City ?? '')};${part(c.Region ?? '')};${part(c.PostalCode ?? '')};${part(c.Country ?? '')}`,
        c.AddressLabel,
      );
    }
    if (c.Tags.length) L.push(`CATEGORIES:${c.Tags.map(esc).join(',')}`);
    if (c.Notes) L.push(`NOTE:${esc(c.Notes)}`);
    L.push('END:VCARD');
    s += L.map(fold).join('\r\n') + '\r\n';
  }
  return s;
}
