/**
 * Lets the event loop through: long work (imports, rebuilds) awaits this between slices so that
 * requests queued meanwhile (searches) are answered.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A request text over this many characters (bytes, for a body) is a large text: a 100,000-row
 * ImportContacts is a 22-33 MB body whose decode, JSON.parse and StringOfJSONParameters parse took
 * 140-160 ms each in one turn (bench:live --via wire). Such a text is never decoded, copied,
 * flattened or parsed whole on the main thread: large-text/large-text.ts.
 */
export const LARGE_TEXT = 1 << 20;

/**
 * Rows of an import between two turns (io/csv.ts, io/import-file.ts): each row is parsed, validated
 * and looked up within its slice's turn (the store writes them in time slices: `timeSlice`).
 */
export const ROW_SLICE = 500;

/**
 * Says yes once `ms` of work passed since the last yes (the clock read every 32nd call): slices
 * of even length whatever an item costs (2,000 SQLite upserts took 70-120 ms on a loaded machine).
 */
export function timeSlice(ms = 3): () => boolean {
  let t = performance.now(),
    k = 0;
  return () => {
    if ((++k & 31) !== 0 || performance.now() - t < ms) return false;
    t = performance.now();
    return true;
  };
}
