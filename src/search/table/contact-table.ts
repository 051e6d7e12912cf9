/**
 * Contacts in columns, one per schema field (src/fields/schema.ts), row = index ordinal. A scalar
 * column holds one dictionary id per row; a list column an offset per row into its item ids. Search
 * loops (filters, facets, sorts) read ids from typed arrays; a Contact object is made only for a row
 * that is shown or exported.
 */
import { FIELDS, type FieldDef, type FieldName } from '../../fields/schema.ts';
import type { Contact } from '../../fields/contact.ts';
import type { ValueMemo } from '../../fields/contact-scan.ts';
import { Dictionary } from './dictionary.ts';
import { Growable } from './growable.ts';

/**
 * A column's ids or offsets in the narrowest array their values fit: a byte a row for a column of at
 * most 255 values (Country, Tags, an empty column), two up to 65,535 (names, cities), four beyond.
 * Widened in place when a value does not fit. At 1M contacts this is 126 MB of columns down to
 * 60 MB (docs/perf-log/2026-11-26-memory.md). Read them as plain indexed arrays.
 */
export type Ids = Uint32Array | Uint16Array | Uint8Array;

/** The narrowest array type holding values up to `max`. */
export const idArrayFor = (max: number) =>
  max <= 0xff ? Uint8Array : max <= 0xffff ? Uint16Array : Uint32Array;

const MAX_OF = new Map<unknown, number>([
  [Uint8Array, 0xff],
  [Uint16Array, 0xffff],
  [Uint32Array, 0xffffffff],
]);

/** Makes `g` able to hold `v` (a wider array of the same contents when it cannot). */
function fit(g: Growable<Ids>, v: number): void {
  if (v <= MAX_OF.get(g.a.constructor)!) return;
  const wider = new (idArrayFor(v))(g.a.length);
  wider.set(g.a);
  g.a = wider;
}

export class Column {
  /** Scalar: the value id of each row. List: the item ids, rows one after another. */
  readonly ids = new Growable<Ids>(new Uint8Array(0));
  /** List only: row r's items are ids[offs[r] .. offs[r + 1]). */
  readonly offs: Growable<Ids> | undefined;

  constructor(
    readonly field: FieldDef,
    readonly dict = new Dictionary(),
  ) {
    this.offs = field.type === 'List' ? new Growable<Ids>(new Uint8Array(1)) : undefined;
    if (this.offs) this.offs.n = 1; // offs[0] = 0
  }

  get list(): boolean {
    return this.offs !== undefined;
  }

  /**
   * Widens the arrays (if need be) to hold value ids up to `maxId` and offsets up to `maxOff`:
   * a bulk copy into a column (index/segment.ts, ContactTable.appendRows) must call it first, as a
   * typed array's `set` or index write would silently cut a value that does not fit.
   */
  fitFor(maxId: number, maxOff: number): void {
    fit(this.ids, maxId);
    if (this.offs) fit(this.offs, maxOff);
  }

  trim(): void {
    this.dict.trim();
    this.ids.trim();
    this.offs?.trim();
  }

  push(v: unknown): void {
    if (this.offs) {
      const items = Array.isArray(v) ? v : [];
      for (const x of items) this.pushId(this.dict.intern(String(x)));
      fit(this.offs, this.ids.n);
      this.offs.push(this.ids.n);
    } else {
      this.pushId(v === undefined || v === null ? 0 : this.dict.intern(String(v)));
    }
  }

  private pushId(id: number): void {
    fit(this.ids, id);
    this.ids.push(id);
  }

  /** The row's value (scalar) or values (list); undefined when absent. */
  read(row: number): string | string[] | undefined {
    if (this.offs) {
      const out: string[] = [];
      for (let i = this.offs.a[row], to = this.offs.a[row + 1]; i < to; i++)
        out.push(this.dict.value(this.ids.a[i]));
      return out;
    }
    const id = this.ids.a[row];
    return id === 0 ? undefined : this.dict.value(id);
  }

  /** The row's value, or a list's first item (only that one decoded: an option's email); undefined when absent. */
  first(row: number): string | undefined {
    const id = this.firstId(row);
    return id === 0 ? undefined : this.dict.value(id);
  }

  /** The id `first` decodes: the row's, or a list's first item's (never 0); 0 when absent. */
  firstId(row: number): number {
    if (!this.offs) return this.ids.a[row];
    const at = this.offs.a[row];
    return at < this.offs.a[row + 1] ? this.ids.a[at] : 0;
  }

  /** The row's values as strings: none, one, or a list's items. */
  values(row: number): string[] {
    const v = this.read(row);
    return v === undefined ? [] : Array.isArray(v) ? v : [v];
  }

