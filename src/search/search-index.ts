/**
 * The in-memory index (CONTRACT.md §4; design in docs/SEARCH.md). Two segments:
 *
 *   base   built once from every contact, immutable, typed arrays only:
 *            ordinals 0..n-1 in final tie-break order (DisplayName case/accent-insensitive, ContactId),
 *            so every posting list is already sorted by the last ranking tiers;
 *            termBlob+termOff         sorted unique terms, one string (namespaced: word, \x01 email, \x02 phone, \x03 reversed phone, \x04 word part)
 *            post[postingSlice(c, t, t+1)]  ordinals of term t in field class c (class-major: a prefix range of
 *                                      terms in one class is ONE contiguous slice of `post`)
 *            entTerm/entCls/entPos/entSrc[entOff[o] ..]   the forward index: every token of ordinal o
 *   delta  contacts written since the build (ordinals n, n+1, …), kept as token entry objects and
 *          matched by brute force; base ordinals replaced or deleted are tombstoned. When the delta
 *          grows past a threshold the whole index is rebuilt from the live contacts.
 *   table  the contacts themselves, in columns (table/contact-table.ts), row = ordinal.
 *
 * So a committed change is visible to the next search at once, and the hot path stays typed arrays.
 */
import type { Contact } from '../store/contact.ts';
import { contactEntries, eachEntry, phoneVariants, type Entry, type EntryKind, type EntrySink } from './contact-tokens.ts';
import { normalize } from './normalize.ts';
import { ContactTable } from './table/contact-table.ts';
import { DigitTerms, digitKey, digitString, sortedDigits } from './table/digit-terms.ts';
import { bitsFor, bitsToOrdinals, clearBit, hasBit, setBit } from './bits.ts';
import { Growable, grown } from './table/growable.ts';
import { IdHash } from './table/id-hash.ts';
import { ranksOf } from './table/ranks.ts';
import { classSlice, prefixHeads } from './heads.ts';
import { every, nextTurn } from '../next-turn.ts';

export const CLASSES = 5;
export const EMAIL_NS = '\u0001';
export const PHONE_NS = '\u0002';
export const SUFFIX_NS = '\u0003';
/** Word parts after an apostrophe: apart from words, so a typed token meeting one is never a whole-word match. */
export const PART_NS = '\u0004';

/** `s` backwards (digit strings: phones over 15 digits at the build, a typed token per query; shorter phones are reversed as numbers, digit-terms.ts). */
export const reverse = (s: string) => { let r = ''; for (let i = s.length - 1; i >= 0; i--) r += s[i]; return r; };

interface Base {
  n: number;
  /** Number of terms. */
  T: number;
  /**
   * The sorted terms, concatenated (one string instead of millions: less memory, less GC marking).
   * One one-byte string: a term with a character above U+00FF (CJK, Cyrillic …) is kept as its
   * UTF-8 bytes, flagged in `wide` — one such term would otherwise make the whole blob two bytes a
   * character (the blob is ~90M characters at 1M). bench:memory's heap figure did not move with
   * this change (195 MB before and after), so the saving is not confirmed.
   */
  termBlob: string;
  /** Term i is termBlob[termOff[i] .. termOff[i+1]). */
  termOff: Uint32Array;
  wide: Uint8Array;
  /** Class c holds term ids [cLo[c], cHi[c]); their offsets start at postOff[cBase[c]]. */
  cLo: Uint32Array;
  cHi: Uint32Array;
  cBase: Uint32Array;
  postOff: Uint32Array;
  post: Uint32Array;
  /** Bucket heads made by the build (heads.ts), by headKey. */
  heads: Map<string, Uint32Array>;
  entOff: Uint32Array;
  entTerm: Uint32Array;
  entCls: Uint8Array;
  /** Uint8Array when every value fits (the usual case: half the memory). */
  entPos: Uint16Array | Uint8Array;
  entSrc: Uint16Array | Uint8Array;
}

