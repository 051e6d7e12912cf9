/**
 * The multikey string sort (src/search/sort-strings.ts) against Array.prototype.sort. Properties checked:
 * 1. Any strings, short and long lists (both sides of the insertion-sort cut-over), sort as the
 *    built-in sorts them: UTF-16 code units, a proper prefix first, lone surrogates and U+0000 included.
 * 2. Many strings sharing long prefixes (the build's keys: a name, U+0000, an id) sort so too.
 * 3. Strings already in order (ids in id order) come back as they are; one out of place is sorted.
 * 4. With the partitions per position cut short (SORT_TUNING), the comparison fallback sorts the same.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SORT_TUNING, sortedStrings, StringRun } from '../../src/search/sort-strings.ts';

/** The strings in the order sortedStrings gives. */
function sortedByRun(strings: readonly string[]): string[] {
  const run = new StringRun(strings.length);
  for (const s of strings) {
    run.write(s);
    run.end();
  }
  return [...sortedStrings(run)].map((k) => strings[k]);
}

const unit = fc.constantFrom(
  'a',
  'b',
  'ab',
  '\u0000',
  '\uffff',
  '\ud83d',
  '\ude00',
  'é',
  '山',
  'A',
);
const str = fc.array(unit, { maxLength: 8 }).map((cs) => cs.join(''));

test('1. any strings sort as Array.prototype.sort sorts them', () => {
  fc.assert(
    fc.property(fc.array(str, { maxLength: 80, size: 'max' }), (strings) => {
      assert.deepEqual(sortedByRun(strings), [...strings].sort());
    }),
    { numRuns: 500 },
  );
});

test('2. keys sharing long prefixes sort as the built-in sorts them', () => {
  let seed = 11;
  const rand = (k: number) =>
    Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * k);
  const names = ['anna smith', 'anna smithson', 'anna', 'bo', 'zoë', ''];
  const keys = Array.from(
    { length: 5000 },
    (_, i) => `${names[rand(names.length)]}\u0000C${String(rand(3000)).padStart(7, '0')}\u0000${i}`,
  );
  assert.deepEqual(sortedByRun(keys), [...keys].sort());
});

test('3. strings already in order, and with one out of place', () => {
  const ids = Array.from({ length: 3000 }, (_, i) => `C${String(i).padStart(7, '0')}`);
  assert.deepEqual(sortedByRun(ids), ids);
  const moved = [...ids.slice(1), ids[0]];
  assert.deepEqual(sortedByRun(moved), ids);
  assert.deepEqual(sortedByRun(['b', 'b', 'a']), ['a', 'b', 'b']);
});

test('4. past its partitions at one position, a range is sorted by comparisons, in the same order', () => {
  const saved = SORT_TUNING.levels;
  try {
    for (const levels of [0, 0.1, 0.5]) {
      SORT_TUNING.levels = levels;
      fc.assert(
        // Past the insertion sort's 12 (fast-check's arrays stay short unless told).
        fc.property(fc.array(str, { minLength: 13, maxLength: 120 }), (strings) => {
          assert.deepEqual(sortedByRun(strings), [...strings].sort());
        }),
        { numRuns: 200 },
      );
    }
  } finally {
    SORT_TUNING.levels = saved;
  }
});
