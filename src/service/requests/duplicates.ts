/**
 * Likely duplicates (issue: people bring the same contacts from two sources) and merging them. Two
 * contacts are likely the same person when they share an email (case-insensitive), a phone (the same
 * last 9 digits, numbers of 7 digits or more: "+49 30 1234567" is "030 1234567"), or a normalised
 * name together with a normalised organisation. A merge keeps the first contact's values, unites the
 * lists, and keeps a conflicting value of the second in Notes, so nothing either source had is lost.
 */
import { normalize } from '../../search/normalize.ts';
import type { Contact } from '../../fields/contact.ts';
import type { ContactScan } from '../../fields/contact-scan.ts';
import { FIELDS } from '../../fields/schema.ts';
import { bitsFor, hasBit, setBit } from '../../search/bits.ts';
import { nextTurn, timeSlice } from '../../next-turn.ts';

/** `kind` and `key` say what matches; `value` what to tell a person (whyDuplicate). */
export interface DuplicateKey {
  kind: 'email' | 'phone' | 'name';
  key: string;
  value: string;
  /** A name key's organisation part (orgPart), the end of its key. */
  org?: string;
}

export function duplicateKeys(c: Contact): DuplicateKey[] {
  const out: DuplicateKey[] = [];
  for (const e of c.Emails) out.push({ kind: 'email', key: e.toLowerCase(), value: e });
  for (const p of c.Phones) {
    const d = phoneKey(p);
    if (d) out.push({ kind: 'phone', key: d, value: p });
  }
  if (c.Organization && (c.FirstName || c.LastName)) {
    const name = normalize(
      [c.FirstName, c.MiddleName, c.LastName].filter(Boolean).join(' '),
    ).trim();
    const org = orgPart(c.Organization);
    out.push({
      kind: 'name',
      key: name + org,
      value: `${c.DisplayName}, ${c.Organization}`,
      org,
    });
  }
  return out;
}

/** Keys of each kind (a kind's keys in a map of their own: a scan looks them up as it reads them), each with what it stands for. */
export class KeyMap<T> {
  readonly of = {
    email: new Map<string, T>(),
    phone: new Map<string, T>(),
    name: new Map<string, T>(),
  };

  /**
   * The organisation parts of the name keys: a row whose organisation is none of them has none of
   * their name keys, unless a bar in a name moves the key's split (`name|org` of "Ann|Bo", "Co" is
   * that of "Ann", "Bo|Co"): `pipedName` when a file name holds one.
   */
  readonly orgs = new Set<string>();
  pipedName = false;

  get(k: DuplicateKey): T | undefined {
    return this.of[k.kind].get(k.key);
  }
  set(k: DuplicateKey, v: T): void {
    this.of[k.kind].set(k.key, v);
    if (k.org === undefined) return;
    this.orgs.add(k.org);
    if (k.key.lastIndexOf('|', k.key.length - k.org.length - 1) >= 0) this.pipedName = true;
  }
  get size(): number {
    return this.of.email.size + this.of.phone.size + this.of.name.size;
  }
  clear(): void {
    for (const m of Object.values(this.of)) m.clear();
    this.orgs.clear();
    this.pipedName = false;
  }
}

/** Keys as mayShareKey reads them: some of a KeyMap's (sharingRows' pass over every row). */
type Keys<T> = Pick<KeyMap<T>, 'of' | 'orgs' | 'pipedName'>;

/**
 * Whether an email key (an address in lower case) finds, as the index's whole-address term (the
 * address normalised), every address that lower-cases to it: normalising the address or its lower
 * case is the same but where a sigma is folded (Σ before a modifier letter, a lunate Ϲ: σ one way, ς
 * the other; test/import-duplicate-scan.test.ts 4b holds it for every character and at random).
 */
export const foundByTerm = (key: string): boolean => !/[σς]/.test(normalize(key));

/**
 * How many leading digits of a phone's digits its indexed form (its first variant, reversed under
 * the index's suffix namespace) may lack: an international 00 or a trunk 0 (a calling code put
 * before a national number keeps its end). So a key's digits but its first two end every phone of
 * that key as indexed.
 */
const PHONE_DROPPED = 2;

