/**
 * The per-request time budget (CONTRACT.md §7 "30 s per request", `limits.requestMs`). One Deadline
 * is made per service call (src/service/index.ts) and travels on the OperationContext; long loops
 * call `check()`, irreversible steps (a store commit) call `checkNow()` first. Over budget, both
 * throw PayloadTooLarge: the request asks for more work than one request may do, and the fix is
 * the caller's (a narrower query, a smaller import) — see docs/SECURITY.md for why this code.
 */
import { fail } from '../errors.ts';

/** What a loop needs: code outside the service (io/, search/) can take this instead of a Deadline. */
export interface Checkpoint {
  check(): void;
  /** `steps` loop steps at once: a tight loop over typed arrays counts a slice, not each step. */
  spend(steps: number): void;
}

/** Clock reads are sampled: one every SAMPLE calls of check() (a power of two, used as a mask). */
const SAMPLE = 1024;

export class Deadline implements Checkpoint {
  private readonly end: number;
  private calls = 0;

  /**
   * @param budgetMs milliseconds from now; `Infinity` for work that has no budget (the import CLI).
   * @param now a monotonic clock in milliseconds (injectable for tests).
   */
  constructor(
    readonly budgetMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.end = budgetMs === Infinity ? Infinity : now() + budgetMs;
  }

  /** No budget: for callers outside a request (benchmarks, unit tests of search functions). */
  static unlimited(): Deadline {
    return new Deadline(Infinity);
  }

  /** Cheap enough for inner loops: reads the clock once every 1,024 calls. Throws PayloadTooLarge when over. */
  check(): void {
    if ((++this.calls & (SAMPLE - 1)) === 0) this.checkNow();
  }

  /** Counts `steps` calls of check() at once: reads the clock when they cross a sample. */
  spend(steps: number): void {
    const before = this.calls;
    this.calls += steps;
    if (Math.floor(before / SAMPLE) !== Math.floor(this.calls / SAMPLE)) this.checkNow();
  }

  /** Reads the clock now; call it before anything that cannot be undone, such as a store write. */
  checkNow(): void {
    if (this.end !== Infinity && this.now() > this.end) {
      throw fail(
        'PayloadTooLarge',
        `The request ran over its time budget of ${this.budgetMs} ms and was stopped; nothing was changed. ` +
          'Narrow the query or filters, ask for fewer results, or split the import into smaller files.',
        { parameter: 'StringOfJSONParameters' },
      );
    }
  }

  /** Milliseconds left (negative when over; Infinity without a budget). */
  get remainingMs(): number {
    return this.end === Infinity ? Infinity : this.end - this.now();
  }
}
