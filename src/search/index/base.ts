/**
 * The base segment's shape (search-index.ts): typed arrays only, ordinals in final tie-break order.
 * Also the dictionary's namespaces and how a term is read out of its blob.
 */
import { RANK_CLASSES } from '../../fields/schema.ts';
import { normalize } from '../normalize.ts';
import { Lengths } from '../table/lengths.ts';
import { Terms } from './terms.ts';

export const CLASSES = RANK_CLASSES.length;
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
  entTerm: Uint32Array;
  entCls: Uint8Array;
  /** Uint8Array when every value fits (the usual case: half the memory). */
  entPos: Uint16Array | Uint8Array;
  entSrc: Uint16Array | Uint8Array;
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
  entCls: new Uint8Array(0),
  entPos: new Uint16Array(0),
  entSrc: new Uint16Array(0),
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
  for (const a of [
    b.cLo,
    b.cHi,
    b.cBase,
    b.post,
    b.entOff,
    b.entTerm,
    b.entCls,
    b.entPos,
    b.entSrc,
    b.spans,
  ])
    n += a.byteLength;
  for (const h of b.heads.values()) n += h.byteLength;
  return n;
}
