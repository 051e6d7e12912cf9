/**
 * The base segment's shape (search-index.ts): typed arrays only, ordinals in final tie-break order.
 * Also the dictionary's namespaces and how a term is read out of its blob.
 */
import { RANK_CLASSES } from '../../fields/schema.ts';
import { normalize } from '../normalize.ts';
import { Lengths } from '../table/lengths.ts';
import { Terms } from './terms.ts';

export const CLASSES = RANK_CLASSES.length;
/** An `entTerm` holds the class in its top 3 bits (CLASSES ≤ 8) and the term id in the other 29 (T < 2^29). */
export const CLS_SHIFT = 29;
export const TERM_MASK = (1 << CLS_SHIFT) - 1;
export const EMAIL_NS = '\u0001';
export const PHONE_NS = '\u0002';
export const SUFFIX_NS = '\u0003';
/** Word parts after an apostrophe: apart from words, so a typed token meeting one is never a whole-word match. */
export const PART_NS = '\u0004';
/**
 * Variant spellings of a word (index/variants: ä/ae, readings, transliterations, nicknames): apart
 * from words, so a typed token meeting one ranks in the `variant` tier, never as an exact spelling.
 */
export const VARIANT_NS = '\u0005';

/** `s` backwards (digit strings: phones over 15 digits at the build, a typed token per query; shorter phones are reversed as numbers, digit-terms.ts). */
export const reverse = (s: string) => {
  let r = '';
  for (let i = s.length - 1; i >= 0; i--) r += s[i];
  return r;
};

/** Entry e's steps (Base.entSteps): bit 0 its position's, bit 1 its source's. */
export const stepAt = (steps: Uint8Array, e: number): number =>
  (steps[e >>> 2] >>> ((e & 3) << 1)) & 3;

/** STEP4[b]: the steps of byte b's four entries summed: the positions' in the low nibble, the sources' in the high one. */
const STEP4 = Uint8Array.from({ length: 256 }, (_, b) => {
  let p = 0,
    s = 0;
  for (let k = 0; k < 8; k += 2) {
    p += (b >>> k) & 1;
    s += (b >>> (k + 1)) & 1;
  }
  return p | (s << 4);
});

/** The steps of entries [a, b) summed, into `out`: [positions', sources'] (a byte, four entries, at a time). */
export function stepsOf(steps: Uint8Array, a: number, b: number, out: Int32Array): void {
  let p = 0,
    s = 0;
  for (; a < b && (a & 3) !== 0; a++) {
    const st = stepAt(steps, a);
    p += st & 1;
    s += st >>> 1;
  }
  for (; a + 4 <= b; a += 4) {
    const v = STEP4[steps[a >>> 2]];
    p += v & 15;
    s += v >>> 4;
  }
  for (; a < b; a++) {
    const st = stepAt(steps, a);
    p += st & 1;
    s += st >>> 1;
  }
  out[0] = p;
  out[1] = s;
}

export interface Base {
  n: number;
  /** Number of terms. */
  T: number;
  /** The sorted terms, front-coded bytes outside the JS heap (terms.ts): no string per term. */
  terms: Terms;
  /** Class c holds term ids [cLo[c], cHi[c]); their offsets start at slot cBase[c] of postOff. */
  cLo: Uint32Array;
  cHi: Uint32Array;
  cBase: Uint32Array;
  /** Class c's offsets skip term ids [cGapLo[c], cGapHi[c]), which it does not hold (heads.ts slotOf). */
  cGapLo: Uint32Array;
  cGapHi: Uint32Array;
  /** Slot s's postings are post[postOff.start(s) .. postOff.start(s + 1)) (a length a slot: table/lengths.ts). */
  postOff: Lengths;
  post: Uint32Array;
  /** Bucket heads made by the build (heads.ts), by headKey. */
  heads: Map<string, Uint32Array>;
  entOff: Uint32Array;
  /** An entry's term id (`& TERM_MASK`) and field class (`>>> CLS_SHIFT`) in one u32: no array of classes. */
  entTerm: Uint32Array;
  /**
   * Each entry's display position and source (the contact token it is, or a variant of) as steps
   * from the entry before, 2 bits an entry, four to a byte (`stepAt`): bit 0 the position's step,
   * bit 1 the source's, each 0 or 1 (contact-tokens.ts moves both by at most one an entry); a
   * contact's first entry steps both from -1. 8 MB at 1M instead of two bytes an entry (61 MB).
   */
  entSteps: Uint8Array;
  /** Whether some display position reached the loader's cap (65,535): then positions are not in class order for sure. */
  posCapped: boolean;
  /** Token spans (spans.ts): ordinal o's tokens, in entry order, are coded in spanOff.length(o) bytes from spans[spanOff.start(o)]. */
  spanOff: Lengths;
  spans: Uint8Array;
}

export const EMPTY_BASE: Base = {
  n: 0,
  T: 0,
  terms: Terms.EMPTY,
  cLo: new Uint32Array(CLASSES),
  cHi: new Uint32Array(CLASSES),
  cBase: new Uint32Array(CLASSES),
  cGapLo: new Uint32Array(CLASSES),
  cGapHi: new Uint32Array(CLASSES),
  postOff: new Lengths(),
  post: new Uint32Array(0),
  heads: new Map(),
  entOff: new Uint32Array(1),
  entTerm: new Uint32Array(0),
  entSteps: new Uint8Array(0),
  posCapped: false,
  spanOff: new Lengths(),
  spans: new Uint8Array(0),
};

/** Case- and accent-insensitive DisplayName, then ContactId: the last ranking tiers. */
export function sortKeyOf(displayName: string, contactId: string): string {
  return `${normalize(displayName)}\u0000${contactId}`;
}

/** A base's typed arrays' bytes, its term text at one byte a character (SearchIndex.approximateBytes). */
export function baseBytes(b: Base): number {
  let n = b.terms.byteLength + b.postOff.byteLength + b.spanOff.byteLength;
  for (const a of [b.cLo, b.cHi, b.cBase, b.post, b.entOff, b.entTerm, b.entSteps, b.spans])
    n += a.byteLength;
  for (const h of b.heads.values()) n += h.byteLength;
  return n;
}
