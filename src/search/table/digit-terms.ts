/**
 * Digit strings (phone terms) interned without a JS string or Map entry each: the build meets 3–4M
 * of them at 1M contacts, nearly all unique, and a Map of them was the loader's biggest cost and a
 * big part of the old space the collector walked. A string of L ≤ 15 digits is the number 10^L + its
 * value (the leading 1 keeps leading zeros: "012" is 1012), kept in an open-addressing table of
 * typed arrays.
 */
import { grown } from './growable.ts';

/** The number of a digit string (read `backwards`: of its reverse), or -1 when it is not 1–15 ASCII digits. */
export function digitKey(s: string, backwards = false): number {
  const n = s.length;
  if (n === 0 || n > 15) return -1;
  let v = 1;
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(backwards ? n - 1 - i : i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/** The digit string of a key (digitKey's inverse). */
export const digitString = (key: number) => String(key).slice(1);

export class DigitTerms {
  /** Slot → 1 + index into keys/ids (0: empty). */
  private slots = new Uint32Array(1 << 16);
  /** By insertion: the key and the id the caller gave it. */
  keys = new Float64Array(1 << 12);
  ids = new Uint32Array(1 << 12);
  size = 0;

  /** The id of `key`; a new key gets `fresh`. */
  intern(key: number, fresh: number): number {
    const id = this.get(key);
    if (id >= 0) return id;
    if (this.size === this.keys.length) {
      this.keys = grown(this.keys, this.size + 1);
      this.ids = grown(this.ids, this.size + 1);
    }
    this.keys[this.size] = key;
    this.ids[this.size] = fresh;
    this.size++;
    if (this.size * 2 > this.slots.length) this.rehash();
    else this.place(this.size - 1);
    return fresh;
  }

  /** The id of `key`, or -1. */
  get(key: number): number {
    const mask = this.slots.length - 1;
    for (let s = hash(key) & mask; ; s = (s + 1) & mask) {
      const at = this.slots[s];
      if (at === 0) return -1;
      if (this.keys[at - 1] === key) return this.ids[at - 1];
    }
  }

  private place(i: number): void {
    const mask = this.slots.length - 1;
    let s = hash(this.keys[i]) & mask;
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = i + 1;
  }

  private rehash(): void {
    this.slots = new Uint32Array(this.slots.length * 2);
    for (let i = 0; i < this.size; i++) this.place(i);
  }
}

/** A 32-bit mix of both halves of an integer below 2^53. */
function hash(key: number): number {
  const lo = key >>> 0,
    hi = (key / 4294967296) >>> 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);
/** Padded terms compare as numbers below 10^14: longer terms take the string sort. */
const PAD = 14;

/**
 * The terms of `t` in string order, as the namespace's part of the term blob (`ns` before each
 * term), without a string per term: a digit string's order is that of its digits padded with zeros
 * to PAD, then its length ("12" < "120" < "1201" < "13"), one number below 2^51, radix-sorted with
 * the term's index (no search for each term's place afterwards). `ids[i]` is the id of the i-th
 * term, `lengths[i]` its digits. Undefined when a term is longer than PAD.
 */
export function sortedDigits(
  t: DigitTerms,
  ns: string,
): { ids: Uint32Array; lengths: Uint8Array; chunk: string } | undefined {
  const n = t.size;
  // Each term's place in the order as two halves of 26 bits (int32 arithmetic in the sort).
  const hi = new Uint32Array(n),
    lo = new Uint32Array(n);
  for (let j = 0; j < n; j++) {
    const key = t.keys[j];
    let len = 0;
    while (key >= POW10[len + 1]) len++;
    if (len > PAD) return undefined;
    const place = (key - POW10[len]) * POW10[PAD - len] * 16 + len;
    hi[j] = Math.floor(place / HALF);
    lo[j] = place - hi[j] * HALF;
  }
  const sorted = radixOrder(hi, lo);
  const ids = new Uint32Array(n),
    lengths = new Uint8Array(n);
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const j = sorted[i];
    ids[i] = t.ids[j];
    lengths[i] = lo[j] & 15;
    bytes += ns.length + lengths[i];
  }
  const buf = Buffer.allocUnsafe(bytes);
  for (let i = 0, at = 0; i < n; i++) {
    for (let c = 0; c < ns.length; c++) buf[at++] = ns.charCodeAt(c);
    const j = sorted[i],
      len = lengths[i];
    writeDigits(buf, at, t.keys[j] - POW10[len], len);
    at += len;
  }
  return { ids, lengths, chunk: buf.toString('latin1') };
}

const HALF = 2 ** 26;
const RADIX = 13;

/**
 * The indices of the numbers hi[j]·2^26 + lo[j] (both below 2^26) in ascending order: a least
 * significant digit radix sort, 13 bits a pass (the native sort of the numbers would not say
 * where each came from).
 */
function radixOrder(hi: Uint32Array, lo: Uint32Array): Uint32Array {
  const n = hi.length,
    mask = (1 << RADIX) - 1;
  let from = new Uint32Array(n),
    to = new Uint32Array(n);
  for (let j = 0; j < n; j++) from[j] = j;
  const count = new Uint32Array(1 << RADIX);
  for (let pass = 0; pass < 4; pass++) {
    const half = pass < 2 ? lo : hi,
      shift = (pass & 1) * RADIX;
    count.fill(0);
    for (let j = 0; j < n; j++) count[(half[j] >>> shift) & mask]++;
    for (let d = 0, sum = 0; d <= mask; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const j = from[i];
      to[count[(half[j] >>> shift) & mask]++] = j;
    }
    [from, to] = [to, from];
  }
  return from;
}

/** Writes v's `len` digits at buf[at ..]: in halves of 7 digits, so each is int32 arithmetic. */
function writeDigits(buf: Buffer, at: number, v: number, len: number): void {
  const high = Math.floor(v / 1e7);
  let part = v - high * 1e7;
  for (let c = len - 1; c >= 0; c--) {
    if (c === len - 8) part = high;
    const next = (part / 10) | 0;
    buf[at + c] = 48 + part - next * 10;
    part = next;
  }
}
