/**
 * Disjunctive facet counts (CONTRACT.md §5): a field's counts apply the query and every filter except
 * that field's own, so choosing a value never hides its siblings.
 */
import type { FieldDef } from '../../fields/schema.ts';
import type { IndexedContactDatabase } from '../../store/contact-database.ts';
import type { ContactDatabase } from '../../store/database.ts';
import { getter } from './filters.ts';
import { matching, type Selection } from './selection.ts';

export interface FacetValue { Value: string; Label: string; Count: number }

export function countValues(db: ContactDatabase, sel: Selection, f: FieldDef): FacetValue[] {
  const idx = (db as IndexedContactDatabase).index;
  const counts = new Map<string, number>();
  const get = getter(f);
  for (const ord of matching(db, sel, f.name).ords) {
    const v = get(idx.doc(ord)!);
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const s = String(v[i]);
        if (v.indexOf(v[i]) === i) counts.set(s, (counts.get(s) ?? 0) + 1); // each value once per contact
      }
    } else {
      const s = String(v);
      counts.set(s, (counts.get(s) ?? 0) + 1);
    }
  }
  return [...counts].map(([Value, Count]) => ({ Value, Label: Value, Count }))
    .sort((a, b) => b.Count - a.Count || (a.Label < b.Label ? -1 : a.Label > b.Label ? 1 : 0));
}

export function facetCounts(db: ContactDatabase, sel: Selection, fields: readonly FieldDef[]) {
  return fields.map((f) => ({ Field: f.name, Values: countValues(db, sel, f) }));
}
