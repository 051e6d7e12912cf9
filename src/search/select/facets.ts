/**
 * Disjunctive facet counts (CONTRACT.md §5): a field's counts apply the query and every filter except
 * that field's own, so choosing a value never hides its siblings. Counted per dictionary id over the
 * field's column, then named; a value counts once per contact even when a list holds it twice.
 */
import type { FieldDef } from '../../fields/schema.ts';
import type { Column } from '../table/contact-table.ts';
import { grown } from '../table/growable.ts';
import { ranksOf } from '../table/ranks.ts';
import type { SearchIndex } from '../search-index.ts';
import { forEachListed, type WordList } from '../bits.ts';
import { eachMatching, matchingWords, type Selection } from './selection.ts';

export interface FacetValue {
  Value: string;
  Label: string;
  Count: number;
}

/**
 * Per row, a facet column's values in the fewest bytes, kept per column and extended as rows are
 * appended: a scalar column of at most 255 values as one byte per row (`code8`: the id), a list column
 * of at most 31 values as a bitmask of its ids (`mask16`/`mask32`), so a value listed twice counts
 * once by itself. Counting reads one small entry per matching row — scattered reads, which cost a
 * cache miss each, over 1–2 MB instead of the 4 MB id column (and for a list, its offsets too).
 * Undefined for bigger dictionaries (counted from the ids).
 */
type Codes =
  | { kind: 'code8'; a: Uint8Array }
  | { kind: 'mask16'; a: Uint16Array }
  | { kind: 'mask32'; a: Int32Array };
const codeCache = new WeakMap<Column, { codes: Codes; upTo: number }>();

function rowCodes(col: Column): Codes | undefined {
  const size = col.dict.size,
    offs = col.offs;
  const kind = offs
    ? !col.dict.deduplicated || size > 32
      ? undefined
      : size <= 16
        ? 'mask16'
        : 'mask32'
    : size <= 256
      ? 'code8'
      : undefined;
  if (!kind) return undefined;
  const rows = offs ? offs.n - 1 : col.ids.n;
  let c = codeCache.get(col);
  if (!c || c.codes.kind !== kind) {
    const a =
      kind === 'code8'
        ? new Uint8Array(rows)
        : kind === 'mask16'
          ? new Uint16Array(rows)
          : new Int32Array(rows);
    c = { codes: { kind, a } as Codes, upTo: 0 };
    codeCache.set(col, c);
  }
  if (c.upTo < rows) {
    if (c.codes.a.length < rows) c.codes.a = grown(c.codes.a, rows);
    const out = c.codes.a,
      ids = col.ids.a;
    if (offs) {
      const o = offs.a;
      for (let r = c.upTo; r < rows; r++) {
        let x = 0;
        for (let i = o[r], to = o[r + 1]; i < to; i++) x |= 1 << ids[i];
        out[r] = x & ~1; // id 0: no value
      }
    } else out.set(ids.subarray(c.upTo, rows), c.upTo);
    c.upTo = rows;
  }
  return c.codes;
}

/** A histogram of a list column's mask bytes (four bytes of 256 counts), all zero between uses. */
const byteCounts = new Uint32Array(1024);

