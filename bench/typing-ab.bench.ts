/**
 * `npm run bench:typing-ab -- --before ROOT [--data-dir DIR --count N --skip S --block B]`: two
 * checkouts' type-ahead in one process (not a test) — this one and ROOT's (the "before" of a change:
 * `--before /work/main`), each with its own modules and its own open of DIR/Demo.db (both may share
 * DIR while their index code version is the same: the snapshot beside it serves both) — on the same
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
import { checkoutService } from './support/checkout.ts';
import { typeAhead } from './support/type-ahead.ts';
import { contactNames, distinctTypingQueries } from './support/typing.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    'data-dir': { type: 'string', default: join(root, '.tmp', 'bench-http') },
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
const dir = resolve(values['data-dir']!);

type Ask = (text: string) => Promise<[number, string]>;
/** One checkout's service over DIR, its modules imported from `tree`. */
const serviceOf = async (tree: string): Promise<Ask> => typeAhead(await checkoutService(tree, dir));

const queries = distinctTypingQueries(contactNames(join(dir, 'Demo.db'))).slice(skip, skip + count);
const sides = [
  { name: `before (${resolve(values.before)})`, ask: await serviceOf(resolve(values.before)) },
  { name: `this checkout (${root})`, ask: await serviceOf(root) },
];
// Warm-up (JIT, first touches of the index): the first 1,000 queries on both, untimed.
for (const q of queries.slice(0, 1000)) for (const s of sides) await s.ask(q);

const times = sides.map(() => new Float64Array(queries.length));
let differing = 0;
for (let from = 0, b = 0; from < queries.length; from += block, b++) {
  const to = Math.min(queries.length, from + block);
  const answers: string[][] = [[], []];
  for (const k of b % 2 ? [1, 0] : [0, 1])
    for (let i = from; i < to; i++) {
      const [ms, text] = await sides[k].ask(queries[i]);
      times[k][i] = ms;
      answers[k].push(text);
    }
  for (let i = from; i < to; i++) {
    if (answers[0][i - from] === answers[1][i - from]) continue;
    if (differing++ < 5)
      console.log(
        `differs: ${JSON.stringify(queries[i])}\n  ${answers[0][i - from]}\n  ${answers[1][i - from]}`,
      );
  }
}
const us = (ms: number) => `${Math.round(ms * 1000).toLocaleString('en')} µs`;
console.log(
  `\n${queries.length.toLocaleString('en')} distinct typing queries (from ${skip}), blocks of ${block}, alternating\n`,
);
console.log('| | median | p90 | p99 | max | mean |\n|---|---|---|---|---|---|');
sides.forEach((s, k) => {
  const t = Float64Array.from(times[k]).sort();
  const at = (p: number) => t[Math.min(t.length - 1, Math.floor(p * t.length))];
  const mean = t.reduce((a, x) => a + x, 0) / t.length;
  console.log(
    `| ${s.name} | ${us(at(0.5))} | ${us(at(0.9))} | ${us(at(0.99))} | ${us(t[t.length - 1])} | ${us(mean)} |`,
  );
});
console.log(
  `\nanswers differing byte for byte: ${differing} of ${queries.length.toLocaleString('en')}`,
);
process.exit(differing ? 1 : 0);
