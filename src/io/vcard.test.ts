import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseVCards } from './vcard.ts';

test('each card reports the line it starts on, counting lines of earlier cards and text before the first', () => {
  const text = [
    'junk',
    'more',
    'BEGIN:VCARD',
    'VERSION:3.0',
    'FN:A',
    'END:VCARD',
    '',
    'BEGIN:VCARD',
    'VERSION:3.0',
    'FN:B',
    'END:VCARD',
    'BEGIN:VCARD',
    'broken',
    'END:VCARD',
    '',
  ].join('\r\n');
  const { rows } = parseVCards(text);
  assert.deepEqual(
    rows.map((r) => [r.line, r.record?.FirstName ?? 'error']),
    [
      [3, 'A'],
      [8, 'B'],
      [12, 'error'],
    ],
  );
});

test('a budget that runs out stops parsing with PayloadTooLarge', () => {
  const card = 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:X\r\nEND:VCARD\r\n';
  let calls = 0;
  const budget = {
    check() {
      if (++calls === 5) throw Object.assign(new Error('over'), { code: 'PayloadTooLarge' });
    },
    spend() {},
  };
  assert.throws(() => parseVCards(card.repeat(10), budget), { code: 'PayloadTooLarge' });
  assert.equal(calls, 5, 'checked once per card until it threw');
});

test('a card ends and begins at line breaks only: U+2028 or U+2029 inside a value is text (found by the round-trip property)', () => {
  const text =
    'BEGIN:VCARD\nVERSION:4.0\nUID:x\nFN:!\u2028BEGIN:VCARD\nORG:!\u2029END:VCARD\nEND:VCARD\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:B\r\nEND:VCARD\r\n';
  const { rows } = parseVCards(text);
  assert.deepEqual(
    rows.map((r) => [
      r.line,
      r.record?.ContactId ?? r.record?.FirstName,
      r.record?.Organization ?? r.error,
    ]),
    [
      [1, 'x', '!\u2029END:VCARD'],
      [7, 'B', undefined],
    ],
  );
});
