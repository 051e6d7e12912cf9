/**
 * The in-memory index (CONTRACT.md §4; design in docs/SEARCH.md). Two segments:
 *
 *   base   built once from every contact, immutable, typed arrays only:
 *            ordinals 0..n-1 in final tie-break order (DisplayName case/accent-insensitive, ContactId),
 *            so every posting list is already sorted by the last ranking tiers;
 *            terms                    sorted unique terms, front-coded bytes (index/terms.ts; namespaced: word, \x01 email, \x02 phone, \x03 reversed phone, \x04 word part)
 *            post[postingSlice(c, t, t+1)]  ordinals of term t in field class c (class-major: a prefix range of
 *                                      terms in one class is ONE contiguous slice of `post`)
 *            entTerm/entPos/entSrc[entOff[o] ..]   the forward index: every token of ordinal o (entTerm: term id and class)
 *            spans[spanOff.start(o) ..] where each token of ordinal o lies in its field (highlighting)
 *   delta  contacts written since the build (ordinals n, n+1, …), kept as token entry objects and
 *          matched by brute force; base ordinals replaced or deleted are tombstoned. When the delta
 *          grows past a threshold the whole index is rebuilt from the live contacts.
 *   segments  big changes since the build (an import), each indexed apart as a base of its own over
 *          a run of rows after n (index/segment.ts), until the next build takes them in.
 *   table  the contacts themselves, in columns (table/contact-table.ts), row = ordinal.
 *
 * So a committed change is visible to the next search at once, and the hot path stays typed arrays.
 * The base segment's shape, its loading and its build are in index/ (base.ts, loader.ts, build.ts).
 *
 * Over 400 lines (~450; the base's phone entries and byte count are in index/): the base, the delta
 * and the segments share one object's state (the table, the live bits, the id hash, the counts) that
 * a write changes in one step; the delta and the segments' bookkeeping are the part to move out next
 * (docs/DESIGN.md "Known design debts").
 */
import type { Contact } from '../fields/contact.ts';
import type { FieldName } from '../fields/schema.ts';
import type { ContactScan } from '../fields/contact-scan.ts';
import { contactEntries, type Entry } from './contact-tokens.ts';
import { timeSlice } from '../next-turn.ts';
import { ContactTable } from './table/contact-table.ts';
import { bitsToOrdinals, clearBit, hasBit, setBit } from './bits.ts';
import { grown } from './table/growable.ts';
import { classFrom, classSlice, classTo } from './heads.ts';
import { nextTurn } from '../next-turn.ts';
import { baseBytes, EMPTY_BASE, sortKeyOf, type Base } from './index/base.ts';
import { buildBase, type Built } from './index/build.ts';
import { idHashOf, IndexLoader } from './index/loader.ts';
import { builtFromImage, imageOf, type IndexImage } from './index/image.ts';
import { decodeSpans, type Span } from './index/spans.ts';
import { deltaRanges, rowsWithTerms } from './index/term-rows.ts';

export {
  CLASSES,
  CLS_SHIFT,
  EMAIL_NS,
  PART_NS,
  PHONE_NS,
  reverse,
  SUFFIX_NS,
  TERM_MASK,
} from './index/base.ts';
export { IndexLoader } from './index/loader.ts';

/** A segment in the index (index/segment.ts): its own index, over the table's rows [from, to). */
export interface Segment {
  /** The segment's own index: its ordinal l is the index's row from + l. */
  readonly index: SearchIndex;
  readonly from: number;
  readonly to: number;
}

