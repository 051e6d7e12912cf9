/**
 * The sorted term dictionary, front-coded: terms in blocks of BLOCK, each block's first term whole,
 * every other term as the length of the prefix it shares with the one before, then the rest. Sorted
 * terms share a lot (phones, reversed phones and emails are 95% of them at 1M): 5.4M terms take
 * 61 MB instead of 112 MB as a plain blob with an offset and a flag per term, and no JS string
 * (docs/perf-log/2026-11-26-memory.md).
 *
 * A term is its characters as bytes when all are ≤ U+00FF (the usual case), else its UTF-8 bytes
 * with a `wide` flag, compared decoded. Term ids are positions in the sorted order, so a prefix is
 * an id range found by two lower bounds: a binary search over the blocks' first terms, read in
 * place, then a scan of at most BLOCK − 1 terms of one block.
 *
 *   block k starts at bytes[blocks[k]]
 *   first term:   varint(length·2 + wide), bytes
 *   other terms:  shared u8 (≤ 255), varint(rest·2 + wide), rest bytes
 */

const BLOCK = 8;
const SHIFT = 3;

const LATIN1 = /^[\x00-\xff]*$/;

export interface TermParts {
  T: number;
  bytes: Uint8Array;
  blocks: Uint32Array;
}

export class Terms {
  /** The term being decoded (its bytes, length and flag): scratch reused by every read. */
  private cur = Buffer.allocUnsafe(256);
  private curLen = 0;
  private curWide = false;
  /** The id of the term in the scratch (-1: none yet). */
  private curId = -1;

  constructor(
    readonly T: number,
    private readonly bytes: Uint8Array,
    private readonly blocks: Uint32Array,
  ) {}

  static readonly EMPTY = new Terms(0, new Uint8Array(0), new Uint32Array(0));

  /**
   * The dictionary of terms already in sorted order (JS string order), given as latin1 strings one
   * after another in `chunks` (a term never spans two; at 10M contacts the terms are ~900M
   * characters, past V8's longest string, so the loader hands them over a namespace at a time),
   * the end of each term over all chunks (`off`, T + 1 entries) and `wide` flags.
   */
  static encode(chunks: readonly string[], off: Uint32Array, wide: Uint8Array): Terms {
    const T = off.length - 1;
    const out = Buffer.allocUnsafe(off[T] + 5 * T + 8);
    const blocks = new Uint32Array((T + BLOCK - 1) >>> SHIFT);
    let at = 0;
    let c = 0,
      base = 0; // the chunk of term i, and where it starts in `off`'s count
    let prev = '',
      prevAt = 0,
      prevLen = 0;
    for (let i = 0; i < T; i++) {
      const a = off[i],
        len = off[i + 1] - a;
      while (c < chunks.length - 1 && a >= base + chunks[c].length) base += chunks[c++].length;
      const cur = chunks[c],
        ca = a - base;
      let shared = 0;
      if ((i & (BLOCK - 1)) === 0) blocks[i >>> SHIFT] = at;
      else {
        const most = Math.min(255, prevLen, len);
        while (shared < most && prev.charCodeAt(prevAt + shared) === cur.charCodeAt(ca + shared))
          shared++;
        out[at++] = shared;
      }
      at = varint(out, at, (len - shared) * 2 + wide[i]);
      for (let j = ca + shared; j < ca + len; j++) out[at++] = cur.charCodeAt(j); // latin1: a byte each
      prev = cur;
      prevAt = ca;
      prevLen = len;
    }
    return new Terms(T, Uint8Array.prototype.slice.call(out, 0, at), blocks);
  }

  /** The dictionary of `sorted` (JS strings in sorted order): tests and small indexes. */
  static of(sorted: readonly string[]): Terms {
    const off = new Uint32Array(sorted.length + 1),
      wide = new Uint8Array(sorted.length);
    const parts = sorted.map((t, i) => {
      const w = !LATIN1.test(t);
      wide[i] = w ? 1 : 0;
      const s = w ? Buffer.from(t, 'utf8').toString('latin1') : t;
      off[i + 1] = off[i] + s.length;
      return s;
    });
    return Terms.encode([parts.join('')], off, wide);
  }

  static fromParts(p: TermParts): Terms {
    return new Terms(p.T, p.bytes, p.blocks);
  }

  parts(): TermParts {
    return { T: this.T, bytes: this.bytes, blocks: this.blocks };
  }

  get byteLength(): number {
    return this.bytes.byteLength + this.blocks.byteLength;
  }

  /** Term i. */
  termAt(i: number): string {
    this.decode(i);
    return this.curString();
  }

  /**
   * First term id ≥ s, from `lo` on. From a given `lo` the blocks are galloped (1, 2, 4 … blocks on)
   * before the binary search: the end of a prefix's range is nearly always a block or two away.
   */
  lowerBound(s: string, lo = 0): number {
    const T = this.T;
    if (lo >= T) return lo;
    // The first block after lo's whose first term is ≥ s: the answer is before it.
    let bl = (lo >>> SHIFT) + 1,
      bh = this.blocks.length;
    if (lo > 0)
      for (let step = 1; bl < bh; step *= 2) {
        const probe = Math.min(bh - 1, bl + step - 1);
        if (!this.headBelow(probe, s)) {
          bh = probe;
          break;
        }
        bl = probe + 1;
      }
    while (bl < bh) {
      const mid = (bl + bh) >>> 1;
      if (this.headBelow(mid, s)) bl = mid + 1;
      else bh = mid;
    }
    // Scan block bl − 1 from its start (terms before lo are decoded, not compared).
    const k = bl - 1,
      end = Math.min(T, bl << SHIFT);
    let at = this.blocks[k];
    for (let i = k << SHIFT; i < end; i++) {
      at = this.next(at, i === k << SHIFT);
      this.curId = i;
      if (i >= lo && !this.curBelow(s)) return i;
    }
    return end;
  }

