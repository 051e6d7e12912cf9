/**
 * The distinct values of one column. Id 0 is "absent". Few distinct values (names, cities, countries,
 * tags) stay JS strings with a lookup, so equal values share an id; once a column proves nearly
 * unique (ids, emails, phones, timestamps) its values move to one UTF-8 buffer outside the JS heap
 * and every new value gets a new id — a million small strings on the heap is what made the
 * collector slow and the process big (docs/SEARCH.md "Contacts in columns"). A nearly unique column
 * of timestamps as `toISOString` writes them (CreatedAt, UpdatedAt) moves to a Float64Array of their
 * milliseconds instead: 8 bytes a value, not 24 and an offset (38 MB less at 1M); the first value
 * written otherwise moves it to the buffer like any other.
 *
 * A buffered column of email addresses keeps each address's domain once: what follows the last '@'
 * is a tail, numbered in `tails`, and the buffer holds the tail's number and the rest. A million
 * generated addresses have a few hundred domains (a company's people share theirs): 40 MB of text
 * down to ~19 (docs/perf-log/2026-11-26-memory2.md). The column takes this form when most of the
 * values it held before the move to the buffer have an '@'; past MAX_TAILS domains a new one is
 * kept whole in the value.
 */
import { giveRoom, Growable, roomFor } from './growable.ts';
import { Lengths, type LengthParts } from './lengths.ts';

/** Values a dictionary keeps as deduplicated JS strings before it moves to a buffer (tests lower it). */
export const TABLE_TUNING = { mappedMax: 65_536 };

/** Bytes copied a step when a buffer grows in steps (reserveSteps): a few milliseconds. */
const GROW_STEP = 4 << 20;

/** The most tails a dictionary numbers (a tail number takes one or two bytes: a varint below 2^14). */
const MAX_TAILS = 0x3fff;

export class Dictionary {
  private strings: string[] | undefined = [''];
  private lookup: Map<string, number> | undefined = new Map();
  private bytes = Buffer.allocUnsafe(0);
  private used = 0;
  /** Buffer mode: value id i's bytes are `lengths.length(i)` from `lengths.start(i)` (id 0: none). */
  private lengths = new Lengths();
  /**
   * Time mode: value id i is the instant times[i − 1] (ms), written back by toISOString. No slot for
   * id 0, so an index image's array (`parts`) is used as it is, mapped: a copy put 8 bytes a contact
   * per timestamp column in the process's own memory (152 MB at 10M), which type-ahead never reads.
   */
  private times: Growable<Float64Array> | undefined;
  /** Buffer mode with tails: a value is varint(tail number, 0 for none) then its bytes before the tail. */
  private tails: string[] | undefined;
  private tailIds: Map<string, number> | undefined;
  private count = 1;

  constructor(private readonly mappedMax = TABLE_TUNING.mappedMax) {}

  /**
   * A dictionary that buffers its values from the first (ids, emails, phones; timestamps as
   * numbers until a value of another form), as a deduplicated one does once past mappedMax values.
   */
  static unique(): Dictionary {
    const d = new Dictionary();
    d.toBuffer();
    return d;
  }

  get size(): number {
    return this.count;
  }
  /** true while equal values share one id. */
  get deduplicated(): boolean {
    return this.lookup !== undefined;
  }

  intern(s: string): number {
    if (this.lookup) {
      const id = this.lookup.get(s);
      if (id !== undefined) return id;
      if (this.lookup.size < this.mappedMax) {
        this.lookup.set(s, this.count);
        this.strings!.push(s);
        return this.count++;
      }
      this.toBuffer();
    }
    if (this.times) {
      const ms = isoMillis(s);
      if (ms !== undefined) {
        this.times.push(ms);
        return this.count++;
      }
      this.timesToBuffer();
    }
    let head = s,
      tail = 0;
    if (this.tails) {
      const at = s.lastIndexOf('@');
      if (at >= 0 && (tail = this.tailOf(s.slice(at))) > 0) head = s.slice(0, at);
    }
    const room = Buffer.byteLength(head, 'utf8') + 2;
    if (this.used + room > this.bytes.length) this.grow(this.used + room);
    const start = this.used;
    if (this.tails) {
      if (tail >= 0x80) this.bytes[this.used++] = (tail & 0x7f) | 0x80;
      this.bytes[this.used++] = tail >= 0x80 ? tail >>> 7 : tail;
    }
    this.used += this.bytes.write(head, this.used, 'utf8');
    this.lengths.push(this.used - start);
    return this.count++;
  }

