// The front-coded term dictionary (src/search/index/terms.ts) against a plain sorted array.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Terms } from '../../src/search/index/terms.ts';

/** The first index ≥ lo whose term is ≥ s, the plain way. */
function naiveLowerBound(sorted: readonly string[], s: string, lo: number): number {
  let i = lo;
  while (i < sorted.length && sorted[i] < s) i++;
  return Math.max(i, lo);
}

// Characters that make neighbours share prefixes, cross the one-byte boundary and sort around it.
const char = fc.constantFrom('a', 'b', 'ab', '\u0001', '\u0002', '9', 'ÿ', 'é', 'Ω', '山', 'z');
const term = fc.array(char, { minLength: 0, maxLength: 12 }).map((cs) => cs.join(''));

test('termAt and lowerBound equal the plain sorted array', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(term, { maxLength: 60 }),
      fc.array(fc.tuple(term, fc.nat(70)), { maxLength: 30 }),
      (words, probes) => {
        const sorted = [...words].sort();
        const t = Terms.of(sorted);
        assert.equal(t.T, sorted.length);
        sorted.forEach((w, i) => assert.equal(t.termAt(i), w));
        for (const [s, lo] of [...probes, ...sorted.map((w) => [w, 0] as [string, number])])
          assert.equal(t.lowerBound(s, lo), naiveLowerBound(sorted, s, lo), `${s} from ${lo}`);
      },
    ),
    { numRuns: 300 },
  );
});

test('long terms and prefixes longer than 255 bytes shared', () => {
  const long = 'x'.repeat(300);
  const sorted = [long + 'a', long + 'b', long + 'b' + 'y'.repeat(5000), '山'.repeat(200)].sort();
  const t = Terms.of(sorted);
  sorted.forEach((w, i) => assert.equal(t.termAt(i), w));
  assert.equal(t.lowerBound(long + 'b'), 1);
  assert.equal(t.lowerBound(long + 'c'), 3);
  assert.equal(t.lowerBound('山'), 3);
  assert.equal(t.lowerBound('\uffff'), 4);
});

test('an image of the parts reads the same terms', () => {
  const sorted = ['\u0001a@b.c', '\u000212', '\u0002123', 'anna', 'annabel', 'bob', 'μαρία'];
  const t = Terms.fromParts(Terms.of(sorted).parts());
  assert.deepEqual(
    sorted.map((_, i) => t.termAt(i)),
    sorted,
  );
  assert.equal(t.lowerBound('ann'), 3);
  assert.equal(t.lowerBound('anna\uffff'), 5);
});
