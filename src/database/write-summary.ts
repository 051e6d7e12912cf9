/** What a write will do to the index (ProcessRequest's counts), read off the index before it commits. */
import type { SearchIndex } from '../search/search-index.ts';
import type { ChangeSet } from '../store/store.ts';
import type { WriteSummary } from './database.ts';

export function summariseWrite(index: SearchIndex, change: ChangeSet): WriteSummary {
  const summary: WriteSummary = { inserted: 0, updated: 0, deleted: 0 };
  const willDelete = new Set(
    change.replaceAll
      ? index.ordinals().map((o) => index.table.value(o, 'ContactId')!)
      : (change.delete ?? []),
  );
  for (const c of change.upsert ?? []) {
    if (!change.replaceAll && index.ordinalOf(c.ContactId) !== undefined) summary.updated++;
    else summary.inserted++;
    willDelete.delete(c.ContactId);
  }
  for (const id of willDelete) if (index.ordinalOf(id) !== undefined) summary.deleted++;
  return summary;
}