const EMPTY_BASE: Base = {
  n: 0, T: 0, termBlob: '', termOff: new Uint32Array(1), wide: new Uint8Array(0), cLo: new Uint32Array(CLASSES), cHi: new Uint32Array(CLASSES), cBase: new Uint32Array(CLASSES), postOff: new Uint32Array(1), post: new Uint32Array(0), heads: new Map(), entOff: new Uint32Array(1),
  entTerm: new Uint32Array(0), entCls: new Uint8Array(0), entPos: new Uint16Array(0), entSrc: new Uint16Array(0),
};

export class SearchIndex {
  base: Base = EMPTY_BASE;
  /** The contacts, row = ordinal (base rows in key order, then the delta). */
  table = new ContactTable();
  /** The live ordinals (bits.ts): a deleted one is a tombstone. Selections AND their sets with it. */
  private alive: Uint32Array = new Uint32Array(0);
  private byId = idHashOf(this.table);
  /** Token entries of delta ordinals (index = ord - base.n). */
  private deltaEntries: (Entry[] | undefined)[] = [];
  /** The most token entries one contact has (base, at the build; the delta's as they come): more typed tokens than this match nobody. */
  private baseMostEntries = 0;
  private deltaMostEntries = 0;
  private live = 0;
  private tombstones = 0;
  /** Bumped by every build (ordinals renumbered). */
  buildId = 0;
  /** When the last build was swapped in (epoch ms), for /metrics' index age. */
  builtAt = Date.now();
  /** Bumped on every change: caches keyed by it (sort orders) know when to rebuild. */
  version = 0;
  /** Rebuild once the delta or the tombstones pass this (set from the size at build). */
  private rebuildAt = 2000;
  /** Per-query scratch: stamp[ord] === stampGen marks an ordinal as seen. */
  private stamp = new Uint32Array(0);
  private stampGen = 0;

  get size(): number { return this.live; }
  /** An upper bound of the token entries of any one contact (a contact with more typed tokens than entries cannot match). */
  mostEntries(): number { return Math.max(this.baseMostEntries, this.deltaMostEntries); }
  get baseSize(): number { return this.base.n; }
  get ordinalCount(): number { return this.table.rows; }

  get(id: string): Contact | undefined {
    const ord = this.byId.get(id);
    return ord === undefined ? undefined : this.table.contact(ord);
  }

  ordinalOf(id: string): number | undefined { return this.byId.get(id); }
  doc(ord: number): Contact | undefined { return this.isLive(ord) ? this.table.contact(ord) : undefined; }
  /** A live ordinal's contact, each member read when first asked (ContactTable.view: reading by name only). */
  view(ord: number): Contact { return this.table.view(ord); }
  isLive(ord: number): boolean { return hasBit(this.alive, ord); }
  /** The live ordinals as a bitmap (bits.ts), at least ordinalCount bits long: read, never write. */
  liveBits(): Uint32Array { return this.alive; }

  /**
   * Token entries of an ordinal, at least up to entry `upTo` (recomputed for base ordinals: used for the
   * few hits shown). `contact`, when the caller already read it, saves reading the row again.
   */
  entriesOf(ord: number, upTo = Infinity, contact?: Contact): readonly Entry[] {
    if (ord >= this.base.n) return this.deltaEntries[ord - this.base.n] ?? [];
    return this.isLive(ord) ? contactEntries(contact ?? this.table.contact(ord), upTo) : [];
  }

  /**
   * Entries `which` (indices into entriesOf) of an ordinal, for highlighting its matches. A base
   * ordinal's phone entry is made from the contact's phones alone — where its phones start is read off
   * the forward index — so a phone match does not tokenise the name and email fields in front of it.
   */
  entriesAt(ord: number, which: readonly number[], contact: Contact): Entry[] {
    const out = new Array<Entry>(which.length);
    let rest: readonly Entry[] | undefined;
    const b = this.base;
    for (let i = 0; i < which.length; i++) {
      const k = which[i];
      const phone = ord < b.n ? this.phoneEntry(ord, k, contact) : undefined;
      out[i] = phone ?? (rest ??= this.entriesOf(ord, Math.max(...which), contact))[k];
    }
    return out;
  }

