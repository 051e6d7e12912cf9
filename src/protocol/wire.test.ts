/**
 * encodedOnce. Properties checked:
 * 1. A result object is encoded once; the same object gets the very same response back.
 * 2. The first answer's body is the encoded text; sent again, its UTF-8 bytes (non-ASCII included); other
 *    objects are encoded afresh.
 * 3. A reused response carries its header list with the byte length (not the character count) of its body.
 * 4. memoized calls its function once per text, within its bounds, and keeps no failures.
 * 5. memoized with onRepeat keeps a text's value the second time it comes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OperationResult } from '../service/types.ts';
import { encodedOnce, memoized } from './wire.ts';

test('1–2. one encoding per result object, as UTF-8 bytes', () => {
  let calls = 0;
  const encode = encodedOnce((r) => {
    calls++;
    return {
      status: 200,
      headers: { 'Content-Type': 'text/xml; charset=utf-8' },
      body: `<x>${r.kind === 'text' ? r.text : ''}</x>`,
    };
  });
  const r: OperationResult = { kind: 'text', text: 'Zoë 😀' };
  const first = encode(r);
  assert.equal(first.body, '<x>Zoë 😀</x>');
  assert.equal(encode(r), first);
  assert.equal(calls, 1);
  assert.deepEqual(first.body, Buffer.from('<x>Zoë 😀</x>', 'utf8'));
  assert.equal(encode(r).body, first.body, 'the bytes are made once');
  const other = encode({ kind: 'text', text: 'Zoë 😀' });
  assert.notEqual(other, first);
  assert.equal(calls, 2);
});

test('3. the header list a reused response goes out with: its headers and the byte length of its body', () => {
  const encode = encodedOnce(() => ({
    status: 200,
    headers: { 'Content-Type': 'text/xml; charset=utf-8', 'Cache-Control': 'private' },
    body: 'Zoë',
  }));
  assert.deepEqual(encode({ kind: 'text', text: '' }).rawHeaders, [
    'Content-Type',
    'text/xml; charset=utf-8',
    'Cache-Control',
    'private',
    'Content-Length',
    '4',
  ]);
});

test('4. memoized: one call per text, oldest dropped past the bound, long texts and throws not kept', () => {
  const calls: string[] = [];
  const f = memoized(
    (t: string) => {
      calls.push(t);
      if (t === 'bad') throw new Error('bad');
      return { t };
    },
    { entries: 2, maxChars: 5, totalChars: 100 },
  );
  const a = f('a');
  assert.equal(f('a'), a);
  f('b');
  f('c'); // drops 'a'
  assert.notEqual(f('a'), a);
  f('long text');
  f('long text');
  assert.throws(() => f('bad'));
  assert.throws(() => f('bad'));
  assert.deepEqual(calls, ['a', 'b', 'c', 'a', 'long text', 'long text', 'bad', 'bad']);
  const g = memoized((t: string) => ({ t }), { entries: 10, maxChars: 5, totalChars: 6 });
  const x = g('xxx');
  g('yyy');
  assert.equal(g('xxx'), x, 'within the character budget');
  g('zz'); // 8 characters: drops 'xxx'
  assert.notEqual(g('xxx'), x);
});

test('5. memoized with onRepeat: a value is kept the second time its text comes', () => {
  let calls = 0;
  const f = memoized((t: string) => ({ t, n: ++calls }), {
    entries: 4,
    maxChars: 100,
    totalChars: 1000,
    onRepeat: true,
  });
  const first = f('a');
  const second = f('a');
  assert.notEqual(second, first, 'not kept the first time');
  assert.equal(f('a'), second, 'kept the second');
  assert.equal(calls, 2);
});
