/**
 * A typed token compiled against the index's dictionary: the term-id ranges it matches by prefix
 * (and which id is the whole word), and, on first need, the ranges it matches with one typo.
 */
import {
  EMAIL_NS,
  PART_NS,
  PHONE_NS,
  reverse,
  SUFFIX_NS,
  type SearchIndex,
} from '../search-index.ts';
import { VARIANT_NS } from '../index/base.ts';
import { digitVariants, isDigits, type QueryToken } from '../tokenize.ts';
import { typedLetterVariant } from '../variants.ts';

export const typoAllowed = (q: QueryToken) =>
  q.kind === 'word' && q.term.length >= 5 && !isDigits(q.term);

/** A range of term ids [lo, hi); `exact` is the id of the typed term itself (a whole-token match), or -1. */
export interface Range {
  readonly lo: number;
  readonly hi: number;
  readonly exact: number;
  /** Variant spellings (VARIANT_NS): every match in it is a `variant` match, never whole. */
  readonly variant?: true;
}

export interface Compiled {
  readonly q: QueryToken;
  /** Every range matched without a typo: the exact spellings, then the variant ones (`Range.variant`). */
  readonly exact: Range[];
  /** Ranges of the terms within one edit (computed on first need). */
  typo?: Range[];
  /** rangeTests' array (made on first need, again once `typo` is set). */
  tests?: Int32Array;
}

/** Ints per range in a flatRanges array. */
export const RANGE_STRIDE = 4;

/**
 * Ranges as flat [lo, hi, exact id, flags] quads, flags as a contact's options carry them: 4 a
 * variant, 1 a typo (the ranges from `typoFrom` on), 0 a spelled prefix (2, whole, is `tid === exact
 * id`). The forward-index tests (scoring a contact, a bucket's membership) read these numbers, not
 * Range objects: those come in two shapes (a variant range has one more member), and the loops over
 * them were polymorphic — a third of a contact's scoring.
 */
export function flatRanges(ranges: readonly Range[], typoFrom = ranges.length): Int32Array {
  const out = new Int32Array(ranges.length * RANGE_STRIDE);
  for (let i = 0; i < ranges.length; i++) {
    const r = ranges[i],
      at = i * RANGE_STRIDE;
    out[at] = r.lo;
    out[at + 1] = r.hi;
    out[at + 2] = r.exact;
    out[at + 3] = i >= typoFrom ? 1 : r.variant ? 4 : 0;
  }
  return out;
}

/** The token's ranges, flat: the exact and variant ones (`exact.length` quads), then the typo ones. */
export const rangeTests = (c: Compiled): Int32Array =>
  (c.tests ??= flatRanges(allRanges(c), c.exact.length));

function range(index: SearchIndex, prefix: string, exact: boolean): Range | undefined {
  const [lo, hi] = index.prefixRange(prefix);
  if (lo >= hi) return undefined;
  return { lo, hi, exact: exact && index.isTerm(lo, prefix) ? lo : -1 };
}

function compile(index: SearchIndex, q: QueryToken): Compiled {
  const out: (Range | undefined)[] = [];
  if (q.kind === 'email') out.push(range(index, EMAIL_NS + q.term, true));
  else {
    if (!q.international)
      out.push(range(index, q.term, true), range(index, PART_NS + q.term, false));
    if (q.kind === 'word') {
      // Variants: the contact's other spellings, and the typed word's own one-letter spelling.
      const v = range(index, VARIANT_NS + q.term, false);
      if (v) out.push({ ...v, variant: true });
      const single = typedLetterVariant(q.term);
      const w = single === undefined ? undefined : range(index, single, false);
      if (w) out.push({ ...w, variant: true });
    }
    if (q.kind === 'digits') {
      for (const v of digitVariants(q.term)) out.push(range(index, PHONE_NS + v, true));
      if (q.term.length >= 4) out.push(range(index, SUFFIX_NS + reverse(q.term), false));
    }
  }
  return { q, exact: out.filter((r): r is Range => r !== undefined) };
}

/** What compiling a typed token depends on: tokens with the same key match the same contact tokens. */
export const tokenKey = (q: QueryToken) => `${q.kind}|${q.international ? 1 : 0}|${q.term}`;