  /** Entry k of base ordinal `ord` when it is a phone entry (see entriesAt), else undefined. */
  private phoneEntry(ord: number, k: number, c: Contact): Entry | undefined {
    const b = this.base;
    let e = b.entOff[ord];
    const to = b.entOff[ord + 1];
    while (e < to && b.entCls[e] !== 3) e++; // class 3 is phones only; the first is the first phone's first variant
    if (e === to || k < b.entSrc[e]) return undefined;
    let at = b.entSrc[e];
    for (let i = 0; i < c.Phones.length; i++) {
      const p = c.Phones[i];
      const variants = phoneVariants(p, c.Country);
      if (k < at + variants.length) {
        while (e < to && b.entSrc[e] !== k) e++;
        const firstDigit = Math.max(0, p.search(/\d/));
        return { term: variants[k - at], kind: 'phone', field: 'Phones', item: i, cls: 3, pos: b.entPos[e], start: firstDigit, length: p.length - firstDigit };
      }
      at += variants.length;
    }
    return undefined;
  }

  /** Case- and accent-insensitive DisplayName, then ContactId: the last ranking tiers. */
  sortKey(ord: number): string {
    return sortKeyOf(this.table.value(ord, 'DisplayName') ?? '', this.table.value(ord, 'ContactId') ?? '');
  }

  /** Live ordinals: base in key order, then the delta. */
  ordinals(): number[] {
    return bitsToOrdinals(this.alive, this.live);
  }

  *all(): Iterable<Contact> {
    for (const ord of this.ordinals()) yield this.table.contact(ord);
  }

  /** Live delta ordinals. */
  *deltaOrdinals(): Iterable<number> {
    for (let i = this.base.n; i < this.table.rows; i++) if (this.isLive(i)) yield i;
  }

  /** Replaces everything with `contacts` (at open, after a big write, or when the delta is full); the last of an id wins. */
  build(contacts: Iterable<Contact>): void {
    const loader = new IndexLoader();
    for (const c of contacts) loader.add(c);
    this.buildFrom(loader);
  }

  /** Builds from contacts already gathered in columns (the open path streams the store into a loader). */
  buildFrom(loader: IndexLoader): void {
    for (const _ of this.buildSteps(loader)); // eslint-disable-line no-empty
  }

  /**
   * The same build, letting the event loop through between its steps (each at most a few hundred ms
   * at 1M, but for the two big sorts): searches keep answering from the current index, which the
   * new one replaces at once when done. The caller keeps writes out meanwhile (ContactDatabase's queue).
   */
  async buildFromAsync(loader: IndexLoader): Promise<void> {
    for (const _ of this.buildSteps(loader)) await nextTurn();
  }

  /**
   * A change too big for the delta (an import): a new base from the live contacts without `deletes`,
   * plus `upserts` (a later copy of an id wins), built step by step and swapped in.
   */
  async rebuildWith(deletes: readonly string[], upserts: readonly Contact[], replaceAll = false): Promise<void> {
    const loader = new IndexLoader();
    const due = every();
    const gone = new Set(deletes);
    for (const ord of replaceAll ? [] : this.ordinals()) {
      const c = this.table.contact(ord);
      if (!gone.has(c.ContactId)) loader.add(c);
      if (due()) await nextTurn();
    }
    for (const c of upserts) {
      loader.add(c);
      if (due()) await nextTurn();
    }
    await this.buildFromAsync(loader);
  }

