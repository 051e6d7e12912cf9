/**
 * A database's feed lag for /metrics: what the change feed holds from other writers past the last row
 * applied, read now (one query; FEED_KEEP rows at most): changed contacts, plus one for saved searches
 * and one for a reload pending. Undefined when the store is down: it knows it lost its connection
 * (`status()`), or does not answer within STATS_WAIT_MS.
 */
import { listedCount, type ContactStore } from '../store/store.ts';
import { withinMs } from './within-ms.ts';

const STATS_WAIT_MS = 2000;

export async function feedLag(store: ContactStore, seq: number): Promise<number | undefined> {
  try {
    if (store.status?.().up === false) return undefined;
    const ch = await withinMs(store.feed.since(seq), STATS_WAIT_MS, () => {
      throw new Error(`no answer within ${STATS_WAIT_MS} ms`);
    });
    return ch.contacts.length + listedCount(ch) + (ch.saved ? 1 : 0) + (ch.all ? 1 : 0);
  } catch {
    return undefined; // down
  }
}