/**
 * The rows mayShareKey says yes of, and the test that tells (called on each of `rows` in order).
 * Where the scan finds rows by term (ContactScan.rowsWith), the emails (but those with a sigma:
 * foundByTerm) and phones of `keys` are looked up there, and only the rows found are tested for
 * them: a one-row import into a million no longer reads a million rows. A pass over every row is
 * left for name keys and any other email, testing a row not found for those alone.
 */
export async function sharingRows<T>(
  scan: ContactScan,
  keys: KeyMap<T>,
  wanted: (v: T) => boolean = () => true,
): Promise<{ rows: Iterable<number>; may: (row: number) => boolean }> {
  const all = mayShareKey(scan, keys, wanted);
  if (!scan.rowsWith) return { rows: scan.rows(), may: all };
  const { email, phone, name } = keys.of;
  const looked: string[] = [];
  const other = new Map<string, T>();
  const due = timeSlice(); // 100,000 keys: tens of milliseconds
  for (const [k, v] of email) {
    if (due()) await nextTurn();
    if (foundByTerm(k)) looked.push(k);
    else other.set(k, v);
  }
  const ends = [...phone.keys()].map((k) => k.slice(PHONE_DROPPED));
  const found = await scan.rowsWith(looked, ends);
  if (!name.size && !other.size) return { rows: found, may: all };
  const isFound = bitsFor(found.length ? found[found.length - 1] + 1 : 0);
  for (const r of found) setBit(isFound, r);
  const rest = mayShareKey(
    scan,
    { of: { email: other, phone: new Map(), name }, orgs: keys.orgs, pipedName: keys.pipedName },
    wanted,
  );
  return {
    rows: scan.rows(),
    may: (row) => (hasBit(isFound, row) ? all(row) : rest(row)), // past its end: no bit
  };
}

/**
 * A test of a scanned contact's row: whether `duplicateKeys` of it would include one of `keys` whose
 * value is `wanted` (an import's: a row not yet reported), reading only the fields keys are made of,
 * each distinct value once where a column shares them (organisations, names), so that only the rows
 * that do are read in full.
 */
export function mayShareKey<T>(
  scan: ContactScan,
  keys: Keys<T>,
  wanted: (v: T) => boolean = () => true,
): (row: number) => boolean {
  const { email: emails, phone: phones, name: names } = keys.of;
  const { orgs, pipedName } = keys;
  const want = (v: T | undefined) => v !== undefined && wanted(v);
  const email = scan.memo('Emails', (e) => emails.get(e.toLowerCase()));
  const phone = scan.memo('Phones', (p) => {
    const d = phoneKey(p);
    return d === undefined ? undefined : phones.get(d);
  });
  const org = scan.memo('Organization', (o) => (o ? orgPart(o) : undefined));
  // The name's parts normalised one by one and joined are the joined name normalised: NFKD and the
  // removal of marks go character by character and the space between parts stops NFC's
  // recomposition; lower-casing's one rule of context (a final sigma) is not crossed by a space.
  const part = (v: string) => (v ? normalize(v) : undefined); // empty: left out, as by filter(Boolean)
  const first = scan.memo('FirstName', part);
  const middle = scan.memo('MiddleName', part);
  const last = scan.memo('LastName', part);
  return (row) => {
    if ((emails.size && email.some(row, want)) || (phones.size && phone.some(row, want)))
      return true;
    if (!names.size) return false;
    const o = org.first(row);
    if (o === undefined) return false;
    const f = first.first(row),
      l = last.first(row);
    if (f === undefined && l === undefined) return false; // no name key
    const m = middle.first(row);
    // A row whose organisation is no name key's ends here, but for a bar in a name (KeyMap.orgs).
    if (!pipedName && !orgs.has(o) && !f?.includes('|') && !m?.includes('|') && !l?.includes('|'))
      return false;
    let name = f ?? '';
    if (m !== undefined) name = f === undefined ? m : name + ' ' + m;
    if (l !== undefined) name = f === undefined && m === undefined ? l : name + ' ' + l;
    return want(names.get(name.trim() + o));
  };
}

/** A name key's organisation part: `name|organisation`, both normalised. */
const orgPart = (o: string) => '|' + normalize(o).trim();