  /**
   * Reads value `id`'s place and its first byte without decoding it, answering a number to keep the
   * reads from being dropped: called for several values in a row before they are decoded, the misses
   * these reads take overlap instead of waiting one after another (ContactTable.readAhead).
   */
  touch(id: number): number {
    if (this.strings || this.times || id === 0) return 0;
    return this.bytes[this.lengths.start(id)] ?? 0;
  }

  value(id: number): string {
    if (this.strings) return this.strings[id];
    if (this.times) return id === 0 ? '' : new Date(this.times.a[id - 1]).toISOString();
    if (id === 0) return '';
    const b = this.bytes;
    let from = this.lengths.start(id);
    const to = this.lengths.start(id + 1);
    if (!this.tails) return b.toString('utf8', from, to);
    let tail = b[from++];
    if (tail & 0x80) tail = (tail & 0x7f) | (b[from++] << 7);
    const head = b.toString('utf8', from, to);
    return tail === 0 ? head : head + this.tails[tail - 1];
  }

  /**
   * Appends every value of `from` (ids 1 …) as new values, in one copy, and returns the id the first
   * got (the others follow it); undefined when the two are not both buffered the same way (time
   * mode, or bytes without tails) — intern each then. A segment's unique columns (ids, phones,
   * names, timestamps) go into the index's so at its staging (index/segment.ts): 100,000 values a
   * column decoded and encoded again one by one were most of the staging's time.
   */
  appendAll(from: Dictionary): number | undefined {
    const first = this.count,
      n = from.count - 1;
    if (this.times && from.times) {
      this.times.append(from.times.a.subarray(0, n));
      this.count += n;
      return first;
    }
    if (this.lookup || this.times || this.tails || from.lookup || from.times || from.tails)
      return undefined;
    const start = from.lengths.start(1),
      end = from.lengths.start(from.count),
      room = end - start;
    if (this.used + room > this.bytes.length) this.grow(this.used + room);
    from.bytes.copy(this.bytes, this.used, start, end);
    this.used += room;
    this.lengths.appendFrom(from.lengths, 1, n);
    this.count += n;
    return first;
  }

  /** `bytes` able to hold `size`: into the room an image left after them (growable.ts giveRoom), else copied into a bigger buffer. */
  private grow(size: number): void {
    const wide = this.widened(size);
    if (wide) {
      this.bytes = wide;
      return;
    }
    const next = Buffer.allocUnsafe(Math.max(size, Math.ceil(this.bytes.length * 1.5), 1 << 16));
    this.bytes.copy(next, 0, 0, this.used);
    this.bytes = next;
  }

  /** `bytes` seen with the room after them when it holds `size` bytes (the same memory: nothing copied). */
  private widened(size: number): Buffer<ArrayBuffer> | undefined {
    const wide = roomFor(this.bytes, size);
    return wide && Buffer.from(wide.buffer as ArrayBuffer, wide.byteOffset, wide.length);
  }

  /** The number of `tail` (from 1), a new one if there is room, else 0. */
  private tailOf(tail: string): number {
    let t = this.tailIds!.get(tail);
    if (t === undefined) {
      if (this.tails!.length >= MAX_TAILS) return 0;
      this.tails!.push(tail);
      this.tailIds!.set(tail, (t = this.tails!.length));
    }
    return t;
  }

  /** About the bytes this dictionary's values take in another's buffer (each at most 2 more there as a tail's number). */
  valueBytes(): number {
    if (this.times) return this.times.n * 26; // as ISO strings
    if (this.strings) {
      let n = 0;
      for (const v of this.strings) n += Buffer.byteLength(v, 'utf8') + 2;
      return n;
    }
    return this.used + 2 * this.count;
  }

