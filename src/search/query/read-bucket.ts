/**
 * Reading one bucket (one field class under some term-id ranges) for type-ahead: its first `need`
 * ordinals, ascending, that are live, not seen yet and admitted. Buckets of short prefixes are huge,
 * so their first ordinals come from kept heads (heads.ts) when they can.
 */
import { headKey, smallestDistinct, TUNING } from '../heads.ts';
import type { SearchIndex } from '../search-index.ts';
import { flatRanges, type Range } from './compile.ts';
import { inBucket } from './postings.ts';
import type { QueryRun } from './run.ts';

/**
 * Heads made on first use, per base and head size; a size's map is cleared when it reaches 20,000
 * heads, or 4,096 of the longer heads multi-token drivers read (TUNING.driverHead: 2 KB each).
 */
const heads = new WeakMap<object, Map<number, Map<string, Uint32Array>>>();

/**
 * The head of `size` ordinals of one range in class c (live or not): made by the build for short
 * prefixes, else on first use and kept per base (it is immutable, so a head stays true until the
 * next build).
 */
function rangeHead(index: SearchIndex, c: number, r: Range, size: number): Uint32Array {
  const key = headKey(size, c, r.lo, r.hi);
  const built = index.base.heads.get(key);
  if (built) return built;
  let bySize = heads.get(index.base);
  if (!bySize) heads.set(index.base, (bySize = new Map()));
  let byKey = bySize.get(size);
  if (!byKey) bySize.set(size, (byKey = new Map()));
  let head = byKey.get(key);
  if (!head) {
    head = Uint32Array.from(
      smallestDistinct(index.base.post, [index.postingSlice(c, r.lo, r.hi)], size),
    );
    if (byKey.size >= (size > TUNING.headSize ? 4_096 : 20_000)) byKey.clear();
    byKey.set(key, head);
  }
  return head;
}

/**
 * A bucket's head: its first `size` ordinals (TUNING.headSize unless said), ascending, live or not —
 * the first `size` of a union are among the first `size` of each of its ranges. Fewer than `size`:
 * the head is the whole bucket.
 */
export function bucketHead(
  index: SearchIndex,
  c: number,
  ranges: readonly Range[],
  size = TUNING.headSize,
): Uint32Array {
  if (ranges.length === 1) return rangeHead(index, c, ranges[0], size);
  const parts = ranges.map((r) => rangeHead(index, c, r, size));
  const joined = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
  let k = 0;
  for (const p of parts) {
    joined.set(p, k);
    k += p.length;
  }
  return Uint32Array.from(smallestDistinct(joined, [[0, joined.length]], size));
}

/**
 * The first `need` ordinals (ascending) of class `c` postings under `ranges` that are live, unseen and
 * within; marks them seen. A small bucket is copied and sorted when most of it is needed; one pass
 * keeping the `need` smallest reads a small bucket when a page of it is needed, and a big one of many
 * short lists (phone numbers); a big one of long lists is merged lazily:
 * a heap of the terms' posting lists (each already ascending) yields ordinals in order until `need`.
 * (Scanning ordinals in order instead would be fast for evenly spread matches but not for clustered
 * ones: "м" matches only Cyrillic names, which all sort after the Latin ones.)
 */
export function bucket(
  run: QueryRun,
  c: number,
  ranges: readonly Range[],
  need: number,
  stamp: Uint32Array,
  gen: number,
): number[] {
  const { index, within, work: stats } = run;
  const b = index.base;
  let total = 0;
  const slices = ranges.map((r) => {
    const s = index.postingSlice(c, r.lo, r.hi);
    total += s[1] - s[0];
    return s;
  });
  if (total === 0) return [];
  const out: number[] = [];
  if (run.throughAdmitted(total)) {
    const bk = { cls: c, flat: flatRanges(ranges) };
    // Fewer admitted ordinals than postings (a selective filter): each admitted one, ascending, is
    // looked up in the forward index — a few dozen entries — instead of walking the postings.
    run.eachAdmitted((ord) => {
      stats.looked++;
      if (stamp[ord] !== gen && index.isLive(ord) && inBucket(b, ord, bk)) out.push(ord);
      return out.length >= need;
    });
    for (const ord of out) stamp[ord] = gen;
    return out;
  }
  if (!within && total > TUNING.headMin) {
    // The first live, unseen ordinals of the kept head are the bucket's first; enough of them (or a
    // head that is the whole bucket) settles it, else the full pass below.
    const head = bucketHead(index, c, ranges);
    for (let i = 0; i < head.length && out.length < need; i++) {
      const ord = head[i];
      stats.looked++;
      if (stamp[ord] !== gen && index.isLive(ord)) out.push(ord);
    }
    if (out.length === need || head.length < TUNING.headSize) {
      for (const ord of out) stamp[ord] = gen;
      return out;
    }
    out.length = 0;
  }
  const ok = (ord: number) => stamp[ord] !== gen && index.isLive(ord) && (!within || within(ord));
  if (total <= TUNING.dense && need * 8 >= total) {
    const all = new Uint32Array(total);
    let k = 0;
    for (const [x, y] of slices) {
      all.set(b.post.subarray(x, y), k);
      k += y - x;
    }
    all.sort();
    let prev = -1;
    for (let i = 0; i < all.length && out.length < need; i++) {
      const ord = all[i];
      if (ord === prev) continue;
      prev = ord;
      stats.looked++;
      if (ok(ord)) out.push(ord);
    }
  } else if (total <= TUNING.dense || ranges.reduce((k, r) => k + (r.hi - r.lo), 0) * 8 > total) {
    // A page of a small bucket, or many terms with short lists (phone numbers, emails): one pass over
    // the postings keeping the `need` smallest acceptable ordinals in a small sorted array.
    out.push(
      ...smallestDistinct(b.post, slices, need, (ord) => {
        stats.looked++;
        return ok(ord);
      }),
    );
  } else {
    // Heap of cursors into the per-term lists: pos[i] is the next posting, end[i] its list's end.
    const posA: number[] = [],
      endA: number[] = [];
    for (const r of ranges) {
      for (let t = r.lo; t < r.hi; t++) {
        const [x, y] = index.postingSlice(c, t, t + 1);
        if (y > x) {
          posA.push(x);
          endA.push(y);
        }
      }
    }
    const m = posA.length;
    const pos = Uint32Array.from(posA),
      end = Uint32Array.from(endA);
    const heap = new Uint32Array(m);
    for (let i = 0; i < m; i++) heap[i] = i;
    const key = (h: number) => b.post[pos[heap[h]]];
    const down = (i: number, size: number) => {
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1;
        let s = i;
        if (l < size && key(l) < key(s)) s = l;
        if (r < size && key(r) < key(s)) s = r;
        if (s === i) return;
        const tmp = heap[i];
        heap[i] = heap[s];
        heap[s] = tmp;
        i = s;
      }
    };
    let size = m;
    for (let i = (size >> 1) - 1; i >= 0; i--) down(i, size);
    let prev = -1;
    while (size > 0 && out.length < need) {
      const top = heap[0];
      const ord = b.post[pos[top]];
      if (ord !== prev) {
        prev = ord;
        stats.looked++;
        if (ok(ord)) out.push(ord);
      }
      if (++pos[top] >= end[top]) heap[0] = heap[--size];
      down(0, size);
    }
  }
  for (const ord of out) stamp[ord] = gen;
  return out;
}
