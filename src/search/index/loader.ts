/**
 * Loading contacts for a build: their columns (the contact table) and their token entries in plain
 * typed arrays, terms interned per namespace; the build (build.ts) sorts and renumbers them.
 */
import type { Contact } from '../../fields/contact.ts';
import { eachEntry, type EntryKind, type EntryMemo, type EntrySink } from '../contact-tokens.ts';
import { FIELDS } from '../../fields/schema.ts';
import { ContactTable } from '../table/contact-table.ts';
import { Dictionary } from '../table/dictionary.ts';
import { DigitTerms, digitKey, digitString, sortedDigits } from '../table/digit-terms.ts';
import { Growable, grown } from '../table/growable.ts';
import { IdHash } from '../table/id-hash.ts';
import {
  CLS_SHIFT,
  EMAIL_NS,
  PART_NS,
  PHONE_NS,
  reverse,
  SUFFIX_NS,
  TERM_MASK,
  VARIANT_NS,
} from './base.ts';
import { SpanLoader } from './spans.ts';

/**
 * The dictionary's namespaces in sort order: a namespaced term starts with a control character, so
 * every one sorts before every word (a word starts with a letter, digit or mark — but an email's
 * local-part piece may start with anything: `odd` below).
 */
const NAMESPACES = [EMAIL_NS, PHONE_NS, SUFFIX_NS, PART_NS, VARIANT_NS, ''] as const;
const EMAIL = 0,
  PHONE = 1,
  SUFFIX = 2,
  PART = 3,
  VARIANT = 4,
  WORD = 5;
const NS_OF: Record<Exclude<EntryKind, 'phone'>, number> = {
  word: WORD,
  email: EMAIL,
  part: PART,
  variant: VARIANT,
};

/** The kinds a field value's word entries have (EntryMemo), by their number in a memo's entry. */
const MEMO_KINDS = ['word', 'part', 'variant'] as const;
type MemoKind = (typeof MEMO_KINDS)[number];
const VARIANT_KIND = MEMO_KINDS.indexOf('variant');
/** Values the memo holds at most (then it starts again). */
const MEMO_VALUES = 50_000;

/**
 * Token entries of loaded rows, in plain typed arrays grown by hand: this is the build's hottest
 * loop (27M entries at 1M contacts), fed by eachEntry with no object per entry. Terms are interned
 * per namespace, un-prefixed (no namespaced string is made per entry: the prefix is added once per
 * term, in the blob).
 */
class LoadedEntries implements EntrySink, EntryMemo {
  /** Per namespace: term (without its namespace) → loaded term id. */
  private readonly ids = NAMESPACES.map(() => new Map<string, number>());
  /** Phone and reversed-phone terms of 1–15 digits: interned as numbers instead (DigitTerms). */
  private readonly digits = NAMESPACES.map((_, s) =>
    s === PHONE || s === SUFFIX ? new DigitTerms() : undefined,
  );
  private terms = 0;
  /** A word term below U+0006 (only an email piece can be one) would sort among the namespaced terms. */
  private odd = false;
  /** Row r's entries are [off[r], off[r + 1]). */
  off = new Uint32Array(1024);
  rows = 0;
  /** Each entry's loaded term id, with its field class in the top bits (base.ts entTerm's layout). */
  term = new Uint32Array(1 << 16);
  /**
   * Each entry's display position and token number as steps from the row's entry before, 2 bits an
   * entry (base.ts entSteps), not two u16s: the build keeps only the steps, and at 1M the u16s were
   * ~150 MB of its peak (issue 25).
   */
  steps = new Uint8Array(1 << 14);
  /** Rows with a position at its cap, 65,535 (base.ts posCapped): a contact of that many tokens. */
  readonly cappedRows = new Set<number>();
  n = 0;
  /** The row's last entry's position and token number (-1 before its first). */
  private lastPos = -1;
  private lastSrc = -1;
  /** Where each token lies in its field (spans.ts), for highlighting. */
  readonly spans = new SpanLoader();
  /** Entries of the row being added (EntrySink), and the phone item whose first variant was seen. */
  count = 0;
  private phoneItem = -1;
  /**
   * The word entries of field values seen before (EntryMemo), by value: the next position's offset,
   * then per entry its term id, kind (MEMO_KINDS), position offset, start and length. Values repeat
   * (a hundred thousand contacts hold a few thousand cities, streets, organisations, titles, tags):
   * a value seen again is one lookup, not its tokens, spellings and a term lookup each.
   */
  private readonly seen = new Map<string, Int32Array>();
  /** The entries of the value being recorded, as `seen` keeps them (after its first slot). */
  private recording: number[] | undefined;
  readonly memo: EntryMemo | undefined;

  constructor(memo: boolean) {
    this.memo = memo ? this : undefined;
  }

  /** Frees the loaded entries (a build calls it once it has copied them in ordinal order). */
  dropEntries(): void {
    this.term = new Uint32Array(0);
    this.steps = new Uint8Array(0);
    this.n = 0;
  }