/**
 * How many compiled tokens an index base keeps for the next queries, typo ranges included (all
 * 6,800 distinct tokens of the distinct typing traffic at a million contacts, with their typo ranges
 * and buckets, measured within a few MB). With 4,096 kept, oldest dropped first, its first 20,000
 * queries compiled 10,900 of their 40,000 tokens again, and their typo ranges.
 */
const KEPT = 16_384;
/** Per base (immutable until the next build, which makes a new one): compiled tokens by tokenKey, least recently used first. */
const kept = new WeakMap<object, Map<string, Compiled>>();

/**
 * The query's tokens compiled; a token typed again is the same object (its options are collected
 * once per contact). Compiled tokens are kept per index base: typing traffic repeats its prefixes
 * ("ja", "jo", "mar") across queries, and compiling one is binary searches in the front-coded
 * dictionary, a typo-prone one dozens (ensureTypo's ranges are kept with it).
 */
export function compileAll(index: SearchIndex, query: readonly QueryToken[]): Compiled[] {
  let known = kept.get(index.base);
  if (!known) kept.set(index.base, (known = new Map()));
  const made = known;
  return query.map((q) => {
    const key = tokenKey(q);
    let c = made.get(key);
    if (c)
      made.delete(key); // used again: last to go
    else {
      c = compile(index, q);
      if (made.size >= KEPT) made.delete(made.keys().next().value!);
    }
    made.set(key, c);
    return c;
  });
}

/** The distinct tokens (a token typed again is the same object: compileAll). */
export const distinct = (toks: readonly Compiled[]): Compiled[] => [...new Set(toks)];

/** The ranges of the token's whole-word matches: its exact ranges' own term, one id each. */
export const wholes = (tok: Compiled): Range[] =>
  tok.exact
    .filter((r) => r.exact >= 0)
    .map((r) => ({ lo: r.exact, hi: r.exact + 1, exact: r.exact }));

/** The exact ranges that are not variants (the whole and prefix tiers). */
export const spelled = (tok: Compiled): Range[] => tok.exact.filter((r) => !r.variant);

/** The variant ranges (the variant tier). */
export const variants = (tok: Compiled): Range[] => tok.exact.filter((r) => r.variant);

/** Every range the token matches, typos included (once computed). */
export const allRanges = (tok: Compiled): Range[] => [...tok.exact, ...(tok.typo ?? [])];

/**
 * Ranges of the terms that `q` matches with one edit after its first character: every such term starts
 * with a string v within one edit of q (|v| = |q|−1, |q|, |q|+1), so each v found in the dictionary
 * is a prefix range. Substitutions and insertions only try the characters the dictionary actually
 * has at that point (found by jumping through the sorted terms), not an alphabet.
 */
function typoRanges(index: SearchIndex, q: string): Range[] {
  const variants = new Set<string>();
  const L = q.length;
  const nextChars = (prefix: string): string[] => {
    const [lo0, hi] = index.prefixRange(prefix);
    const out: string[] = [];
    let i = lo0;
    while (i < hi) {
      const t = index.termAt(i);
      if (t.length <= prefix.length) {
        i++;
        continue;
      }
      const ch = t[prefix.length];
      out.push(ch);
      i = index.lowerBound(prefix + ch + '\uffff', i);
    }
    return out;
  };
  for (let i = 1; i < L; i++) {
    variants.add(q.slice(0, i) + q.slice(i + 1)); // delete
    if (i < L - 1) variants.add(q.slice(0, i) + q[i + 1] + q[i] + q.slice(i + 2)); // swap neighbours
    for (const ch of nextChars(q.slice(0, i))) {
      if (ch !== q[i]) variants.add(q.slice(0, i) + ch + q.slice(i + 1)); // substitute
      variants.add(q.slice(0, i) + ch + q.slice(i)); // insert
    }
  }
  const out: Range[] = [];
  for (const v of variants) {
    if (v.length < 2 || v === q || (q.startsWith(v) && v.length === L)) continue;
    const r = range(index, v, false);
    if (r) out.push(r);
  }
  return out;
}

export function ensureTypo(index: SearchIndex, c: Compiled): Range[] {
  if (!c.typo) {
    c.typo = typoAllowed(c.q) ? typoRanges(index, c.q.term) : [];
    c.tests = undefined; // made again with the typo ranges
  }
  return c.typo;
}
