import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeComponent, decodeLenient, parseFields } from './decode.ts';

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
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const s = pieces.join('');
      assert.equal(decodeComponent(s), decodeLenient(s));
    }),
    { numRuns: 2000 },
  );
});