  /**
   * `fn` of this column's values, asked once per value id: a deduplicating dictionary's values each
   * once however many rows share them (a city, an organisation), a buffered one's once a row.
   */
  memo<T>(fn: (value: string) => T): ValueMemo<T> {
    const { dict } = this;
    const cached = dict.deduplicated ? new Array<T>(dict.size) : [];
    const known = new Uint8Array(cached.length);
    const of = (id: number): T => {
      if (id >= known.length) return fn(dict.value(id)); // a value added since (or not cached)
      if (known[id] === 0) {
        cached[id] = fn(dict.value(id));
        known[id] = 1;
      }
      return cached[id];
    };
    return {
      first: (row) => {
        const id = this.firstId(row);
        return id === 0 ? undefined : of(id);
      },
      some: (row, test) => {
        if (!this.offs) {
          const id = this.ids.a[row];
          return id !== 0 && test(of(id));
        }
        const ids = this.ids.a;
        for (let i = this.offs.a[row], to = this.offs.a[row + 1]; i < to; i++)
          if (test(of(ids[i]))) return true;
        return false;
      },
    };
  }
}

/** The list members every Contact has (fields/contact.ts); the other lists are optional. */
const ALWAYS_LISTS = new Set(['Emails', 'Phones', 'Tags']);

/** ContactTable.readAhead's ids, kept between calls. */
let readAheadIds = new Int32Array(64);

export class ContactTable {
  readonly columns: readonly Column[];
  private readonly byName: Map<string, Column>;
  private viewType: (new (row: number) => object) | undefined;
  rows = 0;

  /** `dicts`: the dictionaries to share, one per schema field (a permuted copy keeps its source's). */
  constructor(dicts?: readonly Dictionary[]) {
    this.columns = FIELDS.map((f, i) => new Column(f, dicts?.[i]));
    this.byName = new Map(this.columns.map((c) => [c.field.name, c]));
  }

  column(name: FieldName): Column {
    return this.byName.get(name)!;
  }

  /**
   * Reads ahead what `first` of each named column will read for each row: first every value's id,
   * then every value's place and first byte. A type-ahead answer's ~40 values sit in scattered
   * places of a million-row table; decoded one after another, each waited for three or four cache
   * misses in turn, and in these loops of independent reads the misses overlap (typing-ab at 1M:
   * median −6 to −8%). Answers a number for the caller to keep, so the reads are not dropped.
   */
  readAhead(rows: ArrayLike<number>, names: readonly FieldName[]): number {
    if (readAheadIds.length < rows.length * names.length)
      readAheadIds = new Int32Array(rows.length * names.length); // kept: a page of rows asks the same again
    const ids = readAheadIds;
    let k = 0;
    for (const name of names) {
      const col = this.column(name);
      for (let i = 0; i < rows.length; i++) ids[k++] = col.firstId(rows[i]);
    }
    let sum = 0;
    k = 0;
    for (const name of names) {
      const dict = this.column(name).dict;
      for (let i = 0; i < rows.length; i++) sum += dict.touch(ids[k++]);
    }
    return sum;
  }

  /**
   * Room for `contacts` in every column (its dictionary, ids and offsets), a column a step. A table
   * opened from a snapshot has none to spare: the first contact appended after an open grew every
   * column by a whole copy in one go (a 1,000-contact import into 1M held the event loop ~1 s,
   * docs/perf-log/2026-11-29-tails.md). The caller yields between the steps (searches answer).
   */
  *roomSteps(contacts: readonly Contact[]): Generator<void> {
    for (const col of this.columns) {
      const values: string[] = [];
      for (const c of contacts) {
        const v = (c as unknown as Record<string, unknown>)[col.field.name];
        if (v !== undefined && v !== null)
          for (const x of Array.isArray(v) ? v : [v]) values.push(String(x));
      }
      const newIds = yield* col.dict.roomSteps(values);
      // Wide enough for the ids the values can take: new ones only (most of a column's are held already).
      col.fitFor(col.dict.size + newIds, col.ids.n + values.length);
      col.ids.grow(col.ids.n + (col.offs ? values.length : contacts.length));
      col.offs?.grow(col.offs.n + contacts.length);
      yield;
    }
  }

  append(c: Contact): number {
    const rec = c as unknown as Record<string, unknown>;
    for (const col of this.columns) col.push(rec[col.field.name]);
    return this.rows++;
  }

  /** The rows in `order` (row i of the result is row order[i] here), sharing this table's dictionaries. */
  /**
   * Drops every row's value ids (the dictionaries stay: a permuted copy shares them). For a build's
   * loaded table once permuted: its copy is all the build reads after.
   */
  dropRows(): void {
    for (const c of this.columns) {
      c.ids.a = new Uint8Array(0);
      c.ids.n = 0;
      if (c.offs) {
        c.offs.a = new Uint8Array(1);
        c.offs.n = 1;
      }
    }
    this.rows = 0;
  }

