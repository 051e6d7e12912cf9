/**
 * The rows whose contacts hold given index terms, read from the postings, for an import's
 * likely-duplicate search (service/requests/duplicates.ts): a file's emails and phones found without
 * reading every contact (a pass over a million rows was ~1.8 s of the main thread for every import,
 * even of one row; ten times that at 10M).
 */
import { nextTurn, timeSlice } from '../../next-turn.ts';
import { hasBit } from '../bits.ts';
import { classFrom, classTo } from '../heads.ts';
import { normalize } from '../normalize.ts';
import { CLASSES, EMAIL_NS, reverse, SUFFIX_NS, type Base } from './base.ts';

/**
 * An index as a scan of it started (SearchIndex.scan): its base, its segments (each a base over
 * table rows from `from` on), its table's row count and live rows. A build or an attach meanwhile
 * makes new objects, so the lookups, done in slices, read one state throughout.
 */
export interface TermSource {
  readonly base: Base;
  readonly segments: readonly {
    readonly index: { readonly base: Base };
    readonly from: number;
    readonly to: number;
  }[];
  readonly rows: number;
  readonly alive: Uint32Array;
}

/**
 * The live rows, ascending, with an email whose address normalised (the whole-address term) is one
 * of `emails` normalised, or a phone whose digits as indexed (its first variant, reversed under
 * SUFFIX_NS) end with one of `phoneEnds`; and every live delta row, whose tokens are kept as entries
 * and not in postings (few: the caller tests them as it tests any row). A superset of the rows
 * holding those emails or phone endings: the caller reads each row it keeps. Looked up in slices of
 * a few milliseconds (100,000 rows' keys are ~0.35 s of lookups).
 */
export async function rowsWithTerms(
  src: TermSource,
  emails: readonly string[],
  phoneEnds: readonly string[],
): Promise<Uint32Array> {
  const exact = emails.map((e) => EMAIL_NS + normalize(e.trim()));
  const prefixes = phoneEnds.map((d) => SUFFIX_NS + reverse(d));
  const out: number[] = [];
  const due = timeSlice();
  const parts = [
    { base: src.base, from: 0 },
    ...src.segments.map((s) => ({ base: s.index.base, from: s.from })),
  ];
  for (const { base, from } of parts) {
    const add = (lo: number, hi: number) => {
      for (let c = 0; c < CLASSES; c++)
        for (let i = classFrom(base, c, lo, hi), to = classTo(base, c, lo, hi); i < to; i++)
          out.push(from + base.post[i]);
    };
    for (const t of exact) {
      if (due()) await nextTurn();
      const [lo, hi] = base.terms.prefixRange(t);
      if (lo < hi && base.terms.isTerm(lo, t)) add(lo, lo + 1);
    }
    for (const p of prefixes) {
      if (due()) await nextTurn();
      const [lo, hi] = base.terms.prefixRange(p);
      if (lo < hi) add(lo, hi);
    }
  }
  // The delta, over the state captured (SearchIndex.deltaOrdinals reads the index as it is now).
  const delta = deltaRanges(src.base.n, src.segments, src.rows);
  for (let k = 0; k < delta.length; k += 2)
    for (let r = delta[k]; r < delta[k + 1]; r++) out.push(r);
  const rows = Uint32Array.from(out.filter((r) => hasBit(src.alive, r))).sort();
  let n = 0;
  for (let i = 0; i < rows.length; i++) if (i === 0 || rows[i] !== rows[i - 1]) rows[n++] = rows[i];
  return rows.subarray(0, n);
}

/**
 * The delta's rows, live or not: the table's rows after the base's `baseN` that no segment holds,
 * as [from, to) pairs flattened (a pair a gap between segments, and the tail). Ranges, not a row at
 * a time through a generator: a search walks them for every query while the delta holds rows.
 */
export function deltaRanges(
  baseN: number,
  segments: readonly { readonly from: number; readonly to: number }[],
  rows: number,
): number[] {
  const out: number[] = [];
  let i = baseN;
  for (const s of segments) {
    if (i < s.from) out.push(i, s.from);
    i = s.to;
  }
  if (i < rows) out.push(i, rows);
  return out;
}
