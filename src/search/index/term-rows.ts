/**
 * The rows whose contacts hold given index terms, read from the postings, for an import's
 * likely-duplicate search (service/requests/duplicates.ts): a file's emails and phones found without
 * reading every contact (a pass over a million rows was ~1.8 s of the main thread for every import,
 * even of one row; ten times that at 10M).
 */
import { normalize } from '../normalize.ts';
import { CLASSES, EMAIL_NS, reverse, SUFFIX_NS, type Base } from './base.ts';

/** What of a SearchIndex this reads (named here: search-index.ts imports this file). */
export interface TermIndex {
  readonly base: Pick<Base, 'post'>;
  readonly segments: readonly { readonly index: TermIndex; readonly from: number }[];
  prefixRange(prefix: string): [number, number];
  isTerm(i: number, term: string): boolean;
  postingFrom(c: number, lo: number, hi: number): number;
  postingTo(c: number, lo: number, hi: number): number;
  deltaOrdinals(): Iterable<number>;
  isLive(row: number): boolean;
}

/**
 * The live rows, ascending, with an email whose address normalised (the whole-address term) is one
 * of `emails` normalised, or a phone whose digits as indexed (its first variant, reversed under
 * SUFFIX_NS) end with one of `phoneEnds`; and every live delta row, whose tokens are kept as entries
 * and not in postings (few: the caller tests them as it tests any row). A superset of the rows
 * holding those emails or phone endings: the caller reads each row it keeps.
 */
export function rowsWithTerms(
  index: TermIndex,
  emails: readonly string[],
  phoneEnds: readonly string[],
): Uint32Array {
  const exact = emails.map((e) => EMAIL_NS + normalize(e.trim()));
  const prefixes = phoneEnds.map((d) => SUFFIX_NS + reverse(d));
  const out: number[] = [];
  const collect = (ix: TermIndex, from: number) => {
    const post = ix.base.post;
    const add = (lo: number, hi: number) => {
      for (let c = 0; c < CLASSES; c++)
        for (let i = ix.postingFrom(c, lo, hi), to = ix.postingTo(c, lo, hi); i < to; i++)
          out.push(from + post[i]);
    };
    for (const t of exact) {
      const [lo, hi] = ix.prefixRange(t);
      if (lo < hi && ix.isTerm(lo, t)) add(lo, lo + 1);
    }
    for (const p of prefixes) {
      const [lo, hi] = ix.prefixRange(p);
      if (lo < hi) add(lo, hi);
    }
  };
  collect(index, 0);
  for (const s of index.segments) collect(s.index, s.from);
  for (const row of index.deltaOrdinals()) out.push(row);
  const rows = Uint32Array.from(out.filter((r) => index.isLive(r))).sort();
  let n = 0;
  for (let i = 0; i < rows.length; i++) if (i === 0 || rows[i] !== rows[i - 1]) rows[n++] = rows[i];
  return rows.subarray(0, n);
}