  /**
   * Room for `values`, in steps of a few milliseconds: a small change's values interned into a
   * dictionary fresh from a snapshot (no spare room) copied its whole buffer, its lengths or its
   * timestamps in one go (ContactTable.roomSteps says why that matters). Returns how many ids they
   * can add, at most: the distinct ones not held while deduplicating, else each.
   */
  *roomSteps(values: readonly string[]): Generator<void, number> {
    if (this.lookup) {
      const fresh = new Set<string>();
      for (const v of values) if (!this.lookup.has(v)) fresh.add(v); // values in a Map: no buffer to grow
      return fresh.size;
    }
    if (this.times) this.times.grow(this.times.n + values.length);
    else {
      let bytes = 2 * values.length;
      for (const v of values) bytes += Buffer.byteLength(v);
      yield* this.reserveSteps(bytes);
      this.lengths.reserve(values.length);
    }
    yield;
    return values.length;
  }

  /**
   * Room for `extra` more bytes in buffer mode, made in steps of GROW_STEP bytes copied, so that
   * what yields between them (a segment's staging) lets searches through: at 1M a column's buffer
   * grown at once was one 30 MB copy, 10–35 ms. Readers and interns use the old buffer until the
   * last step, which copies what was interned meanwhile and swaps. Nothing to do in another mode, or
   * when there is room.
   */
  *reserveSteps(extra: number): Generator<void> {
    if (this.lookup || this.times || this.used + extra <= this.bytes.length) return;
    const wide = this.widened(this.used + extra);
    if (wide) {
      this.bytes = wide;
      return;
    }
    const next = Buffer.allocUnsafe(
      Math.max(this.used + extra, Math.ceil(this.bytes.length * 1.5), 1 << 16),
    );
    const copied = this.used;
    for (let at = 0; at < copied; at += GROW_STEP) {
      this.bytes.copy(next, at, at, Math.min(copied, at + GROW_STEP));
      yield;
    }
    if (this.lookup || this.times || this.used > next.length) return; // changed form, or grew past it meanwhile
    this.bytes.copy(next, copied, copied, this.used); // interned between the steps
    this.bytes = next;
  }

  /**
   * Buffer mode: the buffer and its offsets. String mode (at most mappedMax values): 40 bytes a
   * value, a JS string's header plus a short text and its lookup entry, not counted one by one.
   */
  approximateBytes(): number {
    if (this.times) return this.times.a.byteLength;
    return this.strings ? this.strings.length * 40 : this.bytes.length + this.lengths.byteLength;
  }

  /** Drops spare capacity (after a build). */
  trim(): void {
    if (this.bytes.length > this.used) this.bytes = Buffer.from(this.bytes.subarray(0, this.used));
    this.lengths.trim();
    this.times?.trim();
  }

  /**
   * The values as bytes (UTF-8, one after another), an index image's form (index/image.ts), and
   * where each is: string mode (`mapped`: equal values share an id) `ends` (`ends[i - 1]` for id
   * i); buffer mode `lengths` (id 0's too), the buffer as it is, and with `tails` each value's
   * bytes are its tail's number and the rest. Time mode: `times` instead (value id i is
   * times[i − 1], as held), bytes and ends empty.
   */
  parts(): DictionaryParts {
    if (this.times) {
      this.trim();
      return {
        mapped: false,
        bytes: new Uint8Array(0),
        ends: new Uint32Array(0),
        times: this.times.a.subarray(0, this.count - 1),
      };
    }
    if (!this.strings) {
      this.trim();
      return {
        mapped: false,
        bytes: this.bytes,
        ends: new Uint32Array(0),
        lengths: this.lengths.parts(),
        tails: this.tails,
      };
    }
    const ends = new Uint32Array(this.strings.length - 1);
    const text = this.strings.slice(1);
    let at = 0;
    for (let i = 0; i < text.length; i++) ends[i] = at += Buffer.byteLength(text[i], 'utf8');
    return { mapped: true, bytes: Buffer.from(text.join(''), 'utf8'), ends };
  }

