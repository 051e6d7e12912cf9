/**
 * queryTokens' shortcuts (no `@`: one chunk; no digit: no phone pass; a part that is one ASCII word:
 * itself in lower case) against the general reading they skip, written out here as the oracle.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { normalize } from '../../src/search/normalize.ts';
import { queryTokens, wordTokens } from '../../src/search/tokenize.ts';

const DIGIT_GROUPS = /\+?\(?\d[\d\s().\-/]*\d\)?|\+?\d/g;
function general(text: string) {
  const out: { term: string; kind: string; international?: boolean }[] = [];
  for (const chunk of text.split(/\s+(?=\S*@)|(?<=@\S*)\s+/)) {
    if (chunk.includes('@')) {
      const t = normalize(chunk.trim());
      if (t) out.push({ term: t, kind: 'email' });
      continue;
    }
    const joined = chunk.replace(DIGIT_GROUPS, (m) => {
      const d = m.replace(/\D+/g, '');
      if (m.startsWith('+')) return ` \u0002${d} `;
      return d.length >= 3 ? ` \u0001${d} ` : m;
    });
    for (const part of joined.split(/\s+/)) {
      if (part.startsWith('\u0002'))
        out.push({ term: part.slice(1), kind: 'digits', international: true });
      else if (part.startsWith('\u0001')) out.push({ term: part.slice(1), kind: 'digits' });
      else for (const t of wordTokens(part)) out.push({ term: t.term, kind: 'word' });
    }
  }
  return out;
}

test('typed names, emails and phones read as the general reading does', () => {
  for (const text of [
    'Jo Sm',
    '  jo  ',
    'ANN',
    "O'Bri",
    'Zoë Å',
    'jo@ex',
    'ann smith@example.com x',
    '+44 20',
    '020 7946',
    'a1b2',
    '山田 ヤマダ',
    'x\u00a0y',
    '',
  ])
    assert.deepEqual(queryTokens(text), general(text), JSON.stringify(text));
});

test('property: any typed text reads as the general reading does', () => {
  const piece = fc.constantFrom(
    'jo',
    'Sm',
    'ANN',
    'é',
    "'",
    '’',
    '@',
    '.',
    '+',
    '(',
    ')',
    '-',
    '1',
    '42',
    '007',
    ' ',
    '  ',
    '\t',
    '\u00a0',
    '山',
    'ｱ',
    'ß',
    'x\u0301',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 10 }), (parts) => {
      const text = parts.join('');
      assert.deepEqual(queryTokens(text), general(text));
    }),
    { numRuns: 3000 },
  );
  fc.assert(
    fc.property(fc.string({ maxLength: 12 }), (text) => {
      assert.deepEqual(queryTokens(text), general(text));
    }),
    { numRuns: 2000 },
  );
});