  add(c: Contact): void {
    if (this.rows + 2 > this.off.length) this.off = grown(this.off, this.rows + 2);
    this.count = 0;
    this.phoneItem = -1;
    this.lastPos = this.lastSrc = -1;
    eachEntry(c, this);
    this.off[++this.rows] = this.n;
    this.spans.endRow();
  }

  entry(
    kind: EntryKind,
    term: string,
    field: string,
    item: number | undefined,
    cls: number,
    pos: number,
    start: number,
    length: number,
  ): void {
    const src = kind === 'variant' ? this.count - 1 : this.count++; // a variant is its word's token
    if (kind !== 'variant') this.spans.add(kind, field, item, start, length);
    if (kind !== 'phone') {
      this.put(NS_OF[kind], term, cls, pos, src);
      this.recording?.push(
        this.term[this.n - 1] & TERM_MASK, // replayed with the class of the value's field then
        MEMO_KINDS.indexOf(kind as MemoKind),
        pos,
        start,
        length,
      );
      return;
    }
    const key = digitKey(term);
    if (key >= 0) this.putId(this.digitId(PHONE, key), cls, pos, src);
    else this.put(PHONE, term, cls, pos, src);
    if (item !== this.phoneItem) {
      this.phoneItem = item!;
      // A phone's first variant is its digits as entered: the reverse serves "last 4+ digits".
      const back = key >= 0 ? digitKey(term, true) : -1;
      if (back >= 0) this.putId(this.digitId(SUFFIX, back), cls, pos, src);
      else if (term.length > 0) this.put(SUFFIX, reverse(term), cls, pos, src);
    }
  }

  replay(text: string, field: string, item: number | undefined, cls: number, pos: number): number {
    const b = this.seen.get(text);
    if (b === undefined) return -1;
    for (let i = 1; i < b.length; i += 5) {
      const kind = b[i + 1];
      let src: number;
      if (kind === VARIANT_KIND) src = this.count - 1;
      else {
        src = this.count++;
        this.spans.add(MEMO_KINDS[kind], field, item, b[i + 3], b[i + 4]);
      }
      this.putId(b[i], cls, pos + b[i + 2], src);
    }
    return pos + b[0];
  }

  record(): void {
    this.recording = [0];
  }

  recorded(text: string, from: number, to: number): void {
    const r = this.recording!;
    this.recording = undefined;
    r[0] = to - from;
    for (let i = 3; i < r.length; i += 5) r[i] -= from;
    if (this.seen.size >= MEMO_VALUES) this.seen.clear(); // bounded: a run of unique values fills it for nothing
    this.seen.set(text, Int32Array.from(r));
  }

  private digitId(ns: number, key: number): number {
    const id = this.digits[ns]!.intern(key, this.terms);
    if (id === this.terms) this.terms++;
    return id;
  }

  private put(ns: number, key: string, cls: number, pos: number, src: number): void {
    const map = this.ids[ns];
    let id = map.get(key);
    if (id === undefined) {
      id = this.terms++;
      map.set(key, id);
      if (ns === WORD && key.charCodeAt(0) <= VARIANT_NS.charCodeAt(0)) this.odd = true;
    }
    this.putId(id, cls, pos, src);
  }

  private putId(id: number, cls: number, pos: number, src: number): void {
    if (this.n === this.term.length) {
      const size = this.n + 1;
      this.term = grown(this.term, size);
      this.steps = grown(this.steps, (size + 3) >>> 2);
    }
    const k = this.n++;
    if (id > TERM_MASK) throw new Error(`index build: more than ${TERM_MASK + 1} terms`);
    this.term[k] = id | (cls << CLS_SHIFT);
    const p = pos > 65535 ? 65535 : pos,
      q = src > 65535 ? 65535 : src;
    // Each moves by 0 or 1 an entry (contact-tokens.ts); anything else would not fit a step.
    const dp = p - this.lastPos,
      dq = q - this.lastSrc;
    if (dp >>> 1 !== 0 || dq >>> 1 !== 0)
      throw new Error(`index build: an entry's position or source moved by ${dp}, ${dq}`);
    this.steps[k >>> 2] |= (dp | (dq << 1)) << ((k & 3) << 1);
    this.lastPos = p;
    this.lastSrc = q;
    if (p === 65535) this.cappedRows.add(this.rows);
  }

