/**
 * Arrival numbers, so that one change-feed check serves every request read before it.
 *
 * A request read in full takes the next number (`arrived`). A database that checks its change feed
 * (ContactDatabase.sync) first notes `lastArrival()`: every request numbered up to that was read
 * before the check, so the check saw every commit its sender could have known of (a commit the
 * sender was told of happened before the sender sent the request). Such a request need not check
 * again. The HTTP server answers the requests of one turn of the event loop after all of them were
 * read (`arrival`), so under load one check (a pread of the SQLite -shm header) serves the
 * whole batch instead of each request paying for its own.
 */
let last = 0;
let turnEnd: Promise<void> | undefined;

/** The next arrival number: call it once a request has been read in full. */
export const arrived = (): number => ++last;

/** The newest arrival number given out. */
export const lastArrival = (): number => last;

/**
 * `arrived()`, resolved once this turn's reads are done (in the event loop's check phase, after its
 * poll phase read every socket that was ready): the requests of a turn then run together.
 */
export function arrival(): Promise<number> {
  const n = arrived();
  turnEnd ??= new Promise((resolve) =>
    setImmediate(() => {
      turnEnd = undefined;
      resolve();
    }),
  );
  return turnEnd.then(() => n);
}
