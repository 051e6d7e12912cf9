/**
 * Lets the event loop through: long work (imports, rebuilds) awaits this between slices so that
 * requests queued meanwhile (searches) are answered.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
