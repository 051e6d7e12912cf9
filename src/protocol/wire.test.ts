/**
 * encodedOnce. Properties checked:
 * 1. A result object is encoded once; the same object gets the very same response back.
 * 2. The body is the UTF-8 bytes of the encoded text (non-ASCII included); other objects are encoded afresh.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OperationResult } from '../service/types.ts';
import { encodedOnce } from './wire.ts';

test('1–2. one encoding per result object, as UTF-8 bytes', () => {
  let calls = 0;
  const encode = encodedOnce((r) => {
    calls++;
    return { status: 200, headers: { 'Content-Type': 'text/xml; charset=utf-8' }, body: `<x>${r.kind === 'text' ? r.text : ''}</x>` };
  });
  const r: OperationResult = { kind: 'text', text: 'Zoë 😀' };
  const first = encode(r);
  assert.equal(encode(r), first);
  assert.equal(calls, 1);
  assert.deepEqual(first.body, Buffer.from('<x>Zoë 😀</x>', 'utf8'));
  const other = encode({ kind: 'text', text: 'Zoë 😀' });
  assert.notEqual(other, first);
  assert.equal(calls, 2);
});
