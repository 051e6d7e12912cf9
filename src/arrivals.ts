/**
 * Arrival numbers, so that one change-feed check serves every request read before it, and the
 * share of the waiting requests each turn of the event loop answers.
 *
 * A request read in full takes the next number (`arrived`). A database that checks its change feed
 * (ContactDatabase.sync) first notes `lastArrival()`: every request numbered up to that was read
 * before the check, so the check saw every commit its sender could have known of (a commit the
 * sender was told of happened before the sender sent the request). Such a request need not check
 * again. The HTTP server answers the requests of one turn of the event loop after all of them were
 * read (`arrival`), so under load one check (a pread of the SQLite -shm header) serves the
 * whole batch instead of each request paying for its own.
 *
 * A turn answers about TURN_MS of requests, oldest first; the rest wait for the next turn, after
 * the event loop has polled again. Node accepts one new connection per turn of the loop
 * (libuv/libuv#3696; Node 20 ships libuv 1.46): when a turn answered every request read in it (64
 * faceted searches, ~50 ms), a client opening a connection under load waited a turn per connection
 * ahead of it: 32 new connections 1.4 s for its last answer while the kept-alive clients got theirs
 * in ~100 ms (docs/perf-log/2026-11-29-turns.md). The requests of a turn still run together (their
 * steps interleave at each await, which keeps the code and data of a step warm across requests).
 */
let last = 0;
/** The next arrival number: call it once a request has been read in full. */
export const arrived = (): number => ++last;

/** The newest arrival number given out. */
export const lastArrival = (): number => last;

/** About how long a turn of the event loop answers requests before it polls again. */
export const TURN_MS = 4;

const waiting: { readonly n: number; readonly go: (n: number) => void }[] = [];
let scheduled = false;
/** The turn being answered: when it started and how many requests it let go (0: none). */
let turnStart = 0,
  turnSize = 0;
/** What a request cost in the last turn that answered any (ms): a turn lets TURN_MS of that go. */
let perRequest = 0.1;

/**
 * `arrived()`, resolved in a check phase after this turn's reads (the event loop's poll phase read
 * every socket that was ready): in arrival order, about TURN_MS of requests a turn.
 */
export function arrival(): Promise<number> {
  const n = arrived();
  return new Promise((go) => {
    waiting.push({ n, go });
    if (!scheduled) {
      scheduled = true;
      setImmediate(answerTurn);
    }
  });
}

/**
 * Measures the turn before (its requests' synchronous work, then a poll phase that did not wait: an
 * immediate was pending), then lets the next share of the waiting requests go, or stops.
 */
function answerTurn(): void {
  const now = performance.now();
  if (turnSize > 0) perRequest = (now - turnStart) / turnSize;
  turnSize = 0;
  if (waiting.length === 0) {
    scheduled = false;
    return;
  }
  const turn = waiting.splice(0, Math.max(1, Math.floor(TURN_MS / perRequest)));
  turnStart = now;
  turnSize = turn.length;
  for (const w of turn) w.go(w.n);
  setImmediate(answerTurn);
}
