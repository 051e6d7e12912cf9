/**
 * Disjunctive facet counts (CONTRACT.md §5): a field's counts apply the query and every filter except
 * that field's own, so choosing a value never hides its siblings. Counted per dictionary id over the
 * field's column, then named; a value counts once per contact even when a list holds it twice.
 */
import type { FieldDef } from '../../fields/schema.ts';
import { ranksOf } from '../../search/table/ranks.ts';
import type { IndexedContactDatabase } from '../../store/contact-database.ts';
import type { ContactDatabase } from '../../store/database.ts';
import { eachMatching, type Selection } from './selection.ts';

export interface FacetValue { Value: string; Label: string; Count: number }

const tableOf = (db: ContactDatabase) => (db as IndexedContactDatabase).index.table;

export function countValues(db: ContactDatabase, sel: Selection, f: FieldDef): FacetValue[] {
  const col = tableOf(db).column(f.name);
  const dict = col.dict;
  const counts = new Uint32Array(dict.size);
  const ids = col.ids.a, offs = col.offs?.a;
  eachMatching(db, sel, f.name, offs ? (ord) => {
    for (let i = offs[ord], to = offs[ord + 1]; i < to; i++) {
      let dup = false;
      for (let j = offs[ord]; j < i && !dup; j++) dup = ids[j] === ids[i] || (!dict.deduplicated && dict.value(ids[j]) === dict.value(ids[i]));
      if (!dup) counts[ids[i]]++;
    }
  } : (ord) => { counts[ids[ord]]++; });
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
