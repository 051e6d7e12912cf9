/**
 * GetPredictiveOptions (CONTRACT.md §5): distinct values of one predictive field whose words start
 * with the typed text, counted under Query and the other Filters, by Count then Label.
 */
import { fail } from '../errors.ts';
import { field } from '../fields/schema.ts';
import type { Document } from '../render/as-type.ts';
import { normalize } from '../search/normalize.ts';
import { queryTokens, tokenTerms, wordTokens } from '../search/tokenize.ts';
import type { OperationContext } from './context.ts';
import { readMembers } from './params.ts';
import { requestMembers } from './request-members.ts';
import { countValues } from '../search/select/facets.ts';
import { readSelection } from './read-selection.ts';

const PARAM = 'StringOfJSONParameters';

/** Every typed token is a prefix of a different word of the value (or of a word's part after an apostrophe, as in search). */
export function valueMatches(value: string, typed: readonly string[]): boolean {
  const words = wordTokens(value).flatMap(tokenTerms);
  const whole = normalize(value);
  const used = new Set<number>();
  return typed.every((q) => {
    const i = words.findIndex((w, j) => !used.has(j) && w.startsWith(q));
    if (i >= 0) {
      used.add(i);
      return true;
    }
    return whole.startsWith(q); // e.g. an email or code typed with punctuation
  });
}

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
  const all = countValues(ctx.db!.index, sel, def).filter((v) => valueMatches(v.Value, typed));
  ctx.diag.candidates = all.length;
  ctx.diag.request = { Field: def.name, Text: text, Limit: limit, Query: sel.query };
  return { Field: def.name, Text: text, Options: all.slice(0, limit), More: all.length > limit };
}
