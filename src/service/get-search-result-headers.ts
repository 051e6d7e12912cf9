/** GetSearchResultHeaders (CONTRACT.md §5): the grid's columns for a view or a field list, from the field schema. */
import { FIELDS, type FieldDef } from '../fields/schema.ts';
import type { Document } from '../render/as-type.ts';
import type { OperationContext } from './context.ts';
import { readMembers } from './params.ts';
import { requestMembers } from './request-members.ts';
import { readFields } from './read-selection.ts';
import { resolveView } from './views.ts';

export function header(f: FieldDef, visible: boolean) {
  return {
    Field: f.name,
    Label: f.label,
    Type: f.type,
    Sortable: f.sortable,
    Width: f.width,
    Align: f.align,
    Format: f.format ?? null,
    Visible: visible,
  };
}

export function getSearchResultHeaders(ctx: OperationContext): Document {
  const p = readMembers(ctx.params, requestMembers('GetSearchResultHeaders', ctx.limits));
  const fields = readFields(p.Fields, '$.Fields');
  const view = fields
    ? { name: 'Custom', fields }
    : resolveView(ctx.db, p.View as string | undefined);
  const shown = new Set(view.fields.map((f) => f.name));
  ctx.diag.request = { View: view.name, Fields: view.fields.map((f) => f.name) };
  // The view's columns first, in its order; the other fields after them, hidden, for column choosers.
  return {
    View: view.name,
    Headers: [
      ...view.fields.map((f) => header(f, true)),
      ...FIELDS.filter((f) => !shown.has(f.name)).map((f) => header(f, false)),
    ],
  };
}
