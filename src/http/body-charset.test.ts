import assert from 'node:assert/strict';
import { test } from 'node:test';
import { joined } from '../large-text/decode-sliced.ts';
import { decodeBody, decodeBodySliced } from './body-charset.ts';

const text = '<x>Zoë Ångström 東京</x>';
const le = Buffer.from(text, 'utf16le');
const be = Buffer.from(le).swap16();

test('a byte-order mark decides: UTF-8, UTF-16 LE, UTF-16 BE (whatever the charset says); the mark is dropped', () => {
  assert.equal(
    decodeBody('text/xml; charset=utf-8', Buffer.concat([Buffer.from([0xff, 0xfe]), le])),
    text,
  );
  assert.equal(
    decodeBody('text/xml; charset=utf-8', Buffer.concat([Buffer.from([0xfe, 0xff]), be])),
    text,
  );
  assert.equal(
    decodeBody(
      'text/xml; charset=utf-16',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
    ),
    text,
  );
});

test('without a mark the charset decides; without one (or an unknown one) UTF-8', () => {
  assert.equal(decodeBody('text/xml; charset=utf-16', le), text);
  assert.equal(decodeBody('application/soap+xml; charset="UTF-16BE"; action="x"', be), text);
  assert.equal(decodeBody('text/xml; charset=iso-8859-1', Buffer.from('Zo\xeb', 'latin1')), 'Zoë');
  assert.equal(decodeBody('text/xml', Buffer.from(text)), text);
  assert.equal(decodeBody('text/xml; charset=no-such-thing', Buffer.from(text)), text);
  assert.equal(
    decodeBody(undefined, Buffer.from([0x61, 0xff])),
    'a\ufffd',
    'invalid UTF-8 becomes U+FFFD',
  );
});

test('a large body decoded in slices (decodeBodySliced) reads as decodeBody, however it arrived in chunks', async () => {
  // Over 1 MiB a slice: characters of 1-4 UTF-8 bytes fall across the slice and chunk boundaries.
  const big = 'Zoë Ångström 東京 𠜎 '.repeat(80_000);
  for (const [contentType, bytes] of [
    ['text/xml', Buffer.from(big)],
    ['text/xml; charset=utf-8', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(big)])],
    ['text/xml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(big, 'utf16le')])],
    ['text/xml; charset=utf-16', Buffer.from(big, 'utf16le')],
  ] as const)
    for (const size of [1, 7, 65_536, 1_000_003]) {
      // A thousand chunks of `size` (the head of the body one byte at a time, too), then the rest.
      const chunks: Buffer[] = [];
      const head = Math.min(bytes.length, size * 1000);
      for (let i = 0; i < head; i += size) chunks.push(bytes.subarray(i, i + size));
      if (head < bytes.length) chunks.push(bytes.subarray(head));
      const text = joined(await decodeBodySliced(contentType, chunks));
      assert.equal(text.length, decodeBody(contentType, bytes).length, `${contentType} / ${size}`);
      assert.ok(text === big, `${contentType} in chunks of ${size}: the same text`);
    }
});
