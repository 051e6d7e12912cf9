/** What a ranking rule is (CONTRACT.md §4): a stable lower-case id and a score of a contact's matches, lower is better. */

/** One typed token matched to one contact token; the rules read only these facts. */
export interface MatchFacts {
  readonly typo: 0 | 1;
  /** 1: matched only through a variant spelling (index/variants: ä/ae, reading, transliteration, nickname). Absent: 0. */
  readonly variant?: 0 | 1;
  readonly whole: boolean;
  /** Field class: 0 name, 1 organisation, 2 email, 3 phone, 4 other. */
  readonly cls: number;
  /** Display position of the contact token. */
  readonly pos: number;
}

export interface RankRule {
  readonly id: 'typo' | 'variant' | 'exactness' | 'field' | 'order';
  /** Bits of the packed rank this rule's score takes (clamped to fit): rules.ts places the rules by them. */
  readonly bits: number;
  score(matches: readonly MatchFacts[]): number;
}
