/**
 * GetPredictiveOptionsSearchContacts (CONTRACT.md §5): type-ahead over contacts, best first, with
 * the matched characters located in the original text for highlighting.
 */
import type { FieldName } from '../fields/schema.ts';
import type { Document } from '../render/as-type.ts';
import { highlight, search, variantHighlight } from '../search/match.ts';
import type { OperationContext } from './context.ts';
import { readMembers } from './params.ts';
import { requestMembers } from './request-members.ts';
import { compileFilter } from '../search/select/filters.ts';
import { matching, type Selection } from '../search/select/selection.ts';
import { readSelection } from './read-selection.ts';
import { sortSmall } from '../search/sort-small.ts';

/** The fields an option shows, read ahead for all the options at once (ContactTable.readAhead). */
const OPTION_FIELDS: readonly FieldName[] = ['DisplayName', 'Organization', 'ContactId', 'Emails'];

/** What readSelection gives for no Query and no Filters (read only: nothing is added to it). */
const NO_SELECTION: Readonly<Pick<Selection, 'query' | 'filters' | 'sort'>> = Object.freeze({
  query: '',
  filters: Object.freeze([]) as unknown as Selection['filters'],
  sort: Object.freeze([]) as unknown as Selection['sort'],
});

export function getPredictiveOptionsSearchContacts(ctx: OperationContext): Document {
  const p = readMembers(
    ctx.params,
    requestMembers('GetPredictiveOptionsSearchContacts', ctx.limits),
  );
  const text = (p.Text as string | undefined) ?? '';
  const limit = (p.Limit as number | undefined) ?? 10;
  const db = ctx.db!;
  ctx.diag.request = { Text: text, Limit: limit };
  if (!text.trim()) return { Text: text, Options: [], More: false };
  // Text drives the ranking; Query (if any) and Filters narrow the candidates.
  // Most type-ahead requests narrow nothing: no selection read for them.
  const narrow =
    p.Query === undefined && p.Filters === undefined
      ? NO_SELECTION
      : readSelection({ Query: p.Query, Filters: p.Filters }, ctx.limits, undefined, ctx.deadline);
  const allowed = narrow.query.trim()
    ? new Set(matching(db.index, { ...narrow, filters: [] }).ords)
    : undefined;
  const preds = narrow.filters.map((f) => compileFilter(f, db.index.table));
  const within =
    allowed || preds.length
      ? (ord: number) => (!allowed || allowed.has(ord)) && preds.every((p) => p(ord))
      : undefined;
  // Only the first Limit (+1, for More) are needed: short prefixes take the early-stopping scan.
  const r = search(db.index, text, within, limit + 1, undefined, ctx.deadline);
  ctx.diag.candidates = r.candidates;
  // An option reads 4–6 of its fields, each straight from its column (no contact object), and where
  // its matched tokens lie from the index's spans (no field tokenised).
  const table = db.index.table;
  const shown = r.hits.slice(0, limit);
  db.index.readAhead(
    shown.map((h) => h.ord),
    OPTION_FIELDS,
    true,
  );
  const options = shown.map((hit) => {
    const ord = hit.ord;
    const displayName = table.value(ord, 'DisplayName') ?? '';
    const organization = table.value(ord, 'Organization');
    const spans = db.index.spansAt(
      ord,
      hit.matches.map((m) => m.entry),
    );
    const matches = sortSmall(
      hit.matches.map((m, i) => {
        const e = spans[i];
        const field = e.field as FieldName;
        const original =
          field === 'DisplayName'
            ? displayName
            : e.item !== undefined
              ? String((table.column(field).read(ord) as string[])[e.item])
              : (table.value(ord, field) ?? '');
        const at =
          e.kind === 'phone'
            ? { start: e.start, length: e.length }
            : m.variant
              ? variantHighlight(original, e.start, e.length, m.typed)
              : highlight(original, e.start, e.length, m.typed, e.kind);
        return e.item !== undefined
          ? { Field: e.field, Item: e.item, Start: at.start, Length: at.length }
          : { Field: e.field, Start: at.start, Length: at.length };
      }),
      (a, b) => (a.Field < b.Field ? -1 : a.Field > b.Field ? 1 : a.Start - b.Start),
    );
    const email = table.value(ord, 'Emails');
    return {
      ContactId: table.value(ord, 'ContactId'),
      Label: displayName,
      // Organization · first email, either alone, or '' (no arrays made per option for it)
      Description: organization
        ? email
          ? `${organization} · ${email}`
          : organization
        : (email ?? ''),
      Matches: matches,
    };
  });
  return { Text: text, Options: options, More: r.hits.length > limit };
}