/** A built segment ready to attach to the index it was staged for (index/segment.ts stageSegment). */
export interface StagedSegment {
  readonly index: SearchIndex;
  /** Its rows, in a table sharing the target's dictionaries. */
  readonly rows: ContactTable;
  /** The target's rows that held the change's contacts when staged (dropped at the attach if still live). */
  readonly drop: readonly number[];
  /** The change's ids the store no longer holds (deleted by it). */
  readonly gone: ReadonlySet<string>;
}

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
  /** Big changes indexed apart, rows ascending (index/segment.ts); emptied by every build. */
  segments: readonly Segment[] = [];
  /** Table rows the segments hold, and the most token entries of one of their contacts. */
  private segmentRows = 0;
  private segmentMostEntries = 0;
  private live = 0;
  private tombstones = 0;
  /** Delta rows dropped since (their contact written again or deleted): rows still, never matched. */
  private deltaDead = 0;
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

  get size(): number {
    return this.live;
  }
  /** An upper bound of the token entries of any one contact (a contact with more typed tokens than entries cannot match). */
  mostEntries(): number {
    return Math.max(this.baseMostEntries, this.deltaMostEntries, this.segmentMostEntries);
  }
  get baseSize(): number {
    return this.base.n;
  }
  get ordinalCount(): number {
    return this.table.rows;
  }

  get(id: string): Contact | undefined {
    const ord = this.ordinalOf(id);
    return ord === undefined ? undefined : this.table.contact(ord);
  }

  /**
   * The live row holding `id`. With segments, `byId` may name a row a segment replaced (dropped at
   * its attach without a hash update each: index/segment.ts), so a dead row there means: ask the
   * segments, newest first (their own id hashes, local rows).
   */
  ordinalOf(id: string): number | undefined {
    const ord = this.byId.get(id);
    if (this.segments.length === 0 || (ord !== undefined && hasBit(this.alive, ord))) return ord;
    for (let k = this.segments.length - 1; k >= 0; k--) {
      const s = this.segments[k];
      const l = s.index.byId.get(id);
      if (l !== undefined && s.index.isLive(l)) return s.from + l;
    }
    return undefined;
  }
  doc(ord: number): Contact | undefined {
    return this.isLive(ord) ? this.table.contact(ord) : undefined;
  }
  /** A live ordinal's contact, each member read when first asked (ContactTable.view: reading by name only). */
  view(ord: number): Contact {
    return this.table.view(ord);
  }
  isLive(ord: number): boolean {
    return hasBit(this.alive, ord);
  }
  /** The live ordinals as a bitmap (bits.ts), at least ordinalCount bits long: read, never write. */
  liveBits(): Uint32Array {
    return this.alive;
  }

  /**
   * Token entries of an ordinal, at least up to entry `upTo` (recomputed for base ordinals: used for the
   * few hits shown). `contact`, when the caller already read it, saves reading the row again.
   */
  entriesOf(ord: number, upTo = Infinity, contact?: Contact): readonly Entry[] {
    if (ord >= this.base.n) {
      const s = this.segmentOf(ord);
      if (s) return s.index.entriesOf(ord - s.from, upTo, contact);
      return this.deltaEntries[ord - this.base.n] ?? [];
    }
    return this.isLive(ord) ? contactEntries(contact ?? this.table.contact(ord), upTo) : [];
  }

  /**
   * Reads ahead, for an answer's rows, what the table's `first` of `names` (and `spansAt`, when
   * `spans`) will read (ContactTable.readAhead: scattered reads in loops of independent ones, their
   * cache misses overlapping). What they read is kept in `readAheadSum`, so the reads are not dropped.
   */
  readAhead(ords: ArrayLike<number>, names: readonly FieldName[], spans: boolean): void {
    const b = this.base;
    let sum = this.table.readAhead(ords, names);
    if (spans)
      for (let i = 0; i < ords.length; i++)
        if (ords[i] < b.n) sum += b.spans[b.spanOff.start(ords[i])] ?? 0;
    this.readAheadSum = sum;
  }
  private readAheadSum = 0;

  /**
   * Where tokens `which` (indices into entriesOf) of an ordinal lie, for highlighting its matches: a
   * base ordinal's from the spans the build kept (index/spans.ts), no field tokenised; a delta
   * ordinal's from its entries. `contact`, the ordinal's when the caller has it (read from the table
   * otherwise, should a token index lie past the ones coded).
   */
  spansAt(ord: number, which: readonly number[], contact?: Contact): Span[] {
    const s = this.segmentOf(ord);
    if (s) return s.index.spansAt(ord - s.from, which, contact);
    const b = this.base;
    const at = ord < b.n ? b.spanOff.start(ord) : 0;
    const read =
      ord < b.n ? decodeSpans(b.spans, at, at + b.spanOff.length(ord), which) : undefined;
    if (read && !read.includes(undefined)) return read as Span[]; // every token coded: no second list
    let rest: readonly Entry[] | undefined;
    return which.map(
      (k, i) => read?.[i] ?? (rest ??= this.entriesOf(ord, Math.max(...which), contact))[k],
    );
  }

  /** Case- and accent-insensitive DisplayName, then ContactId: the last ranking tiers. */
  sortKey(ord: number): string {
    return sortKeyOf(
      this.table.value(ord, 'DisplayName') ?? '',
      this.table.value(ord, 'ContactId') ?? '',
    );
  }

  /** Live ordinals: base in key order, then the delta. */
  ordinals(): number[] {
    return bitsToOrdinals(this.alive, this.live);
  }

  *all(): Iterable<Contact> {
    for (const ord of this.ordinals()) yield this.table.contact(ord);
  }

  /**
   * Every live contact's row, read by column: an import's likely-duplicate search tests a few fields
   * of each of a million, and reads in full only the rows that pass. All of them as views (read by
   * name) were 7.7 s of the main thread in a 100,000-row import into 1M, as Contacts 10.9 s. Of the
   * table and live rows as they were when it started.
   */
  scan(): ContactScan {
    const { alive, table, base, segments } = this;
    const state = { base, segments, rows: table.rows, alive };
    return {
      *rows() {
        for (let i = 0; i < alive.length; i++)
          for (let x = alive[i]; x !== 0;) {
            const low = x & -x;
            yield (i << 5) | (31 - Math.clz32(low));
            x ^= low;
          }
      },
      memo: (field, fn) => table.column(field).memo(fn),
      view: (row) => table.view(row),
      rowsWith: (emails, phoneEnds) => rowsWithTerms(state, emails, phoneEnds),
    };
  }

  /** Live delta ordinals (the segments' rows are not the delta's). */
  *deltaOrdinals(): Iterable<number> {
    const r = deltaRanges(this.base.n, this.segments, this.table.rows);
    for (let k = 0; k < r.length; k += 2)
      for (let i = r[k]; i < r[k + 1]; i++) if (this.isLive(i)) yield i;
  }

  /** The segment holding table row `ord`, if any. */
  segmentOf(ord: number): Segment | undefined {
    if (ord < this.base.n) return undefined;
    for (const s of this.segments) if (ord >= s.from && ord < s.to) return s;
    return undefined;
  }

  /**
   * Puts a segment in (index/segment.ts), in one synchronous step: the rows that held the change's
   * contacts when it was staged (`staged.drop`) are dropped, and so are the rows of its contacts
   * written since (`touched`: the ids of the writes journalled meanwhile); its staged rows are
   * appended and made live. No id hash is updated: `ordinalOf` finds its contacts through its own.
   * A search sees the index before the change or after it, never a mix.
   */
  attachSegment(staged: StagedSegment, touched: Iterable<string>): void {
    const seg = staged.index;
    for (const r of staged.drop) if (hasBit(this.alive, r)) this.dropRow(r);
    for (const id of touched) {
      if (seg.byId.get(id) === undefined && !staged.gone.has(id)) continue; // not the change's
      const r = this.ordinalOf(id);
      if (r !== undefined) this.dropRow(r);
    }
    const from = this.table.rows;
    this.table.appendRows(staged.rows);
    const to = this.table.rows;
    if ((to + 31) >>> 5 > this.alive.length) this.alive = grown(this.alive, (to + 31) >>> 5);
    for (let o = from; o < to; o++) if (seg.isLive(o - from)) setBit(this.alive, o);
    this.live += seg.size;
    this.deltaEntries.length += to - from;
    this.segments = [...this.segments, { index: seg, from, to }];
    this.segmentRows += to - from;
    this.segmentMostEntries = Math.max(this.segmentMostEntries, seg.mostEntries());
    this.version++;
  }

  /** Replaces everything with `contacts` (at open, after a big write, or when the delta is full); the last of an id wins. */
  build(contacts: Iterable<Contact>): void {
    const loader = new IndexLoader();
    for (const c of contacts) loader.add(c);
    this.buildFrom(loader);
  }

  /** Builds from contacts already gathered in columns (the open path streams the store into a loader). */
  buildFrom(loader: IndexLoader): void {
    for (const _ of this.buildSteps(loader));
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
   * An estimate of the index's memory for /metrics: the byte lengths of its typed arrays (postings,
   * entries, term offsets, bucket heads, live bits, scratch, the id hash), the term text at one byte a
   * character, and the contact table's columns and dictionaries. Left out: the delta's entry objects
   * and JS object overheads, so it reads low by a few percent (bench:memory measures the whole heap).
   */
  approximateBytes(): number {
    let n =
      baseBytes(this.base) +
      this.alive.byteLength +
      this.stamp.byteLength +
      this.byId.byteLength +
      this.table.approximateBytes();
    for (const s of this.segments) n += s.index.approximateBytes();
    return n;
  }

  /** The built index as an image (index/image.ts); undefined while a delta is held (writes since the build). */
  image(): IndexImage | undefined {
    if (this.deltaSize > 0 || this.segments.length > 0) return undefined;
    return imageOf(
      { table: this.table, alive: this.alive, byId: this.byId, base: this.base },
      true,
    );
  }

  /** Replaces everything with the index an image holds (a worker's build, a snapshot). */
  swapInImage(image: IndexImage): void {
    this.swapIn(builtFromImage(image));
  }

  /** Replaces everything with a build (index/image.ts builtFromImageSteps: a segment's image read in steps). */
  swapInBuilt(built: Built): void {
    this.swapIn(built);
  }

  /**
   * true when a change of `count` contacts is better rebuilt than put in the delta: it alone takes
   * half the delta's room (an import), or the delta's live contacts would pass twice its limit
   * (compactions behind, or put off: `takesDelta`).
   * A smaller change that fills the delta goes in, and the caller compacts behind it (`deltaFull`).
   */
  isBigChange(count: number): boolean {
    return this.bigByItself(count) || this.deltaLive + count > 2 * this.rebuildAt;
  }

  /** Whether a change of `count` takes half the delta's room by itself (an import). */
  bigByItself(count: number): boolean {
    return count > this.rebuildAt / 2;
  }

  /**
   * Whether a change of `count` is big only because the delta is full (its compaction behind, or put
   * off for want of memory): its segment then takes the delta's contacts along (`deltaIds`), so the
   * writes after it go to an emptied delta, not each into a segment of its own.
   */
  takesDelta(count: number): boolean {
    return !this.bigByItself(count) && this.isBigChange(count);
  }

  /** The ids of the delta's live contacts (not the segments'). */
  deltaIds(): string[] {
    const ids: string[] = [];
    for (const ord of this.deltaOrdinals()) ids.push(this.table.value(ord, 'ContactId')!);
    return ids;
  }

  /** The delta's live contacts: each one matched by brute force per query. */
  private get deltaLive(): number {
    return this.table.rows - this.base.n - this.segmentRows - this.deltaDead;
  }

  /** true once the delta holds more than a rebuild's worth of changes. */
  get deltaFull(): boolean {
    return this.deltaSize > this.rebuildAt;
  }

  /** Changes since the build: delta rows (deleted ones too) and tombstones in the base and segments. */
  private get deltaSize(): number {
    return this.table.rows - this.base.n - this.segmentRows + this.tombstones;
  }

  /** The build as steps (index/build.ts); `this` is untouched until the step that swaps the new index in. */
  private buildSteps(loader: IndexLoader): Generator<void> {
    return buildBase(loader, (built) => this.swapIn(built));
  }

  private swapIn({ table, alive, byId, base }: Built): void {
    const n = base.n;
    this.table = table;
    this.alive = alive;
    this.byId = byId;
    this.base = base;
    this.deltaEntries = [];
    this.baseMostEntries = 0;
    for (let o = 0; o < n; o++)
      this.baseMostEntries = Math.max(this.baseMostEntries, base.entOff[o + 1] - base.entOff[o]);
    this.deltaMostEntries = 0;
    this.segments = [];
    this.segmentRows = 0;
    this.segmentMostEntries = 0;
    this.live = n;
    this.tombstones = 0;
    this.deltaDead = 0;
    this.rebuildAt = Math.max(2000, Math.min(50_000, Math.floor(n / 50)));
    this.stamp = new Uint32Array(n);
    this.stampGen = 0;
    this.version++;
    this.buildId++;
    this.builtAt = Date.now();
  }
  /** One committed change: deletes, then upserts; rebuilds at most once, at the end (synchronously). */
  apply(deletes: Iterable<string>, upserts: Iterable<Contact>): void {
    this.applyToDelta(deletes, upserts);
    this.maybeRebuild();
  }

  /**
   * Room for `upserts` made ahead, in steps the caller yields between (ContactTable.roomSteps): the
   * columns, the live bitmap and the id hash, so that `applyToDelta` copies no whole array. Changes
   * nothing a search reads.
   */
  *roomSteps(upserts: readonly Contact[], entries?: Entry[][]): Generator<void> {
    yield* this.table.roomSteps(upserts);
    const words = (this.table.rows + upserts.length + 31) >>> 5;
    if (words > this.alive.length) this.alive = grown(this.alive, words);
    yield* this.byId.roomSteps(upserts.length);
    if (!entries) return;
    // Each contact's token entries (~100 µs a contact at 1M), made here between answers: a
    // contact's own, whatever the index holds, so `applyToDelta` takes them as they are.
    const due = timeSlice();
    for (const c of upserts) {
      entries.push(contactEntries(c));
      if (due()) yield;
    }
  }

  /**
   * The change into the delta only; the caller rebuilds when `deltaFull` (ContactDatabase: step by
   * step). `entries`: the upserts' token entries, in order, when made ahead (roomSteps).
   */
  applyToDelta(
    deletes: Iterable<string>,
    upserts: Iterable<Contact>,
    entries?: readonly Entry[][],
  ): void {
    for (const id of deletes) this.removeOnly(id);
    let i = 0;
    for (const c of upserts) this.append(c, entries?.[i++]);
  }

  put(c: Contact): void {
    this.append(c);
    this.maybeRebuild();
  }

  private append(c: Contact, made?: Entry[]): void {
    this.removeOnly(c.ContactId);
    const ord = this.table.append(c);
    if (ord >>> 5 >= this.alive.length) this.alive = grown(this.alive, (ord >>> 5) + 1);
    setBit(this.alive, ord);
    const entries = made ?? contactEntries(c);
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
    let ord: number | undefined;
    if (this.segments.length === 0) ord = this.byId.delete(id);
    else if ((ord = this.ordinalOf(id)) !== undefined) this.byId.delete(id);
    if (ord === undefined) return false;
    this.dropRow(ord);
    return true;
  }

  /** Row `ord` no longer live (its id hash entries left to the caller). */
  private dropRow(ord: number): void {
    clearBit(this.alive, ord);
    const s = this.segmentOf(ord);
    if (s) {
      clearBit(s.index.alive, ord - s.from);
      s.index.live--;
      this.tombstones++;
    } else if (ord >= this.base.n) {
      this.deltaEntries[ord - this.base.n] = undefined;
      this.deltaDead++;
    } else this.tombstones++;
    this.live--;
    this.version++;
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
    if (this.stampGen + span >= 0xffffffff) {
      this.stamp.fill(0);
      this.stampGen = 0;
    }
    this.stampGen += span;
    return { stamp: this.stamp, gen: this.stampGen - span + 1 };
  }

  // ── dictionary ──

  get termCount(): number {
    return this.base.T;
  }

  termAt(i: number): string {
    return this.base.terms.termAt(i);
  }

  /** First term id ≥ s (from `lo` on). */
  lowerBound(s: string, lo = 0): number {
    return this.base.terms.lowerBound(s, lo);
  }

  /** Term ids [lo, hi) of the terms starting with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    return this.base.terms.prefixRange(prefix);
  }

  /** Whether term id i is `term` itself. */
  isTerm(i: number, term: string): boolean {
    return i < this.base.T && this.base.terms.isTerm(i, term);
  }

  termId(term: string): number {
    const i = this.lowerBound(term);
    return this.isTerm(i, term) ? i : -1;
  }

  /** Postings of term ids [lo, hi) in class c: one contiguous slice (sorted within each term only). */
  postingSlice(c: number, lo: number, hi: number): [number, number] {
    return classSlice(this.base, c, lo, hi);
  }

  /** postingSlice's start (heads.ts classFrom): 0 when the slice is empty. */
  postingFrom(c: number, lo: number, hi: number): number {
    return classFrom(this.base, c, lo, hi);
  }

  /** postingSlice's end (heads.ts classTo): 0 when the slice is empty. */
  postingTo(c: number, lo: number, hi: number): number {
    return classTo(this.base, c, lo, hi);
  }
}