  /**
   * An estimate of the index's memory for /metrics: the byte lengths of its typed arrays (postings,
   * entries, term offsets, bucket heads, live bits, scratch, the id hash), the term text at one byte a
   * character, and the contact table's columns and dictionaries. Left out: the delta's entry objects
   * and JS object overheads, so it reads low by a few percent (bench:memory measures the whole heap).
   */
  approximateBytes(): number {
    const b = this.base;
    let n = b.termBlob.length + this.alive.byteLength + this.stamp.byteLength + this.byId.byteLength + this.table.approximateBytes();
    for (const a of [b.termOff, b.wide, b.cLo, b.cHi, b.cBase, b.postOff, b.post, b.entOff, b.entTerm, b.entCls, b.entPos, b.entSrc]) n += a.byteLength;
    for (const h of b.heads.values()) n += h.byteLength;
    return n;
  }

  /** true when a change of `count` contacts would fill the delta: rebuild instead (rebuildWith). */
  isBigChange(count: number): boolean {
    return this.deltaSize + count > this.rebuildAt;
  }

  /** true once the delta holds more than a rebuild's worth of changes. */
  get deltaFull(): boolean {
    return this.deltaSize > this.rebuildAt;
  }

  /** Changes since the build: delta rows (deleted ones too) and tombstones in the base. */
  private get deltaSize(): number {
    return this.table.rows - this.base.n + this.tombstones;
  }

