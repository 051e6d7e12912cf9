/**
 * CSV header → what its cells become, and one row's cells → a contact record, for the files people
 * have: the service's own export (headers are field names), Google Contacts (current layout with
 * "E-mail 1 - Label/Value", legacy "Google CSV" with "Given Name", "Group Membership"), Outlook in
 * English, German, French and Spanish (aliases in src/fields/schema.ts). What a cell does not become
 * part of the contact is named (`notKept`), so the import report can say so per column.
 */
import { parseFullName } from 'parse-full-name';
import { FIELDS, columnKey, LABEL_LISTS, type FieldDef } from '../fields/schema.ts';
import { WHY, type NotKept } from './not-kept.ts';

export interface ColumnRole {
  readonly header: string;
  readonly field?: FieldDef;
  /** The header is the field's own name (the service's export): lists are `; `-joined with `\` escapes. */
  readonly own?: boolean;
  /** The label the column gives its values ("Mobile Phone" → mobile; "Home City" → the home address). */
  readonly label?: string;
  /** Google's numbered slot ("Phone 2 - Value" → "2"), labelled by the row's "Phone 2 - Label" cell. */
  readonly slot?: string;
  /** Another line of the street ("Business Street 2"). */
  readonly continuation?: boolean;
  /** A "Phone 2 - Label" / "- Type" column: the label of slot `slot` of `kind`. */
  readonly labelOf?: { kind: string; slot: string };
  /** "Name" / "Full Name": split into its parts when the row gives none. */
  readonly fullName?: boolean;
  /** "Address 1 - Formatted": the street when the address has no parts. */
  readonly formatted?: boolean;
  /** Known and left out on purpose, because the contact holds it already (e.g. Outlook's "E-mail Display Name"). */
  readonly derived?: string;
  /** Birthday columns of locales that write the day first (15/05/1980). */
  readonly dayFirst?: boolean;
  /** Said in DryRun's mapping. */
  readonly note?: string;
}

const ROLE = new Map<string, { field: FieldDef; alias: string }>();
for (const f of FIELDS) {
  ROLE.set(columnKey(f.name), { field: f, alias: f.name });
  for (const a of f.aliases) ROLE.set(columnKey(a), { field: f, alias: a });
}
/** The service's own export writes the field names exactly; "Display Name" (Thunderbird) is another program's. */
const OWN = new Set<string>(FIELDS.map((f) => f.name));

/** Columns that hold what other columns hold already, or an export's bookkeeping. */
const DERIVED: Record<string, string> = {
  'e-mail display name': 'derived from the email',
  'e-mail type': 'mail transport (SMTP)',
  'e-mail 2 display name': 'derived from the email',
  'e-mail 2 type': 'mail transport (SMTP)',
  'e-mail 3 display name': 'derived from the email',
  'e-mail 3 type': 'mail transport (SMTP)',
  'e-mail-typ': 'mail transport (SMTP)',
  'e-mail: angezeigter name': 'derived from the email',
  'e-mail 2: typ': 'mail transport (SMTP)',
  'e-mail 2: angezeigter name': 'derived from the email',
  'e-mail 3: typ': 'mail transport (SMTP)',
  'e-mail 3: angezeigter name': 'derived from the email',
  'type de messagerie': 'mail transport (SMTP)',
  "nom complet de l'adresse de messagerie": 'derived from the email',
  'tipo de correo electrónico': 'mail transport (SMTP)',
  'nombre mostrado del correo electrónico': 'derived from the email',
  'file as': 'derived from the name',
  'speichern unter': 'derived from the name',
  'classer sous': 'derived from the name',
  'archivar como': 'derived from the name',
  createdat: 'set by the service',
  updatedat: 'set by the service',
  created: 'set by the service',
  updated: 'set by the service',
};
for (const k of Object.keys(DERIVED)) DERIVED[columnKey(k)] = DERIVED[k];

