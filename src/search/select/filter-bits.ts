/**
 * A filter's passing ordinals as a bitmap (search/bits.ts). A filter asked for again (a facet value
 * picked, a country or date range a screen always sends) is tested once over the whole table and
 * kept, when a row's test is cheap: rows never change once written (a write appends a new ordinal), so a kept set only grows by
 * the rows appended since. A filter seen for the first time is tested over the query's matches only,
 * unless they are so many that testing every row costs about the same.
 */
import type { Checkpoint } from '../../security/deadline.ts';
import { bitsFor, forEachListed, setBit, type WordList } from '../bits.ts';
import type { SearchIndex } from '../search-index.ts';
import { grown } from '../table/growable.ts';
import type { ContactTable } from '../table/contact-table.ts';
import { compileFilter, type Filter } from './filters.ts';

interface Kept {
  bits: Uint32Array;
  upTo: number;
}
interface PerTable {
  kept: Map<string, Kept>;
  seen: Map<string, number>;
}

/** Whole-table sets kept per table (a rebuild makes a new table); 32 of them are 4 MB at a million rows. */
const KEEP = 32;
const SEEN = 1024;
const perTable = new WeakMap<ContactTable, PerTable>();

const signature = (f: Filter) => JSON.stringify([f.field.name, f.op, f.values]);

/** Most recently used last; the oldest goes once over `max`. */
function touch<V>(m: Map<string, V>, key: string, v: V, max: number): void {
  m.delete(key);
  m.set(key, v);
  if (m.size > max) m.delete(m.keys().next().value!);
}

/**
 * The ordinals among `among` that pass `f`, as a bitmap; a kept whole-table set holds ordinals
 * outside `among` as well, so the caller ANDs it with `among`.
 */
export function filterBits(
  idx: SearchIndex,
  f: Filter,
  among: WordList,
  budget?: Checkpoint,
): Uint32Array {
  const table = idx.table;
  let t = perTable.get(table);
  if (!t) {
    t = { kept: new Map(), seen: new Map() };
    perTable.set(table, t);
  }
  const sig = signature(f);
  const kept = t.kept.get(sig);
  const rows = idx.ordinalCount;
  if (kept) {
    if (kept.upTo < rows) extend(kept, f, table, rows);
    touch(t.kept, sig, kept, KEEP);
    return kept.bits;
  }
  const asked = (t.seen.get(sig) ?? 0) + 1;
  touch(t.seen, sig, asked, SEEN);
  if (among.count > rows >>> 3 || (asked > 1 && cheapPerRow(f, table))) {
    const k = { bits: bitsFor(rows), upTo: 0 };
    extend(k, f, table, rows, budget);
    touch(t.kept, sig, k, KEEP);
    return k.bits;
  }
  const pass = compileFilter(f, table);
  const out = bitsFor(rows);
  forEachListed(among, (ord) => {
    budget?.check();
    if (pass(ord)) setBit(out, ord);
  });
  return out;
}

/**
 * Whether testing every row is cheap: a date or string range reads a rank per row, and a small
 * dictionary is tested once per value; a text test over a million distinct emails is not.
 */
function cheapPerRow(f: Filter, table: ContactTable): boolean {
  const range = ['Gt', 'Gte', 'Lt', 'Lte', 'Between'].includes(f.op) && f.field.type !== 'Number';
  return range || table.column(f.field.name).dict.size <= 65_536;
}

/** Tests the rows from `k.upTo` to `rows` (compiled anew: the columns may have grown since). */
function extend(k: Kept, f: Filter, table: ContactTable, rows: number, budget?: Checkpoint): void {
  if ((rows + 31) >>> 5 > k.bits.length) k.bits = grown(k.bits, (rows + 31) >>> 5);
  const pass = compileFilter(f, table);
  const bits = k.bits;
  budget?.spend(rows - k.upTo);
  for (let ord = k.upTo; ord < rows; ord++) {
    if (pass(ord)) bits[ord >>> 5] |= 1 << (ord & 31);
  }
  k.upTo = rows;
}
