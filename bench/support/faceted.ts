/**
 * One faceted GetSearchResults as the in-process benches time it (bench:faceted, bench:faceted-ab):
 * one of bench:http's faceted requests (`facetedSearches`, typing.ts), AsType JSON through
 * `service.invoke`, answering the milliseconds it took and the answer's text.
 */
import type { facetedSearches } from './typing.ts';
import type { Invokes } from './type-ahead.ts';

export type FacetedRequest = ReturnType<typeof facetedSearches>[number];

export function facetedSearch(service: Invokes): (p: FacetedRequest) => Promise<[number, string]> {
  return async (p) => {
    const t = performance.now();
    const r = await service.invoke({
      op: 'GetSearchResults',
      StringOfJSONParameters: JSON.stringify(p),
      DBName: 'Demo',
      AsType: 'JSON',
      caller: { binding: 'json', loopback: true },
    });
    if (r.kind !== 'text') throw new Error(`AsType JSON answered ${r.kind}`);
    return [performance.now() - t, r.text];
  };
}
