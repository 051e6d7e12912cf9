/**
 * An index for a process that reads contacts but serves none: the import CLI's likely-duplicate
 * search, which otherwise reads every contact from the store (7.5 s for a one-row file into 1M) and
 * can look the file's emails and phones up in an index instead (service/requests/duplicates.ts). It
 * is the snapshot a server wrote beside the store (snapshot.ts, checked as a server checks it), with
 * the changes since from the change feed; never a build.
 */
import { nextTurn } from '../next-turn.ts';
import { SearchIndex } from '../search/search-index.ts';
import { listedIds, type ContactStore } from '../store/store.ts';
import { applyFromStore, readSnapshot, swapInSteps } from './rebuilds.ts';
import { snapshotOf } from './snapshot.ts';
import { firstLine } from './writer-segment.ts';

/**
 * The store's contacts as an index from its snapshot, or why not: no snapshot (none written yet, a
 * backend without one), one this code may not use, a feed that no longer lists the changes since,
 * changes since that a server would index as a segment (many: reading the store is then as quick),
 * or a contact count that then disagrees. The caller then reads the store.
 */
export async function snapshotIndex(
  store: ContactStore,
): Promise<{ index: SearchIndex } | { why: string }> {
  const snap = snapshotOf(store);
  if (!snap) return { why: `the ${store.backend} store keeps no index snapshot` };
  const read = await readSnapshot(store, await store.feed.head());
  if (read === undefined) return { why: `no index snapshot at ${snap.file} (a server writes it)` };
  if ('why' in read)
    return { why: `index snapshot ${snap.file} not usable (${firstLine(read.why)})` };
  const index = new SearchIndex();
  await swapInSteps(index, read.image);
  const since = await store.feed.since(read.seq);
  if (since.all) return { why: 'the change feed no longer lists the changes since the snapshot' };
  const ids = [...since.contacts, ...(await listedIds(since, nextTurn))];
  if (index.isBigChange(ids.length))
    return { why: `${ids.length} contacts changed since the index snapshot` };
  await applyFromStore(index, store, ids);
  const count = await store.count();
  if (count !== index.size)
    return { why: `the store holds ${count} contacts, its snapshot and feed ${index.size}` };
  return { index };
}