  /** The build as steps; `this` is untouched until the last one swaps the new index in. */
  private *buildSteps(loader: IndexLoader): Generator<void> {
    const src = loader.table;
    const rows = loader.liveRows();
    // Ordinals in final tie-break order. Keys are unique (they end with the ContactId), so the plain
    // string sort (UTF-16 order, no comparator call per pair) is enough; two trailing characters carry the row.
    const keys = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      keys[i] = sortKeyOf(src.value(r, 'DisplayName') ?? '', src.value(r, 'ContactId') ?? '') + '\u0000' + String.fromCharCode(r >>> 16, r & 0xffff);
      if (i % STEP === STEP - 1) yield;
    }
    keys.sort();
    yield;
    const n = rows.length;
    const order = new Uint32Array(n);
    for (let o = 0; o < n; o++) { const k = keys[o]; order[o] = (k.charCodeAt(k.length - 2) << 16) | k.charCodeAt(k.length - 1); }
    keys.length = 0;
    // The columns and the forward index, already made per loaded row, are put in ordinal order.
    const table = src.permuted(order);
    const alive = bitsFor(n).fill(0xffffffff);
    if (n & 31) alive[alive.length - 1] = (1 << (n & 31)) - 1;
    const byId = idHashOf(table);
    for (let o = 0; o < n; o++) {
      byId.set(table.value(o, 'ContactId')!, o);
      if (o % STEP === STEP - 1) yield;
    }
    const lf = loader.fwd;
    const entOff = new Uint32Array(n + 1);
    for (let o = 0; o < n; o++) entOff[o + 1] = entOff[o] + lf.off[order[o] + 1] - lf.off[order[o]];
    const E = entOff[n];
    const et = new Uint32Array(E), entCls = new Uint8Array(E), entPos = new Uint16Array(E), entSrc = new Uint16Array(E);
    for (let o = 0; o < n; o++) {
      const from = lf.off[order[o]], to = lf.off[order[o] + 1], at = entOff[o];
      et.set(lf.term.subarray(from, to), at);
      entCls.set(lf.cls.subarray(from, to), at);
      entPos.set(lf.pos.subarray(from, to), at);
      entSrc.set(lf.src.subarray(from, to), at);
    }
    yield;
    // Sort the dictionary and renumber.
    const { T, termBlob, termOff, wide, sorted } = lf.sortedTerms();
    yield;
    const remap = new Uint32Array(T);
    for (let i = 0; i < T; i++) remap[sorted[i]] = i;
    const entT = et;
    for (let i = 0; i < E; i++) entT[i] = remap[et[i]];
    // Postings, class-major, deduplicated per (term, class, ordinal); ordinals ascend because o does.
    // A class's offsets cover only the term ids it holds (phones never hold words): a fifth of 5×T.
    const cLo = new Uint32Array(CLASSES).fill(T), cHi = new Uint32Array(CLASSES), cBase = new Uint32Array(CLASSES);
    for (let i = 0; i < E; i++) {
      const c = entCls[i], t = entT[i];
      if (t < cLo[c]) cLo[c] = t;
      if (t + 1 > cHi[c]) cHi[c] = t + 1;
    }
    let slots = 0;
    for (let c = 0; c < CLASSES; c++) {
      if (cLo[c] >= cHi[c]) cLo[c] = cHi[c] = 0;
      cBase[c] = slots;
      slots += cHi[c] - cLo[c];
    }
    const postOff = new Uint32Array(slots + 1);
    const last = new Int32Array(slots).fill(-1);
    for (let o = 0; o < n; o++) {
      for (let i = entOff[o]; i < entOff[o + 1]; i++) {
        const c = entCls[i], s = cBase[c] + entT[i] - cLo[c];
        if (last[s] !== o) { last[s] = o; postOff[s + 1]++; }
      }
      if (o % (4 * STEP) === 4 * STEP - 1) yield;
    }
    for (let s = 0; s < slots; s++) postOff[s + 1] += postOff[s];
    const post = new Uint32Array(postOff[slots]);
    const fill = postOff.slice(0, slots);
    last.fill(-1);
    for (let o = 0; o < n; o++) {
      for (let i = entOff[o]; i < entOff[o + 1]; i++) {
        const c = entCls[i], s = cBase[c] + entT[i] - cLo[c];
        if (last[s] !== o) { last[s] = o; post[fill[s]++] = o; }
      }
      if (o % (4 * STEP) === 4 * STEP - 1) yield;
    }
    // The heads of the prefixes typed first: 1–2 letters of a word, 1–4 digits of a phone.
    const dict = { T, termAt: (i: number) => blobTerm(termBlob, termOff, wide, i), post, postOff, cLo, cHi, cBase };
    const heads = prefixHeads(dict, '', [1, 2]);
    prefixHeads(dict, PHONE_NS, [1, 2, 3, 4], heads);
    yield;
    table.trim(); // the build grew its arrays by halves; a write regrows only what it needs
    // The swap: one synchronous step, so a search sees the old index or the new one, never a mix.
    this.table = table;
    this.alive = alive;
    this.byId = byId;
    this.base = { n, T, termBlob, termOff, wide, cLo, cHi, cBase, postOff, post, heads, entOff, entTerm: entT, entCls, entPos: narrow(entPos), entSrc: narrow(entSrc) };
    this.deltaEntries = [];
    this.baseMostEntries = 0;
    for (let o = 0; o < n; o++) this.baseMostEntries = Math.max(this.baseMostEntries, entOff[o + 1] - entOff[o]);
    this.deltaMostEntries = 0;
    this.live = n;
    this.tombstones = 0;
    this.rebuildAt = Math.max(2000, Math.min(50_000, Math.floor(n / 50)));
    this.stamp = new Uint32Array(n);
    this.stampGen = 0;
    this.version++;
    this.buildId++;
    this.builtAt = Date.now();
    // Rank now what date filters, ranges and sorts would rank on first use (a million timestamps or
    // ids: about a second each), so no request pays for it.
    for (const col of table.columns) {
      if (col.field.type === 'Date' || col.field.name === 'ContactId') { ranksOf(col.dict, 'raw'); yield; }
    }
  }

  /** One committed change: deletes, then upserts; rebuilds at most once, at the end (synchronously). */
  apply(deletes: Iterable<string>, upserts: Iterable<Contact>): void {
    this.applyToDelta(deletes, upserts);
    this.maybeRebuild();
  }

  /** The change into the delta only; the caller rebuilds when `deltaFull` (ContactDatabase: step by step). */
  applyToDelta(deletes: Iterable<string>, upserts: Iterable<Contact>): void {
    for (const id of deletes) this.removeOnly(id);
    for (const c of upserts) this.append(c);
  }

  put(c: Contact): void {
    this.append(c);
    this.maybeRebuild();
  }

  private append(c: Contact): void {
    this.removeOnly(c.ContactId);
    const ord = this.table.append(c);
    if (ord >>> 5 >= this.alive.length) this.alive = grown(this.alive, (ord >>> 5) + 1);
    setBit(this.alive, ord);
    const entries = contactEntries(c);
    this.deltaEntries.push(entries);
    this.deltaMostEntries = Math.max(this.deltaMostEntries, entries.length);
    this.byId.set(c.ContactId, ord);
    this.live++;
    this.version++;
  }

  remove(id: string): void {
    if (this.removeOnly(id)) this.maybeRebuild();
  }

  clear(): void {
    this.build([]);
  }

  private removeOnly(id: string): boolean {
    const ord = this.byId.delete(id);
    if (ord === undefined) return false;
    clearBit(this.alive, ord);
    if (ord >= this.base.n) this.deltaEntries[ord - this.base.n] = undefined;
    else this.tombstones++;
    this.live--;
    this.version++;
    return true;
  }

  private maybeRebuild() {
    if (this.deltaFull) this.build(this.all());
  }

  /** No-op kept for callers that warmed the lazy structures of the first engine. */
  warm(): void {}

  /**
   * A fresh "seen" marker for one query (no clearing of the stamp array needed): `gen`, and with
   * `span` the `span - 1` values after it too, each above every value the array holds.
   */
  newStamp(span = 1): { stamp: Uint32Array; gen: number } {
    if (this.stamp.length < this.base.n) this.stamp = new Uint32Array(this.base.n);
    if (this.stampGen + span >= 0xffffffff) { this.stamp.fill(0); this.stampGen = 0; }
    this.stampGen += span;
    return { stamp: this.stamp, gen: this.stampGen - span + 1 };
  }

  // ── dictionary ──

  get termCount(): number { return this.base.T; }

  termAt(i: number): string {
    const b = this.base;
    return blobTerm(b.termBlob, b.termOff, b.wide, i);
  }

  /** First term id ≥ s (from `lo` on). */
  lowerBound(s: string, lo = 0): number {
    let hi = this.base.T;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.termBelow(mid, s)) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /**
   * termAt(i) < s, read in place: a typed token's binary searches (a few dozen per token with its
   * typo variants) made a string per step. Wide terms are UTF-8 in the blob: compared decoded.
   */
  private termBelow(i: number, s: string): boolean {
    const b = this.base;
    if (b.wide[i] === 1) return this.termAt(i) < s;
    const blob = b.termBlob, end = b.termOff[i + 1];
    let p = b.termOff[i];
    for (let k = 0; k < s.length; k++, p++) {
      if (p === end) return true; // a proper prefix of s
      const x = blob.charCodeAt(p), y = s.charCodeAt(k);
      if (x !== y) return x < y;
    }
    return false; // s itself, or s is its prefix
  }

  /** Term ids [lo, hi) of the terms starting with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    const lo = this.lowerBound(prefix);
    return [lo, this.lowerBound(prefix + '\uffff', lo)];
  }

  termId(term: string): number {
    const i = this.lowerBound(term);
    return i < this.base.T && this.termAt(i) === term ? i : -1;
  }

  /** Postings of term ids [lo, hi) in class c: one contiguous slice (sorted within each term only). */
  postingSlice(c: number, lo: number, hi: number): [number, number] {
    return classSlice(this.base, c, lo, hi);
  }
}

