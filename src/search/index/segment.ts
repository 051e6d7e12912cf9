/**
 * Segments: a big change (an import here, or another process's import heard through the change
 * feed) indexed on its own — built on a worker thread from just the changed contacts
 * (database/rebuilds.ts) — and searched beside the base until the next full build takes it in
 * (docs/SEARCH.md "Segments"). Its contacts are the rows [from, to) of the index's table, in the
 * segment's own ordinal order (its tie-break order), so its ordinal l is row from + l; its own index
 * (a SearchIndex holding only it) answers the query plan, and query/segments.ts maps the hits.
 *
 * Putting one in costs the main thread: the image read (term blob, small dictionaries), the rows
 * copied into a table sharing the index's dictionaries and room made in the index's columns — all
 * here, in slices of a few milliseconds while searches go on — then one synchronous step
 * (SearchIndex.attachSegment): the changed contacts' old rows dropped, the staged rows appended
 * (typed-array copies) and made live.
 */
import { nextTurn } from '../../next-turn.ts';
import { SearchIndex } from '../search-index.ts';
import { ContactTable } from '../table/contact-table.ts';
import type { IndexImage } from './image.ts';

export interface Segment {
  /** The segment's own index: ordinal l is the index's row from + l. */
  readonly index: SearchIndex;
  readonly from: number;
  readonly to: number;
}

/** A built segment ready to attach to `target` (its rows in a table sharing target's dictionaries). */
export interface StagedSegment {
  readonly index: SearchIndex;
  readonly rows: ContactTable;
}

/** Main-thread work between two turns of the event loop. */
const SLICE_MS = 3;

/**
 * The segment an image holds, its rows copied into a table that shares `target`'s dictionaries, and
 * room made for them in target's columns. `target`'s table must stay the same until the attach (the
 * caller runs no build meanwhile); SearchIndex.attachSegment checks the dictionaries are shared.
 */
export async function stageSegment(target: SearchIndex, image: IndexImage): Promise<StagedSegment> {
  const index = new SearchIndex();
  index.swapInImage(image);
  await nextTurn();
  const table = target.table;
  const rows = new ContactTable(table.columns.map((c) => c.dict));
  let t = performance.now();
  for (let l = 0; l < index.table.rows; l++) {
    rows.append(index.table.contact(l));
    if ((l & 31) === 31 && performance.now() - t > SLICE_MS) {
      await nextTurn();
      t = performance.now();
    }
  }
  // Room in the index's columns now, a column a turn: growing them at the attach would copy them all in one step.
  for (let k = 0; k < table.columns.length; k++) {
    table.reserve(k, rows);
    await nextTurn();
  }
  return { index, rows };
}
