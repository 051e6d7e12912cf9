/** bench/support/typing.ts distinctTypingQueries: the distinct typing traffic of bench:typing and bench:http (issue 22). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  distinctTypingQueries,
  FIRST_NAME_CHARS,
  LAST_NAME_CHARS,
  type PersonName,
} from '../bench/support/typing.ts';

const names: PersonName[] = [
  { first: 'Anna', last: 'Berg' },
  { first: 'Anton', last: 'Bergström' },
  { first: 'Zoë', last: "O'Brien" },
  { first: 'Mary Ann', last: 'Lee' },
  { first: '陽菜', last: '佐々木' },
  { first: 'Anna', last: 'Berg' }, // a twin: adds nothing
  { first: null, last: 'Acme Corp' }, // a company: no first name, no query
  { first: 'Bo', last: null },
  { first: 'Li Na', last: 'Wu' },
  { first: 'Li', last: 'Nguyen' }, // "Li N" again: once
];

/** Which (first, last) of `names` a query is made from, under the shape rules, or undefined. */
function madeFrom(q: string): boolean {
  const chars = (s: string) => Array.from(s);
  return names.some(({ first, last }) => {
    if (!first) return false;
    const fp = (k: number) => chars(first).slice(0, k).join('').trimEnd();
    for (let f = 1; f <= FIRST_NAME_CHARS; f++) {
      if (q === fp(f)) return true;
      for (let l = 1; last && l <= LAST_NAME_CHARS; l++)
        if (q === `${fp(f)} ${chars(last).slice(0, l).join('').trimEnd()}`) return true;
    }
    return false;
  });
}

test('every query is distinct, made from a name under the shape rules, and the set is complete', () => {
  const qs = distinctTypingQueries(names);
  assert.equal(new Set(qs).size, qs.length);
  for (const q of qs) {
    assert.ok(madeFrom(q), `not made from a name: ${JSON.stringify(q)}`);
    assert.equal(q, q.trim());
  }
  // Counted by hand: Anna 4 first prefixes × (1 + 4 "Berg" prefixes) = 20; Anton adds "Ant", "Anto",
  // "Anton", each × (1 + the same 4 prefixes of "Bergström") = 15 ("A", "An" add nothing new); Zoë 3 ×
  // (1 + "O", "O'", "O'B", "O'Br") = 15; "Mary Ann" gives "M", "Ma", "Mar", "Mary" (the 5th, "Mary ",
  // trims to "Mary") × (1 + 3) = 16; 陽菜 2 × (1 + 3) = 8; Bo "B", "Bo" = 2; the twin and the company 0; "Li Na" "L", "Li", "Li N", "Li Na" × (1 + 2) = 12;
  // "Li Nguyen" only the pairs "L N" … "L Nguy", "Li Ng" … "Li Nguy" = 7 ("Li N" is there).
  assert.equal(qs.length, 20 + 15 + 15 + 16 + 8 + 2 + 12 + 7);
  for (const q of [
    'A',
    'Anna',
    'Anna B',
    'Anton Berg',
    "Zo O'B",
    'Mary Lee',
    '陽 佐々木',
    '陽菜 佐',
    'Bo',
  ])
    assert.ok(qs.includes(q), q);
  for (const q of ['Annab', 'Anna Bergs', 'Acme', 'Bo B', 'Mary ', 'Mary A Lee'])
    assert.ok(!qs.includes(q), q);
});

test('the order is deterministic: the same for the same names in any order, another for another seed', () => {
  const a = distinctTypingQueries(names);
  assert.deepEqual(distinctTypingQueries([...names].reverse()), a);
  assert.deepEqual(distinctTypingQueries(names, 22), a);
  const other = distinctTypingQueries(names, 23);
  assert.deepEqual([...other].sort(), [...a].sort());
  assert.notDeepEqual(other, a);
  // Shuffled, not sorted.
  assert.notDeepEqual(a, [...a].sort());
});
