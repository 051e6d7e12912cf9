/**
 * The ranking rules, in order (CONTRACT.md §4; after them DisplayName, then ContactId, which the
 * index's ordinal order already is). One file per rule under rules/; ids are stable, for logs and docs.
 *   typo      fewer typos
 *   exactness more typed tokens matched whole (not only as a prefix)
 *   field     best fields: name > organisation > email > phone > other
 *   order     typed tokens matched in display order
 */
import type { MatchFacts, RankRule } from './rule.ts';
import { exactness } from './rules/exactness.ts';
import { fieldRule } from './rules/field.ts';
import { order } from './rules/order.ts';
import { typo } from './rules/typo.ts';

export type { MatchFacts, RankRule } from './rule.ts';

export const RULES: readonly RankRule[] = [typo, exactness, fieldRule, order];

export type Rank = readonly number[];

export function rankOf(matches: readonly MatchFacts[]): Rank {
  return RULES.map((r) => r.score(matches));
}

export function compareRank(a: Rank, b: Rank): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/**
 * The rank as one number (same order as compareRank): typo · 2^30 + exactness · 2^20 + field · 2^10 + order.
 * Each tier is clamped to its 10 bits (a 256-character query has at most 128 tokens).
 */
export function packRank(r: Rank): number {
  const c = (v: number) => Math.min(v, 1023);
  return c(r[0]) * 2 ** 30 + c(r[1]) * 2 ** 20 + c(r[2]) * 2 ** 10 + c(r[3]);
}

/** The inverse of packRank (exact while every tier is under 1024). */
export function unpackRank(score: number): Rank {
  const t = 2 ** 10;
  return [Math.floor(score / 2 ** 30), Math.floor(score / 2 ** 20) % t, Math.floor(score / t) % t, score % t];
}
