/**
 * A ContactStore whose calls are timed into contact_search_store_query_duration_seconds, by backend
 * and kind of query (docs/MONITORING.md): one wrapper around whichever store, so the backends stay as
 * they are. Members it does not time are the store's own (the wrapper inherits them).
 */
import { observeStoreQuery } from '../metrics/metrics.ts';
import type { Contact } from '../fields/contact.ts';
import type { ChangeFeed, ContactStore, StoreTransaction } from './store.ts';

type Timer = <T>(query: string, work: () => Promise<T>) => Promise<T>;

export function timedStore(store: ContactStore): ContactStore {
  const backend = store.backend;
  const timed: Timer = async (query, work) => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      observeStoreQuery(backend, query, (performance.now() - started) / 1000);
    }
  };
  const feed: ChangeFeed = {
    moved: () => store.feed.moved(), // synchronous and cheap: not a query
    head: () => timed('feed_head', () => store.feed.head()),
    since: (seq) => timed('feed_since', () => store.feed.since(seq)),
  };
  const own: Partial<ContactStore> = {
    feed,
    loadAll: (batchSize) => timedLoad(store.loadAll(batchSize), timed),
    get: (ids) => timed('get', () => store.get(ids)),
    count: () => timed('count', () => store.count()),
    begin: async () => timedTransaction(await timed('begin', () => store.begin()), timed),
    listSavedSearches: () => timed('saved_list', () => store.listSavedSearches()),
    putSavedSearch: (s) => timed('saved_put', () => store.putSavedSearch(s)),
    deleteSavedSearch: (name) => timed('saved_delete', () => store.deleteSavedSearch(name)),
    describe: () => timed('describe', () => store.describe()),
  };
  // What is not timed (backend, close, and whatever a store adds) is the store's own, called on the store.
  return new Proxy(store, {
    get(target, key) {
      if (key in own) return own[key as keyof ContactStore];
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

function timedTransaction(tx: StoreTransaction, timed: Timer): StoreTransaction {
  return {
    put: (contacts) => timed('put', () => tx.put(contacts)),
    delete: (ids) => timed('delete', () => tx.delete(ids)),
    deleteAllExcept: (keep) => timed('delete_all_except', () => tx.deleteAllExcept(keep)),
    commit: () => timed('commit', () => tx.commit()),
    rollback: () => timed('rollback', () => tx.rollback()),
  };
}

/** Each batch read is one observation of `load_batch` (a whole load at 1M contacts is many batches, and minutes). */
async function* timedLoad(
  batches: AsyncIterable<Contact[]>,
  timed: Timer,
): AsyncGenerator<Contact[]> {
  const it = batches[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const next = await timed('load_batch', () => it.next());
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!finished) await it.return?.(); // the caller stopped early: let the store close its cursor
  }
}
