/**
 * Phone terms interned as numbers (src/search/table/digit-terms.ts). Properties checked:
 * 1. digitKey/digitString round-trip every string of 1–15 ASCII digits, leading zeros kept; anything else is -1.
 * 2. DigitTerms gives each distinct key one id through many rehashes, and get() finds it (or -1).
 * 3. sortedDigits lists the terms in string order (ids, lengths and the blob chunk), and declines terms over 14 digits.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  DigitTerms,
  digitKey,
  digitString,
  sortedDigits,
} from '../../src/search/table/digit-terms.ts';

test('1. digit strings round-trip', () => {
  const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 15 });
  fc.assert(
    fc.property(digits, (s) => {
      assert.equal(digitString(digitKey(s)), s);
      assert.equal(digitString(digitKey(s, true)), [...s].reverse().join(''));
    }),
    { numRuns: 2000 },
  );
  for (const bad of ['', '1234567890123456', '12a', '+44', '１２', '٣'])
    assert.equal(digitKey(bad), -1, bad);
  assert.notEqual(digitKey('012'), digitKey('12'));
});

test('2. one id per distinct key', () => {
  const t = new DigitTerms();
  const ids = new Map<string, number>();
  let next = 0;
  for (let i = 0; i < 200_000; i++) {
    const s = String((i * 7919) % 150_000).padStart(1 + (i % 9), '0');
    const id = t.intern(digitKey(s), next);
    if (id === next) next++;
    if (!ids.has(s)) ids.set(s, id);
    assert.equal(id, ids.get(s), s);
  }
  assert.equal(t.size, ids.size);
  for (const [s, id] of ids) assert.equal(t.get(digitKey(s)), id);
  assert.equal(t.get(digitKey('99999999999')), -1);
});

test('3. sortedDigits is the string order', () => {
  const digits = fc.string({ unit: fc.constantFrom(...'0129'), minLength: 1, maxLength: 14 });
  fc.assert(
    fc.property(fc.uniqueArray(digits, { maxLength: 60, size: 'max' }), (terms) => {
      const t = new DigitTerms();
      terms.forEach((s, i) => t.intern(digitKey(s), i));
      const got = sortedDigits(t, '\u0002')!;
      const want = [...terms].sort();
      assert.deepEqual(
        [...got.ids].map((id) => terms[id]),
        want,
      );
      assert.deepEqual(
        [...got.lengths],
        want.map((s) => s.length),
      );
      assert.equal(got.chunk, want.map((s) => `\u0002${s}`).join(''));
    }),
    { numRuns: 500 },
  );
  const t = new DigitTerms();
  t.intern(digitKey('491234567890123'), 0);
  assert.equal(sortedDigits(t, '\u0002'), undefined);
});
