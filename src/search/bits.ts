/**
 * Sets of ordinals as bitmaps: bit `ord & 31` of word `ord >>> 5`. A selection (a query's matches,
 * each filter's passes, the live rows) is one such set, so combining them is a word-wise AND — 31,250
 * words at a million contacts — instead of a predicate call per candidate and filter.
 */

/** An empty set with room for ordinals below `n`. */
export const bitsFor = (n: number): Uint32Array => new Uint32Array((n + 31) >>> 5);

export function hasBit(w: Uint32Array, ord: number): boolean {
  return (w[ord >>> 5] & (1 << (ord & 31))) !== 0;
}

export function setBit(w: Uint32Array, ord: number): void {
  w[ord >>> 5] |= 1 << (ord & 31);
}

export function clearBit(w: Uint32Array, ord: number): void {
  w[ord >>> 5] &= ~(1 << (ord & 31));
}

/** How many ordinals are in the set. */
export function countBits(w: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < w.length; i++) n += popcount(w[i]);
  return n;
}

/** The set's ordinals, ascending. */
export function bitsToOrdinals(w: Uint32Array, count = countBits(w)): number[] {
  const out = new Array<number>(count);
  let k = 0;
  for (let i = 0; i < w.length; i++) {
    let x = w[i];
    while (x !== 0) {
      const low = x & -x;
      out[k++] = (i << 5) | (31 - Math.clz32(low));
      x ^= low;
    }
  }
  return out;
}

/** How many bits are set in one word (no branch: words of a sparse set are often empty). */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * A set as its non-empty words only: word `at[k]` of the bitmap is `w[k]` (`at` ascending). A query's
 * matches are a few percent of the contacts; combining them with filters then reads just their words.
 */
export interface WordList {
  readonly at: Int32Array;
  readonly w: Int32Array;
  /** How many ordinals are in the set. */
  readonly count: number;
  /** Where in the word ring `at` and `w` were taken (`intact`); absent: arrays of their own. */
  readonly home?: RingPlace;
}

/** A place in the word ring: which ring, and how many words it had handed out before this one. */
interface RingPlace {
  readonly ring: Int32Array;
  readonly from: number;
}

/**
 * The word lists of match sets and their combinations (`Marks.list`, `andWords`) live in one ring of
 * words handed out in turn, not in two typed arrays each: their backing stores, ~110 KB a faceted
 * request at 1M, count as V8's external memory, and the faceted wire ran a full collection every
 * ~250 requests (docs/perf-log/2026-11-29-facet-counts.md). A list is overwritten once the ring has
 * handed out its whole length after it, so whatever keeps a list past its request (the selection
 * caches) asks `intact` first, which answers yes only while the list is in the newer half of the
 * ring: the request that finds it may then take the other half (32 bitmaps of the largest index
 * asked) and still read it whole. One request takes far less: a list is at most two bitmaps' words,
 * and a selection makes one per facet field (five) and one more, besides its query's.
 */
const RING_BITMAPS = 64;
let ring = new Int32Array(0),
  ringAt = 0,
  handed = 0;

/** `2n` words of the ring for a list of `n` words, as its `at` and `w`; `bitmapWords`: its index's bitmap length. */
function ringPair(
  n: number,
  bitmapWords: number,
): { at: Int32Array; w: Int32Array; home: RingPlace } {
  const want = RING_BITMAPS * Math.max(bitmapWords, n);
  if (want > ring.length) {
    ring = new Int32Array(want); // lists in the old ring stay as they are: it is never handed out again
    ringAt = 0;
    handed = 0;
  }
  if (ringAt + 2 * n > ring.length) {
    handed += ring.length - ringAt;
    ringAt = 0;
  }
  const home = { ring, from: handed },
    at = ring.subarray(ringAt, ringAt + n),
    w = ring.subarray(ringAt + n, ringAt + 2 * n);
  ringAt += 2 * n;
  handed += 2 * n;
  return { at, w, home };
}

/**
 * Whether a kept list may serve another request: its arrays are its own, or its ring is no longer
 * handed out, or it is in the newer half of the ring (so the request can take the other half).
 */
export function intact(s: WordList): boolean {
  const h = s.home;
  return h === undefined || h.ring !== ring || handed - h.from <= ring.length / 2;
}

/** The non-empty words of `dense`, taken from the ring (`intact` says how long they stay). */
export function wordList(dense: Uint32Array): WordList {
  let k = 0;
  for (let i = 0; i < dense.length; i++) if (dense[i] !== 0) k++;
  const { at, w, home } = ringPair(k, dense.length); // a query-less selection's: every live row
  let count = 0;
  k = 0;
  for (let i = 0; i < dense.length; i++) {
    const x = dense[i] | 0;
    if (x === 0) continue;
    at[k] = i;
    w[k++] = x;
    count += popcount(x);
  }
  return { at, w, count, home };
}

