/**
 * The ranking rules, in order (CONTRACT.md §4; after them DisplayName, then ContactId, which the
 * index's ordinal order already is). One file per rule under rules/; ids are stable, for logs and docs.
 *   typo      fewer typos
 *   variant   fewer tokens matched only through a variant spelling (ä/ae, reading, nickname …)
 *   exactness more typed tokens matched whole (not only as a prefix)
 *   field     best fields: name > organisation > email > phone > other
 *   order     typed tokens matched in display order
 */
import type { MatchFacts, RankRule } from './rule.ts';
import { exactness } from './rules/exactness.ts';
import { fieldRule } from './rules/field.ts';
import { order } from './rules/order.ts';
import { typo } from './rules/typo.ts';
import { variant } from './rules/variant.ts';

export type { MatchFacts, RankRule } from './rule.ts';

export const RULES: readonly RankRule[] = [typo, variant, exactness, fieldRule, order];

export type Rank = readonly number[];

export function rankOf(matches: readonly MatchFacts[]): Rank {
  return RULES.map((r) => r.score(matches));
}

export function compareRank(a: Rank, b: Rank): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/**
 * The packed rank: one number, same order as compareRank. Each rule takes `bits` bits, the first rule
 * the highest: with five rules of 10 bits,
 * typo · 2^40 + variant · 2^30 + exactness · 2^20 + field · 2^10 + order.
 * A score is clamped to its bits (a 256-character query has at most 128 tokens, well under 1024).
 */
const SHIFT = RULES.map((_, i) => RULES.slice(i + 1).reduce((s, r) => s + r.bits, 0));
if (SHIFT[0] + RULES[0].bits > 53)
  throw new Error('rank rules: the packed rank needs more than 53 bits');

/** Per rule id: what one unit of its score weighs in the packed rank, and the largest score that fits. */
export const WEIGHT = Object.fromEntries(RULES.map((r, i) => [r.id, 2 ** SHIFT[i]])) as Record<
  RankRule['id'],
  number
>;
export const MAX = Object.fromEntries(RULES.map((r) => [r.id, 2 ** r.bits - 1])) as Record<
  RankRule['id'],
  number
>;

export function packRank(r: Rank): number {
  let score = 0;
  for (let i = 0; i < RULES.length; i++)
    score += Math.min(r[i], 2 ** RULES[i].bits - 1) * 2 ** SHIFT[i];
  return score;
}

/** The inverse of packRank (exact while every score fits its bits). */
export function unpackRank(score: number): Rank {
  return RULES.map((r, i) => Math.floor(score / 2 ** SHIFT[i]) % 2 ** r.bits);
}
