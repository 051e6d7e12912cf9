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
// Astral characters (two code units) and ones past the surrogates sort differently by code unit
// and by code point: the wide compare must follow JS's order (code units).
const char = fc.constantFrom(
  'a',
  'b',
  'ab',
  '\u0001',
  '\u0002',
  '9',
  'ÿ',
  'é',
  'Ω',
  '山',
  'z',
  '😀',
  '𠀀',
  '\ue000',
  '\uffee',
);
const term = fc.array(char, { minLength: 0, maxLength: 12 }).map((cs) => cs.join(''));

test('termAt and lowerBound equal the plain sorted array', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(term, { maxLength: 60, size: 'max' }),
      fc.array(fc.tuple(term, fc.nat(70)), { maxLength: 30, size: 'max' }),
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

test('prefixRange and isTerm equal the plain sorted array', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(term, { minLength: 20, maxLength: 200, size: 'max' }),
      fc.array(term, { maxLength: 30 }),
      (words, probes) => {
        const sorted = [...words].sort();
        const t = Terms.of(sorted);
        for (const p of [...probes, ...sorted, ...sorted.map((w) => w.slice(0, 2))]) {
          const lo = naiveLowerBound(sorted, p, 0);
          let hi = lo;
          while (hi < sorted.length && sorted[hi].startsWith(p)) hi++;
          assert.deepEqual(t.prefixRange(p), [lo, hi], p);
          for (let i = Math.max(0, lo - 1); i < Math.min(sorted.length, lo + 2); i++)
            assert.equal(t.isTerm(i, p), sorted[i] === p, `${i} ${p}`);
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('terms handed over in chunks encode as from one string', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(term, { maxLength: 40, size: 'max' }),
      fc.array(fc.nat(40)),
      (words, cuts) => {
        const sorted = [...words].sort();
        const whole = Terms.of(sorted);
        const latin = sorted.map((t) =>
          /^[\x00-\xff]*$/.test(t) ? t : Buffer.from(t, 'utf8').toString('latin1'),
        );
        const off = new Uint32Array(sorted.length + 1);
        latin.forEach((t, i) => (off[i + 1] = off[i] + t.length));
        const wide = Uint8Array.from(sorted, (t, i) => (t === latin[i] ? 0 : 1));
        const at = [...new Set([0, ...cuts.filter((c) => c < sorted.length), sorted.length])].sort(
          (a, b) => a - b,
        );
        const chunks = at.slice(1).map((to, k) => latin.slice(at[k], to).join(''));
        const parts = Terms.encode(chunks, off, wide).parts();
        assert.deepEqual(parts, whole.parts());
      },
    ),
    { numRuns: 200 },
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
