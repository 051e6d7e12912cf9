/** What a search returns: hits (a contact ordinal, its packed rank and how each typed token matched). */
import { unpackRank, type Rank } from '../rank/rules.ts';
import type { MatchFacts } from '../rank/rule.ts';

export interface TokenMatch extends MatchFacts {
  /** Index of the contact token in SearchIndex.entriesOf(ord). */
  readonly entry: number;
  /** Characters of the typed token (normalised), for highlighting. */
  readonly typed: number;
}

export interface Hit {
  readonly ord: number;
  readonly rank: Rank;
  /** packRank(rank): one number, lower is better. */
  readonly score: number;
  /** In typed-token order. */
  readonly matches: readonly TokenMatch[];
}

export interface MatchResult {
  hits: Hit[];
  /** Contacts looked at (for InternalUse diagnostics). */
  candidates: number;
  /** The work done (work.ts): what tests hold to a bound. */
  steps: number;
}

export class ScoredHit implements Hit {
  constructor(
    readonly ord: number,
    readonly score: number,
    readonly matches: readonly TokenMatch[],
  ) {}
  /** Decoded on demand: a full search makes many hits and reads few ranks. */
  get rank(): Rank {
    return unpackRank(this.score);
  }
}

/** Base-segment order: packed rank, then ordinal (base ordinals are in the final tie-break order). */
export const byRank = (a: Hit, b: Hit) => a.score - b.score || a.ord - b.ord;