  /**
   * The dictionary in sorted order as latin1 chunks, a namespace each (Terms.encode), and
   * `sorted[i]`, the loaded id of sorted term i. Each namespace is sorted on its own, un-prefixed (same order: they share the
   * prefix), and the namespaces follow each other in NAMESPACES order. Empties the interning maps.
   */
  sortedTerms(): {
    T: number;
    termChunks: string[];
    termOff: Uint32Array;
    wide: Uint8Array;
    sorted: Uint32Array;
  } {
    const T = this.terms;
    const sorted = new Uint32Array(T),
      termOff = new Uint32Array(T + 1),
      wide = new Uint8Array(T);
    const chunks: string[] = [];
    let i = 0;
    // A namespace of digit terms only is sorted as numbers (sortedDigits); the others as strings.
    const numeric = this.digits.map((d, s) =>
      d && !this.odd && this.ids[s].size === 0 ? sortedDigits(d, NAMESPACES[s]) : undefined,
    );
    const lists = this.ids.map((map, s) => {
      const list = [...map.keys()];
      const digits = this.digits[s];
      if (digits && !numeric[s])
        for (let j = 0; j < digits.size; j++) list.push(digitString(digits.keys[j]));
      return list.sort();
    });
    if (this.odd) return this.sortedWhole(lists);
    for (let s = 0; s < NAMESPACES.length; s++) {
      const list = lists[s],
        ns = NAMESPACES[s];
      const num = numeric[s];
      if (num) {
        sorted.set(num.ids, i);
        for (let j = 0; j < num.ids.length; j++, i++)
          termOff[i + 1] = termOff[i] + ns.length + num.lengths[j];
        if (num.ids.length) chunks.push(num.chunk);
        continue;
      }
      for (let j = 0; j < list.length; j++, i++) {
        sorted[i] = this.idOf(s, list[j]);
        if (!LATIN1.test(list[j])) {
          list[j] = Buffer.from(list[j], 'utf8').toString('latin1');
          wide[i] = 1;
        }
        termOff[i + 1] = termOff[i] + ns.length + list[j].length;
      }
      if (list.length) chunks.push(ns + list.join(ns));
    }
    this.release();
    return { T, termChunks: chunks, termOff, wide, sorted };
  }

  /** The loaded id of term `t` (without its namespace) of namespace s. */
  private idOf(s: number, t: string): number {
    const key = this.digits[s] ? digitKey(t) : -1;
    return key >= 0 ? this.digits[s]!.get(key) : this.ids[s].get(t)!;
  }

  private release(): void {
    this.seen.clear();
    for (let s = 0; s < NAMESPACES.length; s++) {
      this.ids[s].clear();
      this.digits[s] = undefined;
    }
  }

  /** sortedTerms when an odd word interleaves with the namespaced terms: all terms prefixed and sorted together. */
  private sortedWhole(lists: string[][]) {
    const all: string[] = [];
    const idOf = new Map<string, number>();
    lists.forEach((list, s) => {
      for (const t of list) {
        const key = NAMESPACES[s] + t;
        all.push(key);
        idOf.set(key, this.idOf(s, t));
      }
    });
    all.sort();
    const T = all.length;
    const sorted = new Uint32Array(T),
      termOff = new Uint32Array(T + 1),
      wide = new Uint8Array(T);
    for (let i = 0; i < T; i++) {
      sorted[i] = idOf.get(all[i])!;
      if (!LATIN1.test(all[i])) {
        all[i] = Buffer.from(all[i], 'utf8').toString('latin1');
        wide[i] = 1;
      }
      termOff[i + 1] = termOff[i] + all[i].length;
    }
    this.release();
    return { T, termChunks: [all.join('')], termOff, wide, sorted };
  }
}

const LATIN1 = /^[\x00-\xff]*$/;

/** Outside the build: a closure made in the build would keep its whole scope (the term map) alive. */
export function idHashOf(table: ContactTable): IdHash {
  return new IdHash((ord) => table.value(ord, 'ContactId') ?? '');
}

/**
 * Gathers contacts into columns before a build, so opening a database never holds a million
 * Contact objects at once; a later copy of an id replaces the earlier one.
 */
export class IndexLoader {
  readonly table: ContactTable;
  private readonly dead = new Growable(new Uint8Array(0));
  private readonly byId: IdHash;
  /** The forward index by loaded row (term ids in load order; the build sorts the terms). */
  readonly fwd: LoadedEntries;

  /**
   * `memo`: replay repeated field values' entries (LoadedEntries.replay); off only to test it.
   * `unique`: per schema field, whether its column starts with its values buffered, not
   * deduplicated (Dictionary.unique): a segment's, where the index it goes into holds that column
   * buffered (ids, emails, phones, timestamps), instead of 65,536 values looked up, then moved.
   */
  constructor({ memo = true, unique }: { memo?: boolean; unique?: readonly boolean[] } = {}) {
    this.table = new ContactTable(
      unique && FIELDS.map((_, k) => (unique[k] ? Dictionary.unique() : new Dictionary())),
    );
    this.byId = idHashOf(this.table);
    this.fwd = new LoadedEntries(memo);
  }

  add(c: Contact): void {
    const row = this.table.append(c);
    this.dead.push(0);
    const old = this.byId.set(c.ContactId, row);
    if (old !== undefined) this.dead.a[old] = 1;
    this.fwd.add(c);
  }

  liveRows(): Uint32Array {
    const out = new Growable(new Uint32Array(this.table.rows));
    for (let r = 0; r < this.table.rows; r++) if (this.dead.a[r] === 0) out.push(r);
    return out.done();
  }
}
