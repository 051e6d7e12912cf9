import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseVCards } from './vcard.ts';

test('each card reports the line it starts on, counting lines of earlier cards and text before the first', () => {
  const text = ['junk', 'more', 'BEGIN:VCARD', 'VERSION:3.0', 'FN:A', 'END:VCARD', '', 'BEGIN:VCARD', 'VERSION:3.0', 'FN:B', 'END:VCARD',
    'BEGIN:VCARD', 'broken', 'END:VCARD', ''].join('\r\n');
  const { rows } = parseVCards(text);
  assert.deepEqual(rows.map((r) => [r.line, r.record?.FirstName ?? 'error']), [[3, 'A'], [8, 'B'], [12, 'error']]);
});

test('a budget that runs out stops parsing with PayloadTooLarge', () => {
  const card = 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:X\r\nEND:VCARD\r\n';
  let calls = 0;
  const budget = { check() { if (++calls === 5) throw Object.assign(new Error('over'), { code: 'PayloadTooLarge' }); }, spend() {} };
  assert.throws(() => parseVCards(card.repeat(10), budget), { code: 'PayloadTooLarge' });
  assert.equal(calls, 5, 'checked once per card until it threw');
});
