/**
 * The search page's highlighting of grid cells (src/web/search-highlight.js), run in Node with the
 * service's folds (what http/static-files.ts serves as search-folds.js). Properties checked:
 * 1. A typed token marks the start of a word, accents and case ignored.
 * 2. German and Nordic spellings both ways (CONTRACT §4): "mueller" marks "Müller", "muller" and
 *    "mul" mark "Mueller"'s letters, "soeren" marks "Søren"; each word once.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { FOLDS } from '../src/search/normalize.ts';

const source = readFileSync(
  new URL('../src/web/search-highlight.js', import.meta.url),
  'utf8',
).replace(
  /^import \{ FOLDS \} from '\.\/search-folds\.js';.*$/m,
  `const FOLDS = ${JSON.stringify(FOLDS)};`,
);
const page = (await import(
  `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`
)) as {
  queryTokens(q: string): string[];
  findRanges(text: string, tokens: string[]): { Start: number; Length: number }[];
};

/** The marked slices of `text` for query `q`. */
const marked = (text: string, q: string) =>
  page.findRanges(text, page.queryTokens(q)).map((r) => text.slice(r.Start, r.Start + r.Length));

test('1. a token marks a word start, accents and case ignored', () => {
  assert.deepEqual(marked('Zoë Ångström', 'zoe ang'), ['Zoë', 'Ång']);
  assert.deepEqual(marked('Robert Smith', 'sm'), ['Sm']);
  assert.deepEqual(marked('Robert Smith', 'obert'), []);
});

test('2. German and Nordic spellings both ways', () => {
  assert.deepEqual(marked('Hans Müller', 'mueller'), ['Müller']);
  assert.deepEqual(marked('Hans Müller', 'mue'), ['Mü']);
  assert.deepEqual(marked('Hans Müller', 'müller'), ['Müller']);
  assert.deepEqual(marked('Eva Mueller', 'müller'), ['Mueller']);
  assert.deepEqual(marked('Eva Mueller', 'mul'), ['Muel']);
  assert.deepEqual(marked('Karl Muller', 'mueller'), ['Muller']);
  assert.deepEqual(marked('Søren Kierkegaard', 'soeren'), ['Søren']);
  assert.deepEqual(marked('Per Aangstrom', 'ångström'), ['Aangstrom']);
});