/** Outlook writes these into every row of columns nobody filled: they are not data. */
const EMPTY_VALUES = new Set([
  '0/0/00',
  '00.00.00',
  '0.0.00',
  '00/00/00',
  'normal',
  'normale',
  'false',
  'falsch',
  'faux',
  'falso',
  'aus',
  'non',
  'no',
  'unspecified',
  'nicht angegeben',
  'non spécifié',
  'sin especificar',
  'no especificado',
]);
/** Outlook's "no date" in a date column. */
const NO_DATE = /^0{1,2}[./]0{1,2}[./]0{2,4}$/;

const DAY_FIRST = new Set(['geburtstag', 'anniversaire', 'cumpleaños'].map(columnKey));
const LABEL_COLUMN = /^(e-?mail|phone|address|website)\s*(\d+)\s*-\s*(label|type)$/i;
const SLOT = /^(?:e-?mail|phone|address|website|organi[sz]ation)\s*(\d+)\s*-\s*/i;
/** The lists that have a label list (Emails, Phones). */
const LABELLED: ReadonlySet<string> = new Set(LABEL_LISTS.values());

/** What the column `header` becomes. */
export function columnRole(header: string): ColumnRole {
  const key = columnKey(header);
  const lab = LABEL_COLUMN.exec(header.trim());
  if (lab)
    return {
      header,
      labelOf: {
        kind: lab[1]
          .toLowerCase()
          .replace('-', '')
          .replace('email', 'Emails')
          .replace('phone', 'Phones')
          .replace('address', 'Address')
          .replace('website', 'Websites'),
        slot: lab[2],
      },
    };
  if (DERIVED[key]) return { header, derived: DERIVED[key] };
  if (/^address\s*\d+\s*-\s*formatted$/i.test(header.trim()))
    return { header, formatted: true, slot: SLOT.exec(header.trim())![1] };
  let hit = ROLE.get(key),
    continuation = false;
  if (!hit) {
    hit = ROLE.get(key.replace(/\d+/g, '1'));
    if (!hit) {
      hit = ROLE.get(key.replace(/\d+/g, ''));
      continuation = Boolean(hit) && hit!.field.name === 'Street';
    }
  }
  if (!hit) return { header };
  const { field: f, alias } = hit;
  const own = OWN.has(header.trim());
  if (f.name === 'DisplayName')
    return own ? { header, derived: 'derived from the name parts' } : { header, fullName: true };
  if (f.readOnly) return { header, derived: DERIVED[key] ?? 'set by the service' };
  const slot = SLOT.exec(header.trim())?.[1];
  return {
    header,
    field: f,
    own,
    label: f.aliasLabels?.[alias],
    slot,
    continuation: continuation || undefined,
    dayFirst: f.name === 'Birthday' && DAY_FIRST.has(key) ? true : undefined,
  };
}

/**
 * The roles of a whole header. Outlook's "Title" (Titre, …) is the honorific, and Outlook always
 * writes "Job Title" beside it; in a sheet with a Title column but no job title column, Title is
 * the job title (a hand-made list "Name, Title, Company").
 */
export function headerRoles(header: readonly string[]): ColumnRole[] {
  const roles = header.map(columnRole);
  if (!roles.some((r) => r.field?.name === 'JobTitle')) {
    const jobTitle = FIELDS.find((f) => f.name === 'JobTitle')!;
    return roles.map((r) =>
      r.field?.name === 'NamePrefix' && /^(title|titre|titel)$/i.test(r.header.trim())
        ? { ...r, field: jobTitle, note: 'a job title: the file has no other' }
        : r,
    );
  }
  return roles;
}

