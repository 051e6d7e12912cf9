/**
 * The live ranking: the packed rank (rank/rules.ts) of a contact's matches, read from the rules'
 * weights. The engine depends on the rules' order beyond the weights — it walks the tiers whole,
 * prefix, typo and, in each, the field classes (top-single.ts, top-multi.ts) — so that order is
 * checked here at load: reordering the rules means changing the walk too.
 */
import { MAX, packRank, rankOf, RULES, WEIGHT } from '../rank/rules.ts';
import type { MatchFacts } from '../rank/rule.ts';

if (RULES.map((r) => r.id).join() !== 'typo,variant,exactness,field,order') {
  throw new Error(
    'search/query: the bucket walk assumes the rules typo, variant, exactness, field, order (in that order)',
  );
}

const W_TYPO = WEIGHT.typo,
  W_VARIANT = WEIGHT.variant,
  W_EXACT = WEIGHT.exactness,
  W_FIELD = WEIGHT.field,
  W_ORDER = WEIGHT.order;
const M_TYPO = MAX.typo,
  M_VARIANT = MAX.variant,
  M_EXACT = MAX.exactness,
  M_FIELD = MAX.field,
  M_ORDER = MAX.order;

/**
 * The packed rank without the order rule: typos, tokens not matched whole, the classes' sum and the
 * tokens matched through a variant. These only grow as tokens are assigned (a bound for branch and
 * bound and for bucket combinations).
 */
export const partial = (typo: number, notWhole: number, cls: number, variant = 0): number =>
  Math.min(typo, M_TYPO) * W_TYPO +
  Math.min(variant, M_VARIANT) * W_VARIANT +
  Math.min(notWhole, M_EXACT) * W_EXACT +
  Math.min(cls, M_FIELD) * W_FIELD;

/** The order rule's part of the packed rank, from the inversions between neighbours. */
export const orderPart = (inversions: number): number => Math.min(inversions, M_ORDER) * W_ORDER;

/** The packed rank of a full assignment (typed-token order): every rule's score. */
export const scoreOf = (chosen: readonly MatchFacts[]): number => packRank(rankOf(chosen));