/** Term i of a dictionary blob (Base.termBlob). */
function blobTerm(blob: string, off: Uint32Array, wide: Uint8Array, i: number): string {
  const t = blob.substring(off[i], off[i + 1]);
  return wide[i] === 1 ? Buffer.from(t, 'latin1').toString('utf8') : t;
}

/**
 * The dictionary's namespaces in sort order: a namespaced term starts with a control character, so
 * every one sorts before every word (a word starts with a letter, digit or mark — but an email's
 * local-part piece may start with anything: `odd` below).
 */
const NAMESPACES = [EMAIL_NS, PHONE_NS, SUFFIX_NS, PART_NS, ''] as const;
const EMAIL = 0, PHONE = 1, SUFFIX = 2, PART = 3, WORD = 4;

/**
 * Token entries of loaded rows, in plain typed arrays grown by hand: this is the build's hottest
 * loop (27M entries at 1M contacts), fed by eachEntry with no object per entry. Terms are interned
 * per namespace, un-prefixed (no namespaced string is made per entry: the prefix is added once per
 * term, in the blob).
 */
class LoadedEntries implements EntrySink {
  /** Per namespace: term (without its namespace) → loaded term id. */
  private readonly ids = NAMESPACES.map(() => new Map<string, number>());
  /** Phone and reversed-phone terms of 1–15 digits: interned as numbers instead (DigitTerms). */
  private readonly digits = NAMESPACES.map((_, s) => (s === PHONE || s === SUFFIX ? new DigitTerms() : undefined));
  private terms = 0;
  /** A word term below U+0005 (only an email piece can be one) would sort among the namespaced terms. */
  private odd = false;
  /** Row r's entries are [off[r], off[r + 1]). */
  off = new Uint32Array(1024);
  rows = 0;
  term = new Uint32Array(1 << 16);
  cls = new Uint8Array(1 << 16);
  pos = new Uint16Array(1 << 16);
  src = new Uint16Array(1 << 16);
  n = 0;
  /** Entries of the row being added (EntrySink), and the phone item whose first variant was seen. */
  count = 0;
  private phoneItem = -1;

