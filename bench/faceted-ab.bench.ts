/**
 * `npm run bench:faceted-ab -- --before ROOT [--data-dir DIR --before-data-dir DIR2 --rounds R --warm W --settle S]`:
 * two checkouts' faceted GetSearchResults in one process (not a test) — this one's and ROOT's (the
 * "before" of a change), each with its own modules and its own open of its folder's Demo.db
 * (`--before-data-dir`, default DIR: give a copy of its own when the two index code versions differ,
 * or each open rebuilds and overwrites the other's snapshot). bench:faceted's 100 requests, result
 * cache off: after S seconds (what an open starts behind it, a spare segment worker, done) and W
 * untimed rounds on each side, R rounds, a round of the 100 on one side then the other, alternating
 * which goes first. Prints each side's mean, median, p90, p99 and max, and how many answers differ
 * byte for byte (the first few shown).
 *
 * The steady state only: both sides share the machine's noise round by round, where two runs of
 * bench:faceted (whose first round holds the first touches) moved by ±20% between runs on the
 * shared machine (docs/perf-log/2026-11-26-facet.md).
 */
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import {
  alternate,
  checkoutDirs,
  checkoutOptions,
  checkoutService,
  summary,
  type Side,
} from './support/checkout.ts';
import { facetedSearch, type FacetedRequest } from './support/faceted.ts';
import { facetedSearches, sampleContacts } from './support/typing.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    ...checkoutOptions(root),
    rounds: { type: 'string', default: '30' },
    warm: { type: 'string', default: '2' },
    settle: { type: 'string', default: '3' },
  },
});
const rounds = Number(values.rounds),
  warm = Number(values.warm),
  settle = Number(values.settle);
if (!values.before || !(rounds > 0 && warm >= 0 && settle >= 0)) {
  console.error(
    '--before ROOT is required; --rounds takes a positive number, --warm and --settle 0 or more',
  );
  process.exit(2);
}
const { dir, beforeDir } = checkoutDirs(values);

const requests = facetedSearches(sampleContacts(join(dir, 'Demo.db')));
const sides: [Side<FacetedRequest>, Side<FacetedRequest>] = [
  {
    name: `before (${resolve(values.before)})`,
    ask: facetedSearch(await checkoutService(resolve(values.before), beforeDir)),
  },
  { name: `this checkout (${root})`, ask: facetedSearch(await checkoutService(root, dir)) },
];
await sleep(settle * 1000);
for (let r = 0; r < warm; r++) for (const s of sides) for (const p of requests) await s.ask(p);

// A round: the 100 requests on one side then the other (blocks of one round, alternating).
const { times, differing } = await alternate(
  sides,
  Array.from({ length: rounds }, () => requests).flat(),
  requests.length,
);
const ms = (x: number) => `${x.toFixed(2)} ms`;
console.log(
  `\n${requests.length} faceted requests × ${rounds} rounds a side, after ${warm} warm rounds and ${settle} s, alternating\n`,
);
console.log('| | mean | median | p90 | p99 | max |\n|---|---|---|---|---|---|');
sides.forEach((s, k) => {
  const m = summary(times[k]);
  console.log(
    `| ${s.name} | ${ms(m.mean)} | ${ms(m.p50)} | ${ms(m.p90)} | ${ms(m.p99)} | ${ms(m.max)} |`,
  );
});
console.log(
  `\nanswers differing byte for byte: ${differing} of ${(rounds * requests.length).toLocaleString('en')}`,
);
process.exit(differing ? 1 : 0);
