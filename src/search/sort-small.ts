/**
 * Array.prototype.sort, without its work array for the short lists a request sorts many of (an
 * option's matches, a query's combinations): V8's TimSort allocates a copy of every array it sorts,
 * 6 KB a type-ahead request (bench:alloc). Insertion sort is stable like TimSort, so ties keep the
 * same order; past SMALL it is the built-in's turn (n²). `n`: sorts the first n only (a reused array).
 */
const SMALL = 16;

/** An array or typed array: indexable, with its own sort. */
interface Sortable<T> {
  length: number;
  [i: number]: T;
  sort(cmp: (x: T, y: T) => number): unknown;
  subarray?(from: number, to: number): Sortable<T>;
}

export function sortSmall<T>(a: T[], cmp: (x: T, y: T) => number): T[];
export function sortSmall(
  a: Uint32Array,
  cmp: (x: number, y: number) => number,
  n?: number,
): Uint32Array;
export function sortSmall<T>(
  a: Sortable<T>,
  cmp: (x: T, y: T) => number,
  n = a.length,
): Sortable<T> {
  if (n > SMALL) {
    (n === a.length ? a : a.subarray!(0, n)).sort(cmp);
    return a;
  }
  for (let i = 1; i < n; i++) {
    const x = a[i];
    let j = i - 1;
    for (; j >= 0 && cmp(a[j], x) > 0; j--) a[j + 1] = a[j];
    a[j + 1] = x;
  }
  return a;
}
