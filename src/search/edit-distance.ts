/**
 * One-edit typo tolerance (CONTRACT.md §4): insert, delete, substitute, or swap of neighbours, never
 * on the first character. Pure functions; checked against a naive Damerau–Levenshtein in tests.
 */

/** a and b differ by at most one edit (optimal string alignment distance ≤ 1). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length,
    lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1); // delete / insert
}

/** The typed token `q` matches some prefix of `term` with exactly one edit after the first character. */
export function prefixWithinOneEdit(q: string, term: string): boolean {
  if (q[0] !== term[0] || term.startsWith(q)) return false;
  for (let k = q.length - 1; k <= q.length + 1; k++) {
    if (k < 2 || k > term.length) continue;
    if (withinOneEdit(q, term.slice(0, k))) return true;
  }
  return false;
}

/** Naive reference: optimal string alignment distance, for property tests. */
export function osaDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
