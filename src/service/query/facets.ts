/**
 * Disjunctive facet counts (CONTRACT.md §5): a field's counts apply the query and every filter except
 * that field's own, so choosing a value never hides its siblings. Counted per dictionary id over the
 * field's column, then named; a value counts once per contact even when a list holds it twice.
 */
import type { FieldDef } from '../../fields/schema.ts';
import type { Column } from '../../search/table/contact-table.ts';
import { grown } from '../../search/table/growable.ts';
import { ranksOf } from '../../search/table/ranks.ts';
import type { IndexedContactDatabase } from '../../store/contact-database.ts';
import type { ContactDatabase } from '../../store/database.ts';
import { eachMatching, matchingWords, type Selection } from './selection.ts';

export interface FacetValue { Value: string; Label: string; Count: number }

const tableOf = (db: ContactDatabase) => (db as IndexedContactDatabase).index.table;

/**
 * Per row of a list column, its values as a bitmask of dictionary ids (ids 1–31: Tags), kept per
 * column and extended as rows are appended: a row's count is one read of one array, where the list
 * takes two reads far apart (offsets, then ids) and a check for repeats. Undefined for a bigger
 * dictionary.
 */
const maskCache = new WeakMap<Column, { masks: Int32Array; upTo: number }>();

function rowMasks(col: Column): Int32Array | undefined {
  const offs = col.offs;
  if (!offs || !col.dict.deduplicated || col.dict.size > 32) return undefined;
  const rows = offs.n - 1;
  let m = maskCache.get(col);
  if (!m) { m = { masks: new Int32Array(rows), upTo: 0 }; maskCache.set(col, m); }
  if (m.upTo < rows) {
    if (m.masks.length < rows) m.masks = grown(m.masks, rows);
    const o = offs.a, ids = col.ids.a, masks = m.masks;
    for (let r = m.upTo; r < rows; r++) {
      let x = 0;
      for (let i = o[r], to = o[r + 1]; i < to; i++) x |= 1 << ids[i];
      masks[r] = x & ~1; // id 0: no value
    }
    m.upTo = rows;
  }
  return m.masks;
}

export function countValues(db: ContactDatabase, sel: Selection, f: FieldDef): FacetValue[] {
  const col = tableOf(db).column(f.name);
  const dict = col.dict;
  const counts = new Uint32Array(dict.size);
  const ids = col.ids.a, offs = col.offs?.a;
  const masks = rowMasks(col);
  const { at, w, count } = matchingWords(db, sel, f.name);
  sel.budget?.spend?.(count);
  for (let k = 0; k < at.length; k++) {
    for (let x = w[k]; x !== 0; x ^= x & -x) {
      const ord = (at[k] << 5) | (31 - Math.clz32(x & -x));
      if (masks) {
        for (let y = masks[ord]; y !== 0; y ^= y & -y) counts[31 - Math.clz32(y & -y)]++;
      } else if (!offs) counts[ids[ord]]++;
      else {
        for (let i = offs[ord], to = offs[ord + 1]; i < to; i++) {
          let dup = false;
          for (let j = offs[ord]; j < i && !dup; j++) dup = ids[j] === ids[i] || (!dict.deduplicated && dict.value(ids[j]) === dict.value(ids[i]));
          if (!dup) counts[ids[i]]++;
        }
      }
    }
  }
  const byValue = new Map<string, number>();
  for (let id = 1; id < counts.length; id++) {
    if (counts[id] === 0) continue;
    const v = dict.value(id);
    if (v !== '') byValue.set(v, (byValue.get(v) ?? 0) + counts[id]); // a buffer dictionary may hold a value twice
  }
  return [...byValue].map(([Value, Count]) => ({ Value, Label: Value, Count }))
    .sort((a, b) => b.Count - a.Count || (a.Label < b.Label ? -1 : a.Label > b.Label ? 1 : 0));
}

export function facetCounts(db: ContactDatabase, sel: Selection, fields: readonly FieldDef[]) {
  return fields.map((f) => ({ Field: f.name, Values: countValues(db, sel, f) }));
}

/** The smallest and largest value (plain string order) of a field over the selection without that field's filters. */
export function valueRange(db: ContactDatabase, sel: Selection, f: FieldDef): { min?: string; max?: string } {
  const col = tableOf(db).column(f.name);
  const { rank, size, missing } = ranksOf(col.dict, 'raw');
  const ids = col.ids.a, offs = col.offs?.a;
  let lo = missing, hi = -1, loId = 0, hiId = 0;
  let min: string | undefined, max: string | undefined;
  const see = (id: number) => {
    if (id === 0) return;
    if (id < size) {
      const r = rank[id];
      if (r === missing) return;
      if (r < lo) { lo = r; loId = id; }
      if (r > hi) { hi = r; hiId = id; }
      return;
    }
    const v = col.dict.value(id); // newer than the rank table
    if (v === '') return;
    if (min === undefined || v < min) min = v;
    if (max === undefined || v > max) max = v;
  };
  eachMatching(db, sel, f.name, offs ? (ord) => { for (let i = offs[ord], to = offs[ord + 1]; i < to; i++) see(ids[i]); } : (ord) => see(ids[ord]));
  if (hi >= 0) {
    const a = col.dict.value(loId), b = col.dict.value(hiId);
    if (min === undefined || a < min) min = a;
    if (max === undefined || b > max) max = b;
  }
  return { min, max };
}
