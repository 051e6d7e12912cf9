/**
 * Sorting many strings held as UTF-16 code units in one typed array, in JS string order (code unit
 * by code unit, a proper prefix first), as Array.prototype.sort would: a multikey quicksort
 * (Bentley–Sedgewick), which partitions by one code unit at a time and never compares a
 * shared prefix twice. The build sorts its ordinals' keys so: 100,000 JS strings took the built-in
 * ~200 ms (a string comparison call per pair), this a fifth of that.
 */
import { Growable } from './table/growable.ts';

/** Below this many strings a range is insertion-sorted. */
const SMALL = 12;

/**
 * Partitions at one code unit position a range may go through, as a multiple of log2 of its size,
 * before it is sorted by comparisons instead (introsort's guard): the median-of-three pivot is
 * deterministic, so names crafted for it (an import's DisplayNames) could peel a value or two off
 * a range per pass, n passes of n; comparisons keep the sort O(n log n) there. Tests lower it.
 */
export const SORT_TUNING = { levels: 2 };

/** Strings appended code unit by code unit: string k is `units.a[off[k] .. off[k + 1])`. */
export class StringRun {
  readonly units = new Growable(new Uint16Array(1 << 16));
  readonly off: Uint32Array;
  n = 0;

  /** Room for `count` strings. */
  constructor(count: number) {
    this.off = new Uint32Array(count + 1);
  }

  /** Appends `s` to the string being written. */
  write(s: string): void {
    const u = this.units;
    u.grow(u.n + s.length);
    for (let i = 0; i < s.length; i++) u.a[u.n++] = s.charCodeAt(i);
  }

  /** Appends one code unit to the string being written. */
  unit(c: number): void {
    this.units.push(c);
  }

  /** Ends the string being written. */
  end(): void {
    this.off[++this.n] = this.units.n;
  }
}

/** The strings as sortedStrings reads them: string k is `units[off[k] .. off[k + 1])`. */
interface Keys {
  readonly units: Uint16Array;
  readonly off: Uint32Array;
}

/** The indices of the strings in `run`, in JS string order (ties, equal strings, in no set order). */
export function sortedStrings(run: StringRun): Uint32Array {
  const n = run.n,
    s: Keys = { units: run.units.a, off: run.off };
  const idx = new Uint32Array(n);
  for (let k = 0; k < n; k++) idx[k] = k;
  if (ascending(s, n)) return idx; // ids in id order, say: what TimSort does in one pass
  const most = Math.floor(SORT_TUNING.levels * Math.ceil(Math.log2(n + 1)));
  // Ranges still to sort: [lo, hi) of idx, whose strings share their first d code units, and the
  // partitions at d they may still go through.
  const stack = [0, n, 0, most];
  while (stack.length > 0) {
    const left = stack.pop()!,
      d = stack.pop()!,
      hi = stack.pop()!,
      lo = stack.pop()!;
    if (hi - lo <= SMALL) {
      insertionSort(s, idx, lo, hi, d);
      continue;
    }
    if (left <= 0) {
      idx.subarray(lo, hi).sort((x, y) => (below(s, x, y, d) ? -1 : below(s, y, x, d) ? 1 : 0));
      continue;
    }
    const v = pivot(s, idx, lo, hi, d);
    // Three-way partition by the code unit at d: [lo, lt) below v, [lt, gt] equal, (gt, hi) above.
    let lt = lo,
      gt = hi - 1;
    for (let i = lo; i <= gt;) {
      const c = unitAt(s, idx[i], d);
      if (c < v) swap(idx, lt++, i++);
      else if (c > v) swap(idx, i, gt--);
      else i++;
    }
    stack.push(lo, lt, d, left - 1, gt + 1, hi, d, left - 1);
    if (v >= 0) stack.push(lt, gt + 1, d + 1, most); // v < 0: strings that end at d, all equal
  }
  return idx;
}

/** Whether every string is below the next one. */
function ascending(s: Keys, n: number): boolean {
  for (let k = 0; k + 1 < n; k++) if (!below(s, k, k + 1, 0)) return false;
  return true;
}

/** String k's code unit at d, or -1 past its end (so a proper prefix sorts first). */
function unitAt({ units, off }: Keys, k: number, d: number): number {
  const p = off[k] + d;
  return p < off[k + 1] ? units[p] : -1;
}

/** The median of the code units at d of the range's first, middle and last strings. */
function pivot(s: Keys, idx: Uint32Array, lo: number, hi: number, d: number): number {
  const a = unitAt(s, idx[lo], d),
    b = unitAt(s, idx[(lo + hi) >>> 1], d),
    c = unitAt(s, idx[hi - 1], d);
  return a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
}

function swap(idx: Uint32Array, i: number, j: number): void {
  const t = idx[i];
  idx[i] = idx[j];
  idx[j] = t;
}

/** Sorts idx[lo .. hi), whose strings share their first d code units. */
function insertionSort(s: Keys, idx: Uint32Array, lo: number, hi: number, d: number): void {
  for (let i = lo + 1; i < hi; i++) {
    const k = idx[i];
    let j = i - 1;
    for (; j >= lo && below(s, k, idx[j], d); j--) idx[j + 1] = idx[j];
    idx[j + 1] = k;
  }
}

/** String x < string y, both sharing their first d code units. */
function below({ units, off }: Keys, x: number, y: number, d: number): boolean {
  const xa = off[x] + d,
    xe = off[x + 1],
    ya = off[y] + d,
    ye = off[y + 1];
  for (let i = 0; ; i++) {
    if (ya + i === ye) return false; // y ends: y ≤ x
    if (xa + i === xe) return true; // x is a proper prefix of y
    const a = units[xa + i],
      b = units[ya + i];
    if (a !== b) return a < b;
  }
}
