/**
 * The work one search may do (issue: "bounded search cost by construction"). Every loop of the
 * matcher counts its steps here — postings read, forward-index entries compared, assignment nodes
 * visited — so the cost of any text is capped, whatever its tokens: over the cap, or over the
 * request's time budget, the search stops with PayloadTooLarge (the documented refusal of
 * security/deadline.ts: narrow the query). The cap is linear in the index's size, so a real query at
 * 1M contacts is never refused for the work it does; it is the time budget that bounds those.
 */
import { fail } from '../errors.ts';
import type { Checkpoint } from '../security/deadline.ts';

/** Steps allowed per ordinal of the index, plus a floor for small ones (steps are cheap: a load and a compare). */
export const STEPS_PER_ORDINAL = 256;
export const STEPS_FLOOR = 4_000_000;

export class Work {
  /** Contacts looked at (InternalUse's candidate count). */
  looked = 0;
  /** Steps spent so far. */
  steps = 0;
  readonly cap: number;

  constructor(
    ordinals: number,
    private readonly budget?: Checkpoint,
    cap?: number,
  ) {
    this.cap = cap ?? STEPS_FLOOR + STEPS_PER_ORDINAL * ordinals;
  }

  /** Counts `n` steps; throws PayloadTooLarge past the cap or the time budget. */
  spend(n: number): void {
    this.steps += n;
    if (this.steps > this.cap) {
      throw fail(
        'PayloadTooLarge',
        `The search text asks for more matching work than one request may do (over ${this.cap} steps) and was stopped. ` +
          'Use fewer or longer words in the text.',
        { parameter: 'StringOfJSONParameters' },
      );
    }
    this.budget?.spend(n);
  }
}
