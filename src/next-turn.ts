/**
 * Lets the event loop through: long work (imports, rebuilds) awaits this between slices so that
 * requests queued meanwhile (searches) are answered.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Items of work between two turns: `if (due()) await nextTurn()` in a loop lets the loop through every `n` items. */
export const SLICE = 2_000;

/** A counter that says yes every `n`th call. */
export function every(n = SLICE): () => boolean {
  let k = 0;
  return () => ++k % n === 0;
}
