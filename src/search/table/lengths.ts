/**
 * A run of lengths (of values in a buffer, of posting lists) and where each starts, in two and a
 * quarter bytes an entry instead of a u32 offset: the start of every 16th entry (a mark) and each
 * entry's start from its block's mark in a u16. A block spanning more than 65,535 (a popular
 * term's postings) is wide: its 16 starts are kept whole, apart (`wide`; the mark's top bit says
 * so). `start(i)` is two reads either way. At 1M contacts this holds 6.2M posting offsets in 13 MB,
 * not 24, and the ends of the buffered values (ids, names, emails, phones) in 10 MB, not 18
 * (docs/perf-log/2026-11-26-memory2.md).
 */
import { Growable } from './growable.ts';

const SHIFT = 4;
const BLOCK = 1 << SHIFT;
const WIDE = 0x80000000;

/** The arrays of `Lengths` (an index image's form) and its wide blocks as [block, starts] pairs. */
export interface LengthParts {
  rel: Uint16Array;
  marks: Uint32Array;
  wide: [number, number[]][];
  total: number;
}

export class Lengths {
  private readonly rel = new Growable(new Uint16Array(0));
  private readonly marks = new Growable(new Uint32Array(0));
  private wide = new Map<number, Uint32Array>();
  /** The sum of the lengths: where the next entry starts. */
  total = 0;

  /** Number of entries. */
  get size(): number {
    return this.rel.n;
  }

  get byteLength(): number {
    return this.rel.a.byteLength + this.marks.a.byteLength + this.wide.size * 4 * BLOCK;
  }

  /** Room for `n` more entries, so that pushing them copies nothing (ContactTable.roomSteps). */
  reserve(n: number): void {
    this.rel.grow(this.rel.n + n);
    this.marks.grow(((this.rel.n + n + BLOCK - 1) >>> SHIFT) + 1);
  }

  push(len: number): void {
    const i = this.rel.n,
      k = i >>> SHIFT;
    if ((i & (BLOCK - 1)) === 0) this.marks.push(this.total);
    const from = this.total - (this.marks.a[k] & ~WIDE);
    // A block is wide when its mark says so: the map is asked only then (this is per entry).
    if (from > 0xffff && this.marks.a[k] < WIDE) {
      const starts = new Uint32Array(BLOCK);
      for (let j = k << SHIFT; j < i; j++) starts[j & (BLOCK - 1)] = this.start(j);
      this.wide.set(k, starts);
      this.marks.a[k] = (this.marks.a[k] | WIDE) >>> 0;
    }
    const wide = this.marks.a[k] >= WIDE;
    if (wide) this.wide.get(k)![i & (BLOCK - 1)] = this.total;
    this.rel.push(wide ? 0 : from);
    this.total += len;
    if (this.total >= WIDE) throw new Error('Lengths: a total past 2^31');
  }

  /**
   * Appends entries [first, first + n) of `from`, as `push(from.length(i))` for each would: in one
   * loop writing this side's arrays directly, not a `push` through the Growable every array shares an
   * entry (a segment's 100,000 values appended to the index's dictionary took 30 ms so, in one turn:
   * index/segment.ts).
   * From the first entry that would make a block wide it goes on by `push`.
   */
  appendFrom(from: Lengths, first: number, n: number): void {
    this.rel.grow(this.rel.n + n);
    this.marks.grow(((this.rel.n + n + BLOCK - 1) >>> SHIFT) + 1);
    const rel = this.rel.a,
      marks = this.marks.a;
    let at = this.rel.n,
      nMarks = this.marks.n,
      total = this.total,
      i = 0;
    let prev = from.start(first);
    for (; i < n; i++) {
      const next = from.start(first + i + 1);
      if ((at & (BLOCK - 1)) === 0) marks[nMarks++] = total;
      const m = marks[at >>> SHIFT];
      if (m >= WIDE || total - m > 0xffff) break; // a wide block: push's case
      rel[at++] = total - m;
      total += next - prev;
      prev = next;
      if (total >= WIDE) throw new Error('Lengths: a total past 2^31');
    }
    this.rel.n = at;
    this.marks.n = nMarks;
    this.total = total;
    for (; i < n; i++) this.push(from.length(first + i));
  }

  /** Where entry i starts (i = size: the total). */
  start(i: number): number {
    if (i >= this.rel.n) return this.total;
    const m = this.marks.a[i >>> SHIFT];
    return m < WIDE ? m + this.rel.a[i] : this.wide.get(i >>> SHIFT)![i & (BLOCK - 1)];
  }

  /** Entry i's length. */
  length(i: number): number {
    return this.start(i + 1) - this.start(i);
  }

  trim(): void {
    this.rel.trim();
    this.marks.trim();
  }

  parts(): LengthParts {
    this.trim();
    return {
      rel: this.rel.a,
      marks: this.marks.a,
      wide: [...this.wide].map(([k, s]) => [k, [...s]]),
      total: this.total,
    };
  }

  /** The lengths of `parts()` (its arrays used in place). Throws when they do not fit together. */
  static fromParts(p: LengthParts): Lengths {
    const n = p.rel.length;
    if (p.marks.length !== (n + BLOCK - 1) >>> SHIFT)
      throw new Error('Lengths.fromParts: the marks do not fit the lengths');
    const l = new Lengths();
    l.rel.a = p.rel as Uint16Array<ArrayBuffer>;
    l.rel.n = n;
    l.marks.a = p.marks as Uint32Array<ArrayBuffer>;
    l.marks.n = p.marks.length;
    l.wide = new Map(p.wide.map(([k, s]) => [k, Uint32Array.from(s)]));
    l.total = p.total;
    for (let k = 0; k < p.marks.length; k++)
      if (p.marks[k] >= WIDE && !l.wide.has(k))
        throw new Error('Lengths.fromParts: a wide block without its starts');
    return l;
  }

  /**
   * The lengths between consecutive offsets (`offs[i + 1] − offs[i]`), with the last one's end as
   * `total`: `start(i)` gives offs[i] − offs[0].
   */
  static between(offs: Uint32Array): Lengths {
    const l = new Lengths();
    l.rel.grow(offs.length - 1);
    l.marks.grow((offs.length + BLOCK - 2) >>> SHIFT);
    for (let i = 0; i + 1 < offs.length; i++) l.push(offs[i + 1] - offs[i]);
    return l;
  }
}
