/**
 * The base segment's shape (search-index.ts): typed arrays only, ordinals in final tie-break order.
 * Also the dictionary's namespaces and how a term is read out of its blob.
 */
import { CLASS_ORDER } from '../contact-tokens.ts';
import { normalize } from '../normalize.ts';

export const CLASSES = CLASS_ORDER.length;
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

export const EMPTY_BASE: Base = {
  n: 0,
  T: 0,
  termBlob: '',
  termOff: new Uint32Array(1),
  wide: new Uint8Array(0),
  cLo: new Uint32Array(CLASSES),
  cHi: new Uint32Array(CLASSES),
  cBase: new Uint32Array(CLASSES),
  postOff: new Uint32Array(1),
  post: new Uint32Array(0),
  heads: new Map(),
  entOff: new Uint32Array(1),
  entTerm: new Uint32Array(0),
  entCls: new Uint8Array(0),
  entPos: new Uint16Array(0),
  entSrc: new Uint16Array(0),
};

/** Term i of a dictionary blob (Base.termBlob). */
export function blobTerm(blob: string, off: Uint32Array, wide: Uint8Array, i: number): string {
  const t = blob.substring(off[i], off[i + 1]);
  return wide[i] === 1 ? Buffer.from(t, 'latin1').toString('utf8') : t;
}

/** Case- and accent-insensitive DisplayName, then ContactId: the last ranking tiers. */
export function sortKeyOf(displayName: string, contactId: string): string {
  return `${normalize(displayName)}\u0000${contactId}`;
}
