/**
 * A run of lengths (of values in a buffer, of posting lists) and where each starts, at a byte and a
 * quarter an entry instead of a u32 offset: a byte per length (LONG: the length is in `longs`) and
 * the start of every 16th entry. `start(i)` adds at most 15 lengths to its block's mark. Most
 * lengths are small (an email, a phone, the postings of a term that one or two contacts hold); at
 * 1M contacts this holds 6.2M posting offsets in 8 MB, not 24, and the buffered values' ends of the
 * ids, emails, phones and names in 6 MB, not 18 (docs/perf-log/2026-11-26-memory2.md).
 */
import { Growable } from './growable.ts';

const LONG = 255;
const SHIFT = 4;

/** The arrays of `Lengths` (an index image's form) and its long lengths as [entry, length] pairs. */
export interface LengthParts {
  lens: Uint8Array;
  marks: Uint32Array;
  longs: [number, number][];
}

export class Lengths {
  private readonly lens = new Growable(new Uint8Array(0));
  private readonly marks = new Growable(new Uint32Array(0));
  private longs = new Map<number, number>();
  /** The sum of the lengths: where the next entry starts. */
  total = 0;

  /** Number of entries. */
  get size(): number {
    return this.lens.n;
  }

  get byteLength(): number {
    return this.lens.a.byteLength + this.marks.a.byteLength + this.longs.size * 16;
  }

  push(len: number): void {
    if ((this.lens.n & ((1 << SHIFT) - 1)) === 0) this.marks.push(this.total);
    if (len >= LONG) this.longs.set(this.lens.n, len);
    this.lens.push(len < LONG ? len : LONG);
    this.total += len;
  }

  /** Entry i's length. */
  length(i: number): number {
    const v = this.lens.a[i];
    return v < LONG ? v : this.longs.get(i)!;
  }

  /** Where entry i starts (i = size: the total). */
  start(i: number): number {
    if (i >= this.lens.n) return this.total;
    const lens = this.lens.a;
    let at = this.marks.a[i >>> SHIFT];
    for (let j = (i >>> SHIFT) << SHIFT; j < i; j++)
      at += lens[j] < LONG ? lens[j] : this.longs.get(j)!;
    return at;
  }

  trim(): void {
    this.lens.trim();
    this.marks.trim();
  }

  parts(): LengthParts {
    this.trim();
    return { lens: this.lens.a, marks: this.marks.a, longs: [...this.longs] };
  }

  /** The lengths of `parts()` (its arrays used in place). Throws when they do not fit together. */
  static fromParts(p: LengthParts): Lengths {
    if (p.marks.length !== (p.lens.length + (1 << SHIFT) - 1) >>> SHIFT)
      throw new Error('Lengths.fromParts: the marks do not fit the lengths');
    const l = new Lengths();
    l.lens.a = p.lens as Uint8Array<ArrayBuffer>;
    l.lens.n = p.lens.length;
    l.marks.a = p.marks as Uint32Array<ArrayBuffer>;
    l.marks.n = p.marks.length;
    l.longs = new Map(p.longs);
    const n = p.lens.length;
    l.total = n === 0 ? 0 : l.start(n - 1) + l.length(n - 1);
    return l;
  }

  /** The lengths between consecutive offsets (`offs[i + 1] − offs[i]`). */
  static between(offs: Uint32Array): Lengths {
    const l = new Lengths();
    l.total = offs[0];
    l.lens.grow(offs.length - 1);
    l.marks.grow((offs.length + 14) >>> SHIFT);
    for (let i = 0; i + 1 < offs.length; i++) l.push(offs[i + 1] - offs[i]);
    return l;
  }
}
