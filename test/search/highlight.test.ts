/**
 * highlight (search/highlight.ts): where a typed prefix lies in the original field text. Property
 * checked: it equals the naive mapping (the shortest slice from the token's start whose fold is at
 * least as long as the typed token) for ASCII text, apostrophes, accents, folds and e-mail addresses.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { highlight } from '../../src/search/highlight.ts';
import { normalize } from '../../src/search/normalize.ts';
import { termText } from '../../src/search/tokenize.ts';

function naive(original: string, start: number, length: number, typed: number, email: boolean) {
  const fold = email ? normalize : termText;
  for (let k = 1; k <= length; k++)
    if (fold(original.slice(start, start + k)).length >= typed) return { start, length: k };
  return { start, length };
}

test('1. equals the naive mapping', () => {
  const texts = [
    'Robert Smith',
    "O'Keefe Mary",
    'Zoë Ångström',
    'Straße 5',
    'Œuvre Łukasz',
    'd’Artagnan',
    "mary.o'neil@example.com",
    'ZOE@EXAMPLE.COM',
    '',
    'A',
  ];
  let checked = 0;
  for (const text of texts)
    for (let start = 0; start <= text.length; start++)
      for (let length = 0; start + length <= text.length; length++)
        for (let typed = 1; typed <= length + 2; typed++)
          for (const email of [false, true]) {
            const kind = email ? 'email' : 'word';
            assert.deepEqual(
              highlight(text, start, length, typed, kind),
              naive(text, start, length, typed, email),
              `${JSON.stringify(text)} ${start} ${length} ${typed} ${kind}`,
            );
            checked++;
          }
  assert.ok(checked > 1000);
});
