import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeBody } from './body-charset.ts';

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