  /** A dictionary from `parts()`: a buffer-mode one reads its values from `bytes` in place (no copy). */
  static fromParts(p: DictionaryParts): Dictionary {
    const d = new Dictionary();
    if (p.times) {
      d.strings = undefined;
      d.lookup = undefined;
      d.times = new Growable(p.times); // in place: a value appended later grows it into a copy
      d.times.n = p.times.length;
      d.count = p.times.length + 1;
      return d;
    }
    const bytes = Buffer.from(
      p.bytes.buffer as ArrayBuffer,
      p.bytes.byteOffset,
      p.bytes.byteLength,
    );
    if (p.mapped) {
      let from = 0;
      for (let i = 0; i < p.ends.length; i++) {
        const s = bytes.toString('utf8', from, p.ends[i]);
        d.lookup!.set(s, d.count++);
        d.strings!.push(s);
        from = p.ends[i];
      }
      return d;
    }
    d.strings = undefined;
    d.lookup = undefined;
    if (p.tails) {
      d.tails = [...p.tails];
      d.tailIds = new Map(d.tails.map((t, i) => [t, i + 1]));
    }
    d.bytes = bytes;
    d.used = bytes.length;
    const wide = roomFor(p.bytes, p.bytes.length); // an image's room after them, for `grow`
    if (wide) giveRoom(bytes, wide.length - bytes.length);
    if (!p.lengths) throw new Error('Dictionary.fromParts: buffered values without their lengths');
    d.lengths = Lengths.fromParts(p.lengths);
    d.count = d.lengths.size;
    return d;
  }

  private toBuffer(): void {
    const strings = this.strings!;
    this.strings = undefined;
    this.lookup = undefined;
    const ms = strings.slice(1).map(isoMillis);
    if (ms.every((x) => x !== undefined)) {
      this.times = new Growable(Float64Array.from(ms as number[]));
      this.times.n = ms.length;
      return; // the same ids, as instants
    }
    this.lengths.push(0); // id 0, absent: no bytes
    this.count = 1; // the same ids again, in the same order
    let ats = 0;
    for (let i = 1; i < strings.length; i++) if (strings[i].includes('@')) ats++;
    if (ats * 2 > strings.length - 1) {
      this.tails = [];
      this.tailIds = new Map();
    }
    for (let i = 1; i < strings.length; i++) this.intern(strings[i]);
  }

  /** Time mode to buffer mode, the same ids (a value that is not a canonical timestamp arrived). */
  private timesToBuffer(): void {
    const times = this.times!;
    this.times = undefined;
    this.lengths.push(0);
    this.count = 1;
    for (let i = 0; i < times.n; i++) this.intern(new Date(times.a[i]).toISOString());
  }
}

export interface DictionaryParts {
  mapped: boolean;
  /** Buffer mode with tails: each value's bytes are its tail number and the rest (Dictionary.intern). */
  bytes: Uint8Array;
  /** Mapped: where each value ends (`ends[i - 1]` for id i). */
  ends: Uint32Array;
  /** Buffered: each id's length (id 0's too). */
  lengths?: LengthParts;
  times?: Float64Array;
  tails?: string[];
}

/**
 * The milliseconds of `s` when it is exactly what toISOString writes for them, else undefined:
 * `YYYY-MM-DDTHH:MM:SS.mmmZ` read digit by digit, every field in its range (Date.parse and a
 * toISOString to compare were a microsecond a value, two values a contact).
 */
export function isoMillis(s: string): number | undefined {
  if (s.length !== 24) return undefined;
  for (let i = 0; i < 24; i++) {
    const c = s.charCodeAt(i);
    if (
      ISO_SHAPE.charCodeAt(i) === 48 /* 0: a digit */
        ? c < 48 || c > 57
        : c !== ISO_SHAPE.charCodeAt(i)
    )
      return undefined;
  }
  const at = (i: number, n: number) => {
    let v = 0;
    for (let k = i; k < i + n; k++) v = v * 10 + s.charCodeAt(k) - 48;
    return v;
  };
  const y = at(0, 4),
    mo = at(5, 2),
    d = at(8, 2),
    h = at(11, 2),
    mi = at(14, 2),
    sec = at(17, 2);
  // Date.UTC reads years 0-99 as 1900-1999: those go the slow way.
  if (y < 100) {
    const ms = Date.parse(s);
    return Number.isNaN(ms) || new Date(ms).toISOString() !== s ? undefined : ms;
  }
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59) return undefined;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > (mo === 2 ? (leap ? 29 : 28) : DAYS[mo - 1])) return undefined;
  return Date.UTC(y, mo - 1, d, h, mi, sec, at(20, 3));
}

const ISO_SHAPE = '0000-00-00T00:00:00.000Z';
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
