/**
 * The search engine's public entry: ranked search, the unranked match set, highlighting, and the
 * string-form best assignment the tests use as a reference. The engine itself is in query/ (its
 * steps, docs/SEARCH.md) and rank/ (the ranking rules).
 */
export { search } from './query/search.ts';
export { matchBits } from './query/match-set.ts';
export { bestAssignment } from './query/assign.ts';
export { highlight, variantHighlight } from './highlight.ts';
export { TUNING } from './heads.ts';
export type { Hit, MatchResult, TokenMatch } from './query/hit.ts';
export type { Admitted, Within } from './query/run.ts';