export function whyDuplicate(k: DuplicateKey): string {
  return k.kind === 'name'
    ? `same name and organisation (${k.value})`
    : `same ${k.kind} ${k.value}`;
}

/** A phone's last 9 digits (ASCII 0-9), when it has 7 or more; read from the end, not made by a regex (a million at a scan). */
function phoneKey(p: string): string | undefined {
  let digits = 0,
    from = p.length;
  for (let i = p.length - 1; i >= 0; i--) {
    const c = p.charCodeAt(i);
    if (c < 48 || c > 57) continue;
    if (++digits <= 9) from = i;
  }
  if (digits < 7) return undefined;
  if (from + Math.min(digits, 9) === p.length) return p.slice(from); // the digits are the end
  let out = '';
  for (let i = from; i < p.length; i++) {
    const c = p.charCodeAt(i);
    if (c >= 48 && c <= 57) out += p[i];
  }
  return out;
}

export interface Conflict {
  field: string;
  kept: string;
  other: string;
}

/** The single-valued fields a merge fills or reports: all but the id, the derived, the lists and Notes (which collects the conflicts). */
const SCALARS = FIELDS.filter(
  (d) => d.type !== 'List' && !d.readOnly && d.name !== 'ContactId' && d.name !== 'Notes',
).map((d) => d.name);
const NOTES_MAX = 4000;

/** `into` with what `from` adds: empty fields filled, lists united, each conflicting value kept in Notes and returned. */
export function mergeContacts(
  into: Contact,
  from: Contact,
  source: string,
): { merged: Contact; conflicts: Conflict[] } {
  const m: Contact = {
    ...into,
    Emails: [...into.Emails],
    Phones: [...into.Phones],
    Tags: [...into.Tags],
  };
  const rec = m as unknown as Record<string, unknown>;
  const src = from as unknown as Record<string, unknown>;
  const conflicts: Conflict[] = [];
  for (const f of SCALARS) {
    const a = rec[f] as string | undefined,
      b = src[f] as string | undefined;
    if (!b || a === b) continue;
    if (!a) rec[f] = b;
    else conflicts.push({ field: f, kept: a, other: b });
  }
  unite(m, from, 'Emails', 'EmailLabels', (e) => e.toLowerCase());
  unite(m, from, 'Phones', 'PhoneLabels', (p) => phoneKey(p) ?? p);
  for (const t of from.Tags) if (!m.Tags.includes(t)) m.Tags.push(t);
  const sites = [...(into.Websites ?? [])];
  for (const w of from.Websites ?? []) if (!sites.includes(w)) sites.push(w);
  if (sites.length) m.Websites = sites;
  const notes = [
    into.Notes,
    from.Notes && from.Notes !== into.Notes ? from.Notes : undefined,
    conflicts.length
      ? `${source}: ${conflicts.map((c) => `${c.field} "${c.other}"`).join(', ')}`
      : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
  if (notes) m.Notes = notes.length > NOTES_MAX ? notes.slice(0, NOTES_MAX) : notes;
  if (from.Notes && into.Notes && from.Notes !== into.Notes && notes.length > NOTES_MAX)
    conflicts.push({
      field: 'Notes',
      kept: into.Notes.slice(0, 40),
      other: from.Notes.slice(0, 40),
    });
  return { merged: m, conflicts };
}

function unite(
  m: Contact,
  from: Contact,
  list: 'Emails' | 'Phones',
  labels: 'EmailLabels' | 'PhoneLabels',
  key: (s: string) => string,
): void {
  const items = m[list];
  const labs = [...(m[labels] ?? [])];
  while (labs.length < items.length) labs.push('');
  const at = new Map(items.map((x, i) => [key(x), i]));
  from[list].forEach((x, i) => {
    const label = from[labels]?.[i] ?? '';
    const j = at.get(key(x));
    if (j === undefined) {
      at.set(key(x), items.length);
      items.push(x);
      labs.push(label);
    } else if (!labs[j] && label) labs[j] = label;
  });
  while (labs.length && !labs[labs.length - 1]) labs.pop();
  if (labs.length) m[labels] = labs;
  else delete m[labels];
}
