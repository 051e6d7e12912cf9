/**
 * GetPredictiveOptions (CONTRACT.md §5): distinct values of one predictive field whose words start
 * with the typed text, counted under Query and the other Filters, by Count then Label — the values
 * spelled as typed first, then those met through a variant spelling (CONTRACT §4: a variant never
 * crowds out an exact match; search/value-match.ts).
 */
import { fail } from '../errors.ts';
import { field } from '../fields/schema.ts';
import type { Document } from '../render/as-type.ts';
import { queryTokens } from '../search/tokenize.ts';
import { valueTier } from '../search/value-match.ts';
import type { OperationContext } from './context.ts';
import { readMembers } from './params.ts';
import { requestMembers } from './request-members.ts';
import { countValues } from '../search/select/facets.ts';
import { readSelection } from './read-selection.ts';

const PARAM = 'StringOfJSONParameters';

export function getPredictiveOptions(ctx: OperationContext): Document {
  const p = readMembers(ctx.params, requestMembers('GetPredictiveOptions', ctx.limits));
  const def = field(p.Field as string);
  if (!def || !def.predictive) {
    throw fail(
      'UnknownField',
      `$.Field: "${p.Field as string}" is not a field with value suggestions.`,
      { parameter: PARAM, path: '$.Field' },
    );
  }
  const text = (p.Text as string | undefined) ?? '';
  const limit = (p.Limit as number | undefined) ?? 10;
  const sel = readSelection(
    { Query: p.Query, Filters: p.Filters },
    ctx.limits,
    undefined,
    ctx.deadline,
  );
  const typed = queryTokens(text).map((t) => t.term);
  const given = def.name === 'FirstName';
  const tiers = [[], []] as ReturnType<typeof countValues>[];
  for (const v of countValues(ctx.db!.index, sel, def)) {
    const tier = valueTier(v.Value, typed, given);
    if (tier !== undefined) tiers[tier].push(v);
  }
  const all = [...tiers[0], ...tiers[1]];
  ctx.diag.candidates = all.length;
  ctx.diag.request = { Field: def.name, Text: text, Limit: limit, Query: sel.query };
  return { Field: def.name, Text: text, Options: all.slice(0, limit), More: all.length > limit };
}