  /**
   * Term ids [lo, hi) of the terms starting with `prefix`: the second bound only when the first
   * term ≥ prefix starts with it (most prefixes a typo tries are not in the dictionary).
   */
  prefixRange(prefix: string): [number, number] {
    const lo = this.lowerBound(prefix);
    if (lo >= this.T || !this.startsWith(lo, prefix)) return [lo, lo];
    return [lo, this.lowerBound(prefix + '\uffff', lo)];
  }

  /** Whether term i is `s` itself. */
  isTerm(i: number, s: string): boolean {
    return (
      this.startsWith(i, s) && (this.curWide ? this.curString() === s : this.curLen === s.length)
    );
  }

  /** Whether term i starts with `prefix`, compared in place (a wide term decoded). */
  private startsWith(i: number, prefix: string): boolean {
    if (i >= this.T) return false;
    if (this.curId !== i) this.decode(i);
    if (this.curWide) return this.curString().startsWith(prefix);
    if (this.curLen < prefix.length) return false;
    for (let k = 0; k < prefix.length; k++) if (this.cur[k] !== prefix.charCodeAt(k)) return false;
    return true;
  }

  /** Decodes term i into the scratch. */
  private decode(i: number): void {
    const k = i >>> SHIFT;
    let at = this.blocks[k];
    for (let j = k << SHIFT; j <= i; j++) at = this.next(at, j === k << SHIFT);
    this.curId = i;
  }

  /** Decodes the term at byte `at` (the previous one in the scratch, unless `first`); returns where the next starts. */
  private next(at: number, first: boolean): number {
    const b = this.bytes;
    const shared = first ? 0 : b[at++];
    let v = b[at++];
    if (v & 0x80) v = readVarint(b, at - 1, (at = skipVarint(b, at - 1)));
    const rest = v >>> 1;
    const len = shared + rest;
    if (len > this.cur.length) {
      const bigger = Buffer.allocUnsafe(len * 2);
      this.cur.copy(bigger, 0, 0, shared);
      this.cur = bigger;
    }
    const cur = this.cur;
    for (let j = 0; j < rest; j++) cur[shared + j] = b[at + j];
    this.curLen = len;
    this.curWide = (v & 1) === 1;
    return at + rest;
  }

  private curString(): string {
    return this.curWide
      ? this.cur.toString('utf8', 0, this.curLen)
      : this.cur.toString('latin1', 0, this.curLen);
  }

  /** The scratch term < s (UTF-16 order, as JS compares strings). */
  private curBelow(s: string): boolean {
    return this.curWide
      ? utf8Below(this.cur, 0, this.curLen, s)
      : bytesBelow(this.cur, 0, this.curLen, s);
  }

  /** Block k's first term < s, read in place. */
  private headBelow(k: number, s: string): boolean {
    const b = this.bytes;
    let at = this.blocks[k];
    let v = b[at++];
    if (v & 0x80) v = readVarint(b, at - 1, (at = skipVarint(b, at - 1)));
    const len = v >>> 1;
    return v & 1 ? utf8Below(b, at, at + len, s) : bytesBelow(b, at, at + len, s);
  }
}

/** The one-byte characters b[p .. end) < s. */
function bytesBelow(b: Uint8Array, p: number, end: number, s: string): boolean {
  for (let k = 0; k < s.length; k++, p++) {
    if (p === end) return true; // a proper prefix of s
    const x = b[p],
      y = s.charCodeAt(k);
    if (x !== y) return x < y;
  }
  return false; // s itself, or s is its prefix
}

/**
 * The UTF-8 bytes b[p .. end) < s, as JS compares strings (UTF-16 code units), decoded on the fly:
 * a wide term's compare made a string of it per step of a binary search.
 */
export function utf8Below(b: Uint8Array, p: number, end: number, s: string): boolean {
  let k = 0;
  while (p < end) {
    if (k === s.length) return false; // s is a proper prefix of the term
    let c = b[p++];
    if (c >= 0xf0) {
      c = ((c & 7) << 18) | ((b[p] & 63) << 12) | ((b[p + 1] & 63) << 6) | (b[p + 2] & 63);
      p += 3;
    } else if (c >= 0xe0) {
      c = ((c & 15) << 12) | ((b[p] & 63) << 6) | (b[p + 1] & 63);
      p += 2;
    } else if (c >= 0x80) {
      c = ((c & 31) << 6) | (b[p] & 63);
      p += 1;
    }
    if (c >= 0x10000) {
      // Two code units: the high surrogate, then the low one.
      const high = 0xd800 + ((c - 0x10000) >> 10);
      const y = s.charCodeAt(k++);
      if (high !== y) return high < y;
      if (k === s.length) return false;
      c = 0xdc00 + ((c - 0x10000) & 0x3ff);
    }
    const y = s.charCodeAt(k++);
    if (c !== y) return c < y;
  }
  return k < s.length; // the term is a proper prefix of s (equal: not below)
}

/** Writes v (7 bits a byte, low first); returns the next position. */
function varint(out: Uint8Array, at: number, v: number): number {
  while (v >= 0x80) {
    out[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  out[at] = v;
  return at + 1;
}

/** Where the varint at `at` ends. */
function skipVarint(b: Uint8Array, at: number): number {
  while (b[at] & 0x80) at++;
  return at + 1;
}

/** The varint in b[from .. to). */
function readVarint(b: Uint8Array, from: number, to: number): number {
  let v = 0;
  for (let i = to - 1; i >= from; i--) v = v * 128 + (b[i] & 0x7f);
  return v;
}
