/**
 * GetSearchFilters (CONTRACT.md §5): the filter panel, one entry per filterable field, with its
 * control, the operators validation accepts, disjunctive option counts and ranges.
 */
import { FIELDS, type FieldDef } from '../fields/schema.ts';
import type { Document } from '../render/as-type.ts';
import type { OperationContext } from './context.ts';
import { readMembers } from './params.ts';
import { requestMembers } from './request-members.ts';
import { countValues, valueRange } from '../search/select/facets.ts';
import { OPERATORS_BY_TYPE } from '../search/select/filters.ts';
import { readSelection } from './read-selection.ts';
import { resolveView } from './views.ts';

/** Fields with at most this many distinct values are offered as MultiSelect with counts. */
const SELECT_MAX = 60;

export function controlOf(f: FieldDef): string {
  switch (f.type) {
    case 'Date':
      return 'DateRange';
    case 'Number':
      return 'NumberRange';
    case 'Boolean':
      return 'Checkbox';
    default:
      return f.facetable ? 'MultiSelect' : f.predictive ? 'Predictive' : 'Text';
  }
}

export function getSearchFilters(ctx: OperationContext): Document {
  const p = readMembers(ctx.params, requestMembers('GetSearchFilters', ctx.limits));
  const db = ctx.db!;
  const view = p.View === undefined ? undefined : resolveView(db, p.View as string);
  const sel = readSelection(
    { Query: p.Query ?? view?.saved?.Query, Filters: p.Filters ?? view?.saved?.Filters },
    ctx.limits,
    undefined,
    ctx.deadline,
  );
  ctx.diag.request = {
    Query: sel.query,
    Filters: sel.filters.map((f) => ({ Field: f.field.name, Op: f.op, Values: f.values })),
  };
  const filters = FIELDS.filter((f) => f.filterable).map((f) => {
    let control = controlOf(f);
    const selected = sel.filters.filter((x) => x.field.name === f.name).flatMap((x) => x.values);
    const out: Record<string, unknown> = {
      Field: f.name,
      Label: f.label,
      Type: f.type,
      Control: control,
      Operators: OPERATORS_BY_TYPE[f.type],
      Options: null,
      Min: null,
      Max: null,
      Selected: selected,
    };
    if (control === 'MultiSelect') {
      const values = countValues(db.index, sel, f);
      if (values.length > SELECT_MAX) {
        control = f.predictive ? 'Predictive' : 'Text'; // too many values to list: suggest as the user types
        out.Control = control;
      } else {
        out.Options = values;
      }
    } else if (control === 'DateRange' || control === 'NumberRange') {
      const { min, max } = valueRange(db.index, sel, f);
      out.Min = min ?? null;
      out.Max = max ?? null;
    }
    return out;
  });
  return { Filters: filters };
}
