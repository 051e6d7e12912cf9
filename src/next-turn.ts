/**
 * Lets the event loop through: long work (imports, rebuilds) awaits this between slices so that
 * requests queued meanwhile (searches) are answered.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Items of work between two turns: `if (due()) await nextTurn()` in a loop lets the loop through every `n` items. */
export const SLICE = 2_000;

/**
 * Rows of an import between two turns (io/csv.ts, io/import-file.ts): each row is parsed, validated,
 * looked up and written within its slice's turn, several times the work of one SLICE item.
 */
export const ROW_SLICE = 500;

/** A counter that says yes every `n`th call. */
export function every(n = SLICE): () => boolean {
  let k = 0;
  return () => ++k % n === 0;
}
