/**
 * `npm run bench:typing-ab -- --before ROOT [--data-dir DIR --before-data-dir DIR2 --count N --skip S --block B]`:
 * two checkouts' type-ahead in one process (not a test) — this one and ROOT's (the "before" of a
 * change: `--before /work/main`), each with its own modules and its own open of its folder's Demo.db
 * (`--before-data-dir`, default DIR: both may share DIR while their index code version is the same,
 * the snapshot beside it serving both; give ROOT a copy of its own when it differs) — on the same
 * distinct typing queries (bench/support/typing.ts, the list bench:typing and bench:http send:
 * queries S … S+N), in blocks of B alternating which goes first. Result cache off, Limit 10, AsType
 * JSON through `service.invoke`, as bench:typing times the engine. Prints each side's median, p90,
 * p99, max and mean, and how many answers differ byte for byte (the first few shown): a change that
 * only makes the engine faster answers every query as before.
 *
 * Both sides share the machine's noise block by block, so the ratio of the two is steadier than two
 * runs of bench:typing; it has no unranked baseline (bench:typing's ratio is the issue's figure).
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  alternate,
  checkoutDirs,
  checkoutOptions,
  checkoutService,
  summary,
  type Side,
} from './support/checkout.ts';
import { typeAhead } from './support/type-ahead.ts';
import { contactNames, distinctTypingQueries } from './support/typing.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    ...checkoutOptions(root),
    count: { type: 'string', default: '20000' },
    skip: { type: 'string', default: '0' },
    block: { type: 'string', default: '200' },
  },
});
const count = Number(values.count),
  skip = Number(values.skip),
  block = Number(values.block);
if (!values.before || !(count > 0 && block > 0 && skip >= 0)) {
  console.error(
    '--before ROOT is required; --count and --block take positive numbers, --skip 0 or more',
  );
  process.exit(2);
}
const { dir, beforeDir } = checkoutDirs(values);

type Ask = (text: string) => Promise<[number, string]>;
/** One checkout's service over `folder`, its modules imported from `tree`. */
const serviceOf = async (tree: string, folder: string): Promise<Ask> =>
  typeAhead(await checkoutService(tree, folder));

const queries = distinctTypingQueries(contactNames(join(dir, 'Demo.db'))).slice(skip, skip + count);
const sides: [Side<string>, Side<string>] = [
  {
    name: `before (${resolve(values.before)})`,
    ask: await serviceOf(resolve(values.before), beforeDir),
  },
  { name: `this checkout (${root})`, ask: await serviceOf(root, dir) },
];
// Warm-up (JIT, first touches of the index): the first 1,000 queries on both, untimed.
for (const q of queries.slice(0, 1000)) for (const s of sides) await s.ask(q);

const { times, differing } = await alternate(sides, queries, block);
const us = (ms: number) => `${Math.round(ms * 1000).toLocaleString('en')} µs`;
console.log(
  `\n${queries.length.toLocaleString('en')} distinct typing queries (from ${skip}), blocks of ${block}, alternating\n`,
);
console.log('| | median | p90 | p99 | max | mean |\n|---|---|---|---|---|---|');
sides.forEach((s, k) => {
  const m = summary(times[k]);
  console.log(
    `| ${s.name} | ${us(m.p50)} | ${us(m.p90)} | ${us(m.p99)} | ${us(m.max)} | ${us(m.mean)} |`,
  );
});
console.log(
  `\nanswers differing byte for byte: ${differing} of ${queries.length.toLocaleString('en')}`,
);
process.exit(differing ? 1 : 0);