/** `s` ANDed with each of the bitmaps `withBits` (empty words dropped), written straight into the ring. */
export function andWords(s: WordList, withBits: readonly Uint32Array[]): WordList {
  if (withBits.length === 0) return s;
  const sat = s.at,
    sw = s.w;
  // Bitmaps shorter than the set's last word end its words there (no bounds test per word and bitmap).
  let end = sat.length;
  for (const b of withBits) while (end > 0 && sat[end - 1] >= b.length) end--;
  const one = withBits[0],
    two = withBits.length > 1 ? withBits[1] : one;
  const { at, w, home } = ringPair(end, Math.max(one.length, sat.length));
  let k = 0,
    count = 0;
  // One or two bitmaps (a screen's usual filters) in one loop without a branch on the result: a word
  // is written, then kept by moving on when it is not empty; whether it is empty is not predictable.
  if (withBits.length <= 2) {
    for (let i = 0; i < end; i++) {
      const a = sat[i],
        x = sw[i] & one[a] & two[a];
      at[k] = a;
      w[k] = x;
      k += (x | -x) >>> 31;
      count += popcount(x);
    }
  } else {
    for (let i = 0; i < end; i++) {
      const a = sat[i];
      let x = sw[i] & one[a] & two[a];
      for (let j = 2; j < withBits.length && x !== 0; j++) x &= withBits[j][a];
      if (x === 0) continue;
      at[k] = a;
      w[k++] = x;
      count += popcount(x);
    }
  }
  return { at: at.subarray(0, k), w: w.subarray(0, k), count, home };
}

/**
 * Words kept per owner (an index) in `slots`, all zero between uses — each user leaves them as it
 * found them — at least `words` long; new ones when the kept ones are too short.
 */
export function scratchWords(
  slots: WeakMap<object, Uint32Array>,
  owner: object,
  words: number,
): Uint32Array {
  let b = slots.get(owner);
  if (!b || b.length < words) slots.set(owner, (b = new Uint32Array(words)));
  return b;
}

/** `scratchWords` as a bitmap with room for ordinals below `n`. */
export const scratchBits = (
  slots: WeakMap<object, Uint32Array>,
  owner: object,
  n: number,
): Uint32Array => scratchWords(slots, owner, (n + 31) >>> 5);

/**
 * Runs `f` with the set written into `scratch` (all zero, room for the set's words), then zeroes
 * those words again: a million-ordinal bitmap per request without allocating one.
 */
export function withDense<T>(s: WordList, scratch: Uint32Array, f: (dense: Uint32Array) => T): T {
  for (let i = 0; i < s.at.length; i++) scratch[s.at[i]] = s.w[i];
  try {
    return f(scratch);
  } finally {
    for (let i = 0; i < s.at.length; i++) scratch[s.at[i]] = 0;
  }
}

/** Calls `f` per ordinal in the set, ascending. */
export function forEachListed(s: WordList, f: (ord: number) => void): void {
  for (let i = 0; i < s.at.length; i++) {
    const base = s.at[i] << 5;
    for (let x = s.w[i]; x !== 0; x ^= x & -x) f(base | (31 - Math.clz32(x & -x)));
  }
}

/** The set's ordinals, ascending. */
export function listedOrdinals(s: WordList): number[] {
  const out = new Array<number>(s.count);
  let k = 0;
  for (let i = 0; i < s.at.length; i++) {
    const base = s.at[i] << 5;
    for (let x = s.w[i]; x !== 0; x ^= x & -x) out[k++] = base | (31 - Math.clz32(x & -x));
  }
  return out;
}

/**
 * A bitmap being filled, with one bit per word it touched (`touched`): reading it out visits those
 * words only, not the whole million-ordinal bitmap. Hot loops write `bits` and `touched` directly.
 */
export class Marks {
  readonly bits: Uint32Array;
  readonly touched: Uint32Array;
  constructor(n: number) {
    this.bits = bitsFor(n);
    this.touched = bitsFor(this.bits.length);
  }

  add(ord: number): void {
    const w = ord >>> 5;
    this.bits[w] |= 1 << (ord & 31);
    this.touched[w >>> 5] |= 1 << (w & 31);
  }

  /** Back to empty: the touched words only. */
  clear(): void {
    const { bits, touched } = this;
    for (let t = 0; t < touched.length; t++) {
      for (let y = touched[t]; y !== 0; y ^= y & -y) bits[(t << 5) | (31 - Math.clz32(y & -y))] = 0;
      touched[t] = 0;
    }
  }

  /**
   * The marked ordinals that are also in `mask` (a bitmap such as the live rows). `andClear`: the
   * marks are left empty as they are read (one pass over the touched words instead of two).
   */
  list(mask: Uint32Array, andClear = false): WordList {
    const { bits, touched } = this;
    const { at, w, home } = ringPair(countBits(touched), bits.length);
    let k = 0,
      count = 0;
    for (let t = 0; t < touched.length; t++) {
      const y0 = touched[t];
      if (y0 === 0) continue;
      if (andClear) touched[t] = 0;
      for (let y = y0; y !== 0; y ^= y & -y) {
        const i = (t << 5) | (31 - Math.clz32(y & -y));
        const x = bits[i] & (i < mask.length ? mask[i] : 0);
        if (andClear) bits[i] = 0;
        if (x === 0) continue;
        at[k] = i;
        w[k++] = x;
        count += popcount(x);
      }
    }
    return { at: at.subarray(0, k), w: w.subarray(0, k), count, home };
  }
}
