/**
 * Lengths (table/lengths.ts), the byte-a-length offsets of buffered values and posting lists.
 * Properties checked:
 * 1. For any lengths (0, small, past 2^16, blocks of 16 wider than 65,535), start(i) is the sum
 *    of the lengths before i for every i up to the size, and length(i) gives each back — pushed
 *    one by one, made from offsets (`between`), and read back from its parts.
 * 2. Parts whose marks do not fit their lengths, or a wide block without its starts, are refused.
 * 3. appendFrom (a range of another's entries, in one loop) gives what pushing them one by one gives,
 *    onto any lengths, across wide blocks on either side, read back and from its parts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Lengths } from '../../src/search/table/lengths.ts';

const length = fc.oneof(
  fc.integer({ min: 0, max: 20 }),
  fc.constantFrom(253, 254, 255, 256, 70_000),
  fc.integer({ min: 0, max: 100_000 }),
);

test('1. start and length over any lengths', () => {
  fc.assert(
    fc.property(fc.array(length, { maxLength: 80, size: 'max' }), fc.nat(1000), (lens, first) => {
      const pushed = new Lengths();
      for (const l of lens) pushed.push(l);
      const offs = new Uint32Array(lens.length + 1);
      offs[0] = first;
      lens.forEach((l, i) => (offs[i + 1] = offs[i] + l));
      for (const l of [pushed, Lengths.between(offs), Lengths.fromParts(pushed.parts())]) {
        assert.equal(l.size, lens.length);
        for (let i = 0; i <= lens.length; i++) assert.equal(l.start(i), offs[i] - first);
        assert.equal(l.total, offs[lens.length] - first);
        lens.forEach((x, i) => assert.equal(l.length(i), x));
      }
    }),
  );
});

test('2. parts that do not fit are refused', () => {
  const l = new Lengths();
  for (let i = 0; i < 20; i++) l.push(i * 5000);
  const p = l.parts();
  assert.ok(p.wide.length > 0);
  assert.throws(() => Lengths.fromParts({ ...p, marks: p.marks.subarray(0, 1) }), /do not fit/);
  assert.throws(() => Lengths.fromParts({ ...p, wide: [] }), /without its starts/);
});

test('3. appendFrom equals pushing the same entries one by one', () => {
  fc.assert(
    fc.property(
      fc.array(length, { maxLength: 60, size: 'max' }),
      fc.array(length, { maxLength: 80, size: 'max' }),
      fc.nat(80),
      fc.nat(80),
      (mine, theirs, a, b) => {
        const from = new Lengths();
        for (const l of theirs) from.push(l);
        const first = Math.min(a, theirs.length),
          n = Math.min(b, theirs.length - first);
        const pushed = new Lengths(),
          appended = new Lengths();
        for (const l of mine) {
          pushed.push(l);
          appended.push(l);
        }
        for (let i = first; i < first + n; i++) pushed.push(from.length(i));
        appended.appendFrom(from, first, n);
        for (const l of [appended, Lengths.fromParts(appended.parts())]) {
          assert.equal(l.size, pushed.size);
          assert.equal(l.total, pushed.total);
          for (let i = 0; i <= pushed.size; i++) assert.equal(l.start(i), pushed.start(i));
        }
        assert.deepEqual(appended.parts(), pushed.parts());
      },
    ),
    { numRuns: 300 },
  );
});