  add(c: Contact): void {
    if (this.rows + 2 > this.off.length) this.off = grown(this.off, this.rows + 2);
    this.count = 0;
    this.phoneItem = -1;
    eachEntry(c, this);
    this.off[++this.rows] = this.n;
  }

  entry(kind: EntryKind, term: string, _field: string, item: number | undefined, cls: number, pos: number): void {
    const src = this.count++;
    if (kind !== 'phone') {
      this.put(kind === 'word' ? WORD : kind === 'email' ? EMAIL : PART, term, cls, pos, src);
      return;
    }
    const key = digitKey(term);
    if (key >= 0) this.putId(this.digitId(PHONE, key), cls, pos, src); else this.put(PHONE, term, cls, pos, src);
    if (item !== this.phoneItem) {
      this.phoneItem = item!;
      // A phone's first variant is its digits as entered: the reverse serves "last 4+ digits".
      const back = key >= 0 ? digitKey(term, true) : -1;
      if (back >= 0) this.putId(this.digitId(SUFFIX, back), cls, pos, src);
      else if (term.length > 0) this.put(SUFFIX, reverse(term), cls, pos, src);
    }
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
      if (ns === WORD && key.charCodeAt(0) < 5) this.odd = true;
    }
    this.putId(id, cls, pos, src);
  }

  private putId(id: number, cls: number, pos: number, src: number): void {
    if (this.n === this.term.length) {
      const size = this.n + 1;
      this.term = grown(this.term, size); this.cls = grown(this.cls, size); this.pos = grown(this.pos, size); this.src = grown(this.src, size);
    }
    const k = this.n++;
    this.term[k] = id; this.cls[k] = cls; this.pos[k] = pos > 65535 ? 65535 : pos; this.src[k] = src > 65535 ? 65535 : src;
  }

  /**
   * The dictionary in sorted order as one blob (Base.termBlob) and `sorted[i]`, the loaded id of
   * sorted term i. Each namespace is sorted on its own, un-prefixed (same order: they share the
   * prefix), and the namespaces follow each other in NAMESPACES order. Empties the interning maps.
   */
  sortedTerms(): { T: number; termBlob: string; termOff: Uint32Array; wide: Uint8Array; sorted: Uint32Array } {
    const T = this.terms;
    const sorted = new Uint32Array(T), termOff = new Uint32Array(T + 1), wide = new Uint8Array(T);
    const chunks: string[] = [];
    let i = 0;
    // A namespace of digit terms only is sorted as numbers (sortedDigits); the others as strings.
    const numeric = this.digits.map((d, s) => (d && !this.odd && this.ids[s].size === 0 ? sortedDigits(d, NAMESPACES[s]) : undefined));
    const lists = this.ids.map((map, s) => {
      const list = [...map.keys()];
      const digits = this.digits[s];
      if (digits && !numeric[s]) for (let j = 0; j < digits.size; j++) list.push(digitString(digits.keys[j]));
      return list.sort();
    });
    if (this.odd) return this.sortedWhole(lists);
    for (let s = 0; s < NAMESPACES.length; s++) {
      const list = lists[s], ns = NAMESPACES[s];
      const num = numeric[s];
      if (num) {
        sorted.set(num.ids, i);
        for (let j = 0; j < num.ids.length; j++, i++) termOff[i + 1] = termOff[i] + ns.length + num.lengths[j];
        if (num.ids.length) chunks.push(num.chunk);
        continue;
      }
      for (let j = 0; j < list.length; j++, i++) {
        sorted[i] = this.idOf(s, list[j]);
        if (!LATIN1.test(list[j])) { list[j] = Buffer.from(list[j], 'utf8').toString('latin1'); wide[i] = 1; }
        termOff[i + 1] = termOff[i] + ns.length + list[j].length;
      }
      if (list.length) chunks.push(ns + list.join(ns));
    }
    this.release();
    return { T, termBlob: chunks.join(''), termOff, wide, sorted };
  }

  /** The loaded id of term `t` (without its namespace) of namespace s. */
  private idOf(s: number, t: string): number {
    const key = this.digits[s] ? digitKey(t) : -1;
    return key >= 0 ? this.digits[s]!.get(key) : this.ids[s].get(t)!;
  }

  private release(): void {
    for (let s = 0; s < NAMESPACES.length; s++) { this.ids[s].clear(); this.digits[s] = undefined; }
  }

  /** sortedTerms when an odd word interleaves with the namespaced terms: all terms prefixed and sorted together. */
  private sortedWhole(lists: string[][]) {
    const all: string[] = [];
    const idOf = new Map<string, number>();
    lists.forEach((list, s) => { for (const t of list) { const key = NAMESPACES[s] + t; all.push(key); idOf.set(key, this.idOf(s, t)); } });
    all.sort();
    const T = all.length;
    const sorted = new Uint32Array(T), termOff = new Uint32Array(T + 1), wide = new Uint8Array(T);
    for (let i = 0; i < T; i++) {
      sorted[i] = idOf.get(all[i])!;
      if (!LATIN1.test(all[i])) { all[i] = Buffer.from(all[i], 'utf8').toString('latin1'); wide[i] = 1; }
      termOff[i + 1] = termOff[i] + all[i].length;
    }
    this.release();
    return { T, termBlob: all.join(''), termOff, wide, sorted };
  }
}

const LATIN1 = /^[\x00-\xff]*$/;

/** Contacts per build step between two turns of the event loop (tens of ms of work). */
const STEP = 20_000;

/** Outside the build: a closure made in the build would keep its whole scope (the term map) alive. */
function idHashOf(table: ContactTable): IdHash {
  return new IdHash((ord) => table.value(ord, 'ContactId') ?? '');
}

/** The same values in a Uint8Array when they all fit. */
function narrow(a: Uint16Array): Uint16Array | Uint8Array {
  for (let i = 0; i < a.length; i++) if (a[i] > 255) return a;
  return Uint8Array.from(a);
}

function sortKeyOf(displayName: string, contactId: string): string {
  return `${normalize(displayName)}\u0000${contactId}`;
}

/**
 * Gathers contacts into columns before a build, so opening a database never holds a million
 * Contact objects at once; a later copy of an id replaces the earlier one.
 */
export class IndexLoader {
  readonly table = new ContactTable();
  private readonly dead = new Growable(new Uint8Array(0));
  private readonly byId = idHashOf(this.table);
  /** The forward index by loaded row (term ids in load order; the build sorts the terms). */
  readonly fwd = new LoadedEntries();

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