  permuted(order: Uint32Array): ContactTable {
    const out = new ContactTable(this.columns.map((c) => c.dict));
    for (let k = 0; k < this.columns.length; k++) {
      const from = this.columns[k],
        to = out.columns[k];
      const ids = from.ids.a;
      const Ids = idArrayFor(from.dict.size - 1);
      if (!from.offs) {
        const a = new Ids(order.length);
        for (let i = 0; i < order.length; i++) a[i] = ids[order[i]];
        to.ids.a = a;
        to.ids.n = order.length;
        continue;
      }
      const offs = from.offs.a;
      const o2 = new Uint32Array(order.length + 1);
      for (let i = 0; i < order.length; i++)
        o2[i + 1] = o2[i] + offs[order[i] + 1] - offs[order[i]];
      const a = new Ids(o2[order.length]);
      for (let i = 0; i < order.length; i++)
        a.set(ids.subarray(offs[order[i]], offs[order[i] + 1]), o2[i]);
      to.ids.a = a;
      to.ids.n = a.length;
      to.offs!.a = new (idArrayFor(a.length))(o2);
      to.offs!.n = o2.length;
    }
    out.rows = order.length;
    return out;
  }

  /**
   * Appends `other`'s rows, which must share this table's dictionaries (a segment's rows staged for
   * it: index/segment.ts). Typed-array copies only; `reserve` first makes them copies without regrowth.
   */
  appendRows(other: ContactTable): void {
    for (let k = 0; k < this.columns.length; k++) {
      const to = this.columns[k],
        from = other.columns[k];
      if (to.dict !== from.dict)
        throw new Error('appendRows: the tables do not share dictionaries');
      const at = to.ids.n;
      to.fitFor(to.dict.size, at + from.ids.n);
      to.ids.append(from.ids.a.subarray(0, from.ids.n));
      if (to.offs && from.offs) {
        to.offs.grow(to.offs.n + from.offs.n - 1);
        for (let i = 1; i < from.offs.n; i++) to.offs.a[to.offs.n++] = at + from.offs.a[i];
      }
    }
    this.rows += other.rows;
  }

  /** Room for `other`'s rows in column k (appendRows then copies without growing it). */
  reserve(k: number, others: readonly ContactTable[]): void {
    const to = this.columns[k];
    let ids = to.ids.n,
      offs = to.offs?.n ?? 0;
    for (const other of others) {
      const from = other.columns[k];
      ids += from.ids.n;
      offs += from.offs?.n ?? 0;
    }
    to.fitFor(to.dict.size, ids);
    to.ids.grow(ids);
    if (to.offs) to.offs.grow(offs);
  }

  /** Drops the spare capacity the appends left. */
  trim(): void {
    for (const c of this.columns) c.trim();
  }

  /** The columns' typed arrays and dictionaries (SearchIndex.approximateBytes). */
  approximateBytes(): number {
    let n = 0;
    for (const c of this.columns)
      n += c.ids.a.byteLength + (c.offs?.a.byteLength ?? 0) + c.dict.approximateBytes();
    return n;
  }

  /** A row as a Contact, members in schema order, absent optional members left out (an empty optional list too). */
  contact(row: number): Contact {
    const out: Record<string, unknown> = {};
    for (const col of this.columns) {
      const v = col.read(row);
      if (
        v !== undefined &&
        !(Array.isArray(v) && v.length === 0 && !ALWAYS_LISTS.has(col.field.name))
      )
        out[col.field.name] = v;
    }
    return out as unknown as Contact;
  }

  /**
   * A row as a Contact whose members are read when first asked, then kept: a type-ahead option needs
   * 4–6 of its ~20 fields, and each read decodes its value from the dictionary. The members are
   * getters, so a view is for reading by name only: not for spreading, JSON or Object.keys (`contact`).
   */
  view(row: number): Contact {
    return new (this.viewType ??= viewType(this.columns))(row) as unknown as Contact;
  }

  /** One scalar value (a list's first item) without making the whole contact. */
  value(row: number, name: FieldName): string | undefined {
    return this.column(name).first(row);
  }
}

const UNREAD = Symbol('unread');

/** The class of `view`'s objects for these columns: one getter per field, on the prototype. */
function viewType(columns: readonly Column[]): new (row: number) => object {
  class View {
    readonly got: unknown[] = new Array(columns.length).fill(UNREAD);
    constructor(readonly row: number) {}
  }
  columns.forEach((col, i) => {
    const optionalList = col.list && !ALWAYS_LISTS.has(col.field.name); // absent when empty, as in `contact`
    Object.defineProperty(View.prototype, col.field.name, {
      get(this: View) {
        let v = this.got[i];
        if (v === UNREAD) {
          v = col.read(this.row);
          if (optionalList && (v as string[]).length === 0) v = undefined;
          this.got[i] = v;
        }
        return v;
      },
    });
  });
  return View;
}
