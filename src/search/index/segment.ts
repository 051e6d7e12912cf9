/**
 * Segments: a big change (an import here, or another process's import heard through the change
 * feed) indexed on its own — built on a worker thread from just the changed contacts
 * (database/rebuilds.ts) — and searched beside the base until the next full build takes it in
 * (docs/SEARCH.md "Segments"). Its contacts are the rows [from, to) of the index's table, in the
 * segment's own ordinal order (its tie-break order), so its ordinal l is row from + l; its own index
 * (a SearchIndex holding only it) answers the query plan, and query/segments.ts maps the hits.
 *
 * Putting one in costs the main thread work in proportion to the change, all done here in slices of
 * a few milliseconds while searches go on: the image read (a dictionary a step), the rows copied
 * into a table sharing the index's dictionaries, the rows holding the changed contacts now looked
 * up, room made in the index's columns. Then one synchronous step (SearchIndex.attachSegment) drops
 * those rows, appends the staged ones (typed-array copies) and makes them live: no hash update, no
 * per-contact decoding.
 */
import { nextTurn, timeSlice } from '../../next-turn.ts';
import { SearchIndex, type StagedSegment } from '../search-index.ts';
import { ContactTable } from '../table/contact-table.ts';
import type { Built } from './build.ts';
import { builtFromImageSteps, type IndexImage } from './image.ts';

/**
 * `from`'s rows in a table sharing `to`'s dictionaries: each distinct value of a column interned once
 * into `to`'s dictionary, then the column's ids mapped (a list column keeps its offsets). A row
 * decoded and appended contact by contact interned every value of every row instead: about four
 * times the work (a hundred thousand rows of ~30 fields against their distinct values).
 */
async function remapped(from: ContactTable, to: ContactTable): Promise<ContactTable> {
  const out = new ContactTable(to.columns.map((c) => c.dict));
  const due = timeSlice();
  for (let k = 0; k < from.columns.length; k++) {
    const src = from.columns[k],
      dst = out.columns[k];
    const map = new Uint32Array(src.dict.size); // id 0, "absent", stays 0
    // Room first, in steps: growing the index's buffer inside appendAll or intern is one whole copy.
    for (const _ of dst.dict.reserveSteps(src.dict.valueBytes())) await nextTurn();
    const first = dst.dict.appendAll(src.dict); // both buffered alike: one copy
    if (first !== undefined) for (let i = 1; i < map.length; i++) map[i] = first + i - 1;
    else
      for (let i = 1; i < map.length; i++) {
        map[i] = dst.dict.intern(src.dict.value(i));
        if (due()) await nextTurn();
      }
    const n = src.ids.n;
    dst.fitFor(dst.dict.size, src.offs ? src.offs.a[src.offs.n - 1] : 0);
    dst.ids.grow(n);
    for (let i = 0; i < n; i++) {
      dst.ids.a[i] = map[src.ids.a[i]];
      if (due()) await nextTurn();
    }
    dst.ids.n = n;
    if (src.offs && dst.offs) {
      dst.offs.grow(src.offs.n);
      dst.offs.a.set(src.offs.a.subarray(0, src.offs.n));
      dst.offs.n = src.offs.n;
    }
    await nextTurn();
  }
  out.rows = from.rows;
  return out;
}

/**
 * The segment an image holds, staged for `target`: `changed` are the change's ids (its contacts and
 * the ones it deleted). `target`'s table must stay the same until the attach (the caller runs no
 * build meanwhile); ContactTable.appendRows checks the dictionaries are shared. `before`: segments
 * staged already, to be attached with this one in the same step (room is made for them all).
 */
export async function stageSegment(
  target: SearchIndex,
  image: IndexImage,
  changed: readonly string[],
  before: readonly StagedSegment[] = [],
): Promise<StagedSegment> {
  let built: Built | undefined;
  for (const _ of builtFromImageSteps(image, (b) => (built = b))) await nextTurn();
  const index = new SearchIndex();
  index.swapInBuilt(built!);
  await nextTurn();
  const table = target.table;
  const rows = await remapped(index.table, table);
  const drop: number[] = [];
  const gone = new Set<string>();
  const due = timeSlice();
  for (const id of changed) {
    const r = target.ordinalOf(id);
    if (r !== undefined) drop.push(r);
    if (index.ordinalOf(id) === undefined) gone.add(id);
    if (due()) await nextTurn();
  }
  // Room in the index's columns now, a column a turn: growing them at the attach would copy them all in one step.
  const appended = [...before.map((b) => b.rows), rows];
  for (let k = 0; k < table.columns.length; k++) {
    table.reserve(k, appended);
    await nextTurn();
  }
  return { index, rows, drop, gone };
}