/** Adds each matching row's values to `counts` (by dictionary id). */
function countInto(counts: Uint32Array, col: Column, set: WordList): void {
  const { at, w } = set;
  const codes = rowCodes(col);
  if (codes?.kind === 'code8') {
    const a = codes.a;
    for (let k = 0; k < at.length; k++)
      for (let x = w[k], base = at[k] << 5; x !== 0; x ^= x & -x)
        counts[a[base | (31 - Math.clz32(x & -x))]]++;
  } else if (codes) {
    // Per row, each byte of its mask counted as one histogram entry; each byte value's bits added
    // once at the end. Walking every row's bits was twice the time (a row holds two or three tags).
    const a = codes.a,
      h = byteCounts;
    if (codes.kind === 'mask16') {
      for (let k = 0; k < at.length; k++) {
        for (let x = w[k], base = at[k] << 5; x !== 0; x ^= x & -x) {
          const y = a[base | (31 - Math.clz32(x & -x))];
          h[y & 255]++;
          h[256 | (y >>> 8)]++;
        }
      }
    } else {
      for (let k = 0; k < at.length; k++) {
        for (let x = w[k], base = at[k] << 5; x !== 0; x ^= x & -x) {
          const y = a[base | (31 - Math.clz32(x & -x))];
          h[y & 255]++;
          h[256 | ((y >>> 8) & 255)]++;
          h[512 | ((y >>> 16) & 255)]++;
          h[768 | (y >>> 24)]++;
        }
      }
    }
    const bytes = codes.kind === 'mask16' ? 2 : 4;
    for (let b = 0; b < bytes; b++) {
      for (let v = 1; v < 256; v++) {
        const n = h[(b << 8) | v];
        if (n === 0) continue;
        h[(b << 8) | v] = 0;
        for (let y = v; y !== 0; y ^= y & -y) counts[(b << 3) | (31 - Math.clz32(y & -y))] += n;
      }
      h[b << 8] = 0;
    }
  } else {
    const dict = col.dict,
      ids = col.ids.a,
      offs = col.offs?.a;
    forEachListed(
      set,
      offs
        ? (ord) => {
            for (let i = offs[ord], to = offs[ord + 1]; i < to; i++) {
              let dup = false;
              for (let j = offs[ord]; j < i && !dup; j++)
                dup =
                  ids[j] === ids[i] ||
                  (!dict.deduplicated && dict.value(ids[j]) === dict.value(ids[i]));
              if (!dup) counts[ids[i]]++;
            }
          }
        : (ord) => {
            counts[ids[ord]]++;
          },
    );
  }
}

export function countValues(idx: SearchIndex, sel: Selection, f: FieldDef): FacetValue[] {
  const col = idx.table.column(f.name);
  const dict = col.dict;
  const counts = new Uint32Array(dict.size);
  const set = matchingWords(idx, sel, f.name);
  sel.budget?.spend(set.count);
  countInto(counts, col, set);
  const byValue = new Map<string, number>();
  for (let id = 1; id < counts.length; id++) {
    if (counts[id] === 0) continue;
    const v = dict.value(id);
    if (v !== '') byValue.set(v, (byValue.get(v) ?? 0) + counts[id]); // a buffer dictionary may hold a value twice
  }
  return [...byValue]
    .map(([Value, Count]) => ({ Value, Label: Value, Count }))
    .sort((a, b) => b.Count - a.Count || (a.Label < b.Label ? -1 : a.Label > b.Label ? 1 : 0));
}

export function facetCounts(idx: SearchIndex, sel: Selection, fields: readonly FieldDef[]) {
  return fields.map((f) => ({ Field: f.name, Values: countValues(idx, sel, f) }));
}

/** The smallest and largest value (plain string order) of a field over the selection without that field's filters. */
export function valueRange(
  idx: SearchIndex,
  sel: Selection,
  f: FieldDef,
): { min?: string; max?: string } {
  const col = idx.table.column(f.name);
  const { rank, size, missing } = ranksOf(col.dict, 'raw');
  const ids = col.ids.a,
    offs = col.offs?.a;
  let lo = missing,
    hi = -1,
    loId = 0,
    hiId = 0;
  let min: string | undefined, max: string | undefined;
  const see = (id: number) => {
    if (id === 0) return;
    if (id < size) {
      const r = rank[id];
      if (r === missing) return;
      if (r < lo) {
        lo = r;
        loId = id;
      }
      if (r > hi) {
        hi = r;
        hiId = id;
      }
      return;
    }
    const v = col.dict.value(id); // newer than the rank table
    if (v === '') return;
    if (min === undefined || v < min) min = v;
    if (max === undefined || v > max) max = v;
  };
  eachMatching(
    idx,
    sel,
    f.name,
    offs
      ? (ord) => {
          for (let i = offs[ord], to = offs[ord + 1]; i < to; i++) see(ids[i]);
        }
      : (ord) => see(ids[ord]),
  );
  if (hi >= 0) {
    const a = col.dict.value(loId),
      b = col.dict.value(hiId);
    if (min === undefined || a < min) min = a;
    if (max === undefined || b > max) max = b;
  }
  return { min, max };
}
