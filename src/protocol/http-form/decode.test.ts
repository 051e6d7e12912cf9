import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  decodeComponent,
  decodeLenient,
  parseFields,
  parseFieldsInSlices,
  safeCut,
} from './decode.ts';

/** Pieces a form value is made of: escapes whole, cut, malformed, %u, stray, non-ASCII. */
const piece = fc.constantFrom(
  'a',
  'Z',
  '+',
  '%',
  '%2',
  '%2B',
  '%20',
  '%zz',
  '%u',
  '%u00E9',
  '%uD83D',
  '%C3',
  '%A9',
  '%C3%A9',
  '%E2%82%AC',
  '%F0%9F%98%80',
  '%ED%A0%BD',
  '%C0%AF',
  '%EF%BF%BF',
  '%00',
  '%25',
  'é',
  '😀',
);

test('%uXXXX (generated .NET proxies), UTF-8 %XX and + as space', () => {
  assert.equal(decodeComponent('Zo%u00EB+%u00C5ngstr%u00F6m'), 'Zoë Ångström');
  assert.equal(decodeComponent('%uD83D%uDE00'), '😀');
  assert.equal(decodeComponent('Zo%C3%AB'), 'Zoë');
  assert.equal(decodeComponent('%F0%9F%98%80%20x'), '😀 x');
  assert.equal(decodeComponent('100%'), '100%', 'a stray % stays');
  assert.equal(decodeComponent('%zz%u12'), '%zz%u12');
});

test('names are case-insensitive; repeats join with a comma; extras kept', () => {
  const f = parseFields('dbname=Demo&DBName=Other&astype=JSON&Extra=1&flag');
  assert.equal(f.get('dbname'), 'Demo,Other');
  assert.equal(f.get('astype'), 'JSON');
  assert.equal(f.get('flag'), '');
});

test('the fast path reads every component as the escape-by-escape reading does', () => {
  // Pieces that make well-formed, malformed, overlong, surrogate and %u escapes next to each other.
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const s = pieces.join('');
      assert.equal(decodeComponent(s), decodeLenient(s));
    }),
    { numRuns: 2000 },
  );
});

test('a value cut where safeCut says decodes, part by part, as the whole does', () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 24 }), fc.nat(60), (pieces, at) => {
      const s = pieces.join('');
      const cut = safeCut(s, Math.min(at, s.length));
      assert.equal(
        decodeComponent(s.slice(0, cut)) + decodeComponent(s.slice(cut)),
        decodeComponent(s),
      );
    }),
    { numRuns: 5000 },
  );
});

test('a large form body decoded in slices reads as in one go, and lets the event loop through', async () => {
  const value = Array.from(
    { length: 400_000 },
    (_, i) => ['Zo%C3%AB+', '%uD83D%uDE00', 'a%2B', '%F0%9F%98%80', '%zz'][i % 5],
  ).join('');
  const body = `DBName=Demo&StringOfJSONParameters=${value}&AsType=`;
  let turns = 0;
  const tick = setInterval(() => turns++, 0);
  const sliced = await parseFieldsInSlices(body).finally(() => clearInterval(tick));
  assert.deepEqual(sliced, parseFields(body));
  assert.ok(turns > 0, 'timers ran while the body was decoded');
});
