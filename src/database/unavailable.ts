/** A store's StoreUnavailable as the service's Unavailable fault, saying whether the write may have gone in. */
import { fail } from '../errors.ts';
import { StoreUnavailable } from '../store/store.ts';

/** StoreUnavailable as the Unavailable fault; anything else thrown as it is. */
export function throwUnavailable(database: string, err: unknown): never {
  if (!(err instanceof StoreUnavailable)) throw err;
  throw fail(
    'Unavailable',
    err.mayHaveCommitted
      ? `Database "${database}" became unavailable while the write was being committed (${err.reason}): it may or may not have been applied. Read it back, or send it again (the same write applies the same way), once the database answers.`
      : `Database "${database}" is unavailable (${err.reason}); nothing was changed. Retry later.`,
  );
}