/** A cell of the service's own list column → items: `; `-separated, `\` escapes the next character. */
export function splitOwnList(cell: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < cell.length; i++) {
    const ch = cell[i];
    if (ch === '\\' && i + 1 < cell.length) cur += cell[++i];
    else if (ch === ';' || ch === '\n' || ch === '\r') {
      out.push(cur.trim());
      cur = '';
      if (ch === '\r' && cell[i + 1] === '\n') i++;
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/** The own list cell of `items` (splitOwnList reads it back). */
export function joinOwnList(items: readonly string[]): string {
  return items.map((s) => s.replace(/[\\;]/g, (c) => `\\${c}`)).join('; ');
}

/** Another program's list cell: Google joins with " ::: ", Outlook categories with ";". */
const splitForeign = (cell: string) =>
  cell
    .split(/\s*:::\s*|[;\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Google's built-in groups: not a user's tags. */
const SYSTEM_GROUPS = new Set(['* mycontacts', '* starred', '* other contacts']);

/**
 * A spreadsheet-safe cell back to its value (docs/PROCESS-REQUEST.md "Spreadsheet safety"): the
 * export puts `'` before a value starting with = + - @ tab CR or `'`, so one leading `'` before one
 * of those is taken off again; any other `'` is data.
 */
export function unneutralise(cell: string): string {
  return /^'[=+\-@\t\r']/.test(cell) ? cell.slice(1) : cell;
}

/** `5/17/1980`, `17.05.1980`, `17/05/1980` (dayFirst) → `1980-05-17`; other text unchanged (validation judges it). */
export function localDate(s: string, dayFirst: boolean): string {
  const m = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})$/.exec(s.trim());
  if (!m) return s;
  let [a, b] = [Number(m[1]), Number(m[3])];
  const first = m[2] === '.' || dayFirst || a > 12;
  if (first) [a, b] = [b, a];
  const y =
    m[4].length === 2
      ? (Number(m[4]) <= new Date().getUTCFullYear() % 100 ? 2000 : 1900) + Number(m[4])
      : Number(m[4]);
  return `${y}-${String(a).padStart(2, '0')}-${String(b).padStart(2, '0')}`;
}

interface Address {
  label?: string;
  parts: Map<string, string>;
  columns: string[];
}

/** One CSV row → a record for validation, and the headers of cells with values the contact does not keep. */
export function rowRecord(
  cells: readonly string[],
  roles: readonly ColumnRole[],
): { record: Record<string, unknown>; notKept: NotKept[] } {
  const record: Record<string, unknown> = {};
  const notKept: NotKept[] = [];
  const slotLabels = new Map<string, string>();
  cells.forEach((raw, i) => {
    const lab = roles[i]?.labelOf;
    if (lab && raw.trim()) slotLabels.set(`${lab.kind} ${lab.slot}`, raw.trim());
  });
  const lists: Record<string, { items: string[]; labels: string[] }> = {};
  const addresses = new Map<string, Address>();
  let fullName: string | undefined;
  const formatted = new Map<string, string>();
  const scalarFrom = new Map<string, string>();

  for (let i = 0; i < cells.length; i++) {
    const role = roles[i];
    if (!role) continue;
    const cell = unneutralise(cells[i]);
    if (cell.trim() === '' || role.labelOf || role.derived) {
      if (
        role.labelOf &&
        cell.trim() &&
        !['Emails', 'Phones', 'Address'].includes(role.labelOf.kind)
      )
        notKept.push({ column: role.header, why: WHY.label });
      continue;
    }
    const f = role.field;
    if (!f) {
      if (role.fullName) fullName ??= cell.trim();
      else if (role.formatted) formatted.set(`slot ${role.slot}`, cell.trim());
      else if (!EMPTY_VALUES.has(cell.trim().toLowerCase()))
        notKept.push({
          column: role.header,
          why: /photo|foto/i.test(role.header) ? WHY.photo : WHY.noField,
        });
      continue;
    }
    if (f.type === 'List') {
      let items = role.own ? splitOwnList(cell) : splitForeign(cell);
      if (f.name === 'Tags' && !role.own) {
        items = items
          .filter((t) => !SYSTEM_GROUPS.has(t.toLowerCase()))
          .map((t) => t.replace(/^\*\s+/, ''));
      }
      const l = (lists[f.name] ??= { items: [], labels: [] });
      const label =
        role.label ?? (role.slot ? slotLabels.get(`${f.name} ${role.slot}`) : undefined) ?? '';
      for (const item of items) {
        l.items.push(item);
        l.labels.push(label);
      }
      continue;
    }
    if (f.addressPart && !role.own) {
      const key = role.label ?? (role.slot ? `slot ${role.slot}` : '');
      let a = addresses.get(key);
      if (!a)
        addresses.set(
          key,
          (a = {
            label: role.label ?? (role.slot ? slotLabels.get(`Address ${role.slot}`) : undefined),
            parts: new Map(),
            columns: [],
          }),
        );
      const prev = a.parts.get(f.name);
      a.parts.set(
        f.name,
        role.continuation && prev ? `${prev}\n${cell.trim()}` : (prev ?? cell.trim()),
      );
      a.columns.push(role.header);
      continue;
    }
    if (f.name === 'Birthday' && NO_DATE.test(cell.trim())) continue;
    const value = f.name === 'Birthday' ? localDate(cell, role.dayFirst ?? false) : cell;
    if (record[f.name] === undefined) {
      record[f.name] = value;
      scalarFrom.set(f.name, role.header);
    } else if (String(record[f.name]).trim() !== value.trim())
      notKept.push({ column: role.header, why: `${f.name} is given by ${scalarFrom.get(f.name)}` }); // a second column for the same field
  }

  for (const [name, l] of Object.entries(lists)) {
    record[name] = [...((record[name] as string[] | undefined) ?? []), ...l.items];
    if (LABELLED.has(name) && l.labels.some(Boolean))
      record[name === 'Emails' ? 'EmailLabels' : 'PhoneLabels'] = l.labels;
  }
  for (const [key, text] of formatted)
    if (!addresses.get(key)?.parts.size)
      addresses.set(key, {
        label: slotLabels.get(`Address ${key.slice(5)}`),
        parts: new Map([['Street', text]]),
        columns: [],
      });
  let first = true;
  for (const a of addresses.values()) {
    if (!a.parts.size) continue;
    if (!first || record.Street !== undefined || record.City !== undefined) {
      notKept.push(...a.columns.map((column) => ({ column, why: WHY.secondAddress })));
      continue;
    }
    first = false;
    for (const [k, v] of a.parts) record[k] = v;
    if (a.label && record.AddressLabel === undefined) record.AddressLabel = a.label;
  }
  if (
    fullName &&
    !record.FirstName &&
    !record.LastName &&
    !record.MiddleName &&
    fullName !== record.Organization
  ) {
    const p = parseFullName(fullName);
    const parts: [string, string][] = [
      ['NamePrefix', p.title],
      ['FirstName', p.first],
      ['MiddleName', p.middle],
      ['LastName', p.last],
      ['NameSuffix', p.suffix],
      ['Nickname', p.nick],
    ];
    for (const [k, v] of parts) if (v && record[k] === undefined) record[k] = v;
  }
  return { record, notKept };
}

/** The mapping DryRun shows: each column and what it becomes. */
export function describeRole(r: ColumnRole): {
  Column: string;
  Field?: string;
  Label?: string;
  Note?: string;
} {
  if (r.field)
    return {
      Column: r.header,
      Field: r.field.name,
      Label:
        r.label ??
        (r.slot && ['Emails', 'Phones'].includes(r.field.name)
          ? `from "${r.header.replace(/value$/i, 'Label')}"`
          : undefined),
      Note: r.continuation ? 'another street line' : r.note,
    };
  if (r.labelOf)
    return {
      Column: r.header,
      Note: ['Emails', 'Phones', 'Address'].includes(r.labelOf.kind)
        ? `labels ${r.labelOf.kind === 'Address' ? 'the address' : r.labelOf.kind}`
        : 'not kept',
    };
  if (r.fullName)
    return {
      Column: r.header,
      Field: 'NamePrefix FirstName MiddleName LastName NameSuffix',
      Note: 'split when the row has no name parts',
    };
  if (r.formatted)
    return { Column: r.header, Field: 'Street', Note: 'when the address has no parts' };
  if (r.derived) return { Column: r.header, Note: `not kept: ${r.derived}` };
  return { Column: r.header, Note: 'unknown column: not kept' };
}
