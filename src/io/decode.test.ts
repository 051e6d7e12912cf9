/**
 * File decoding for the import CLI. Properties checked:
 * 1. fileEncoding finds UTF-8 even when read chunks split its characters, BOMs, and Windows-1252
 *    where a byte sequence is no UTF-8 (also when it is the file's last byte).
 * 2. fileChunks gives the text in that encoding, chunk by chunk.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileChunks, fileEncoding } from './decode.ts';

const dir = mkdtempSync(join(tmpdir(), 'contacts-decode-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
};
const text = async (p: string) => {
  const parts: (string | Buffer)[] = [];
  for await (const c of fileChunks(p)) parts.push(c);
  // Buffers are UTF-8 as read (a character may straddle two): joined before decoding, as the CSV parser does.
  return parts.every((c) => typeof c === 'string')
    ? parts.join('')
    : Buffer.concat(parts as Buffer[]).toString('utf8');
};

test('1–2. encodings found and decoded across read chunks', async () => {
  // 200 KB of two- and three-byte characters: read chunks (64 KiB) end inside characters.
  const long = 'Zoë Ångström 山田 '.repeat(10_000);
  const utf8 = file('utf8.csv', Buffer.from(long));
  assert.equal(await fileEncoding(utf8), 'UTF-8');
  assert.equal(await text(utf8), long);

  const latin = file(
    'latin.csv',
    Buffer.concat([Buffer.from('a'.repeat(70_000)), Buffer.from([0x4a, 0x6f, 0x73, 0xe9])]),
  ); // "José", é as one byte
  assert.equal(await fileEncoding(latin), 'Windows-1252');
  assert.ok((await text(latin)).endsWith('José'));
  assert.equal(
    await fileEncoding(file('cut.csv', Buffer.from([0x61, 0xc3]))),
    'Windows-1252',
    'a lead byte with nothing after it',
  );

  const utf16 = file(
    'utf16.csv',
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Łucja,Ołówek SA', 'utf16le')]),
  );
  assert.equal(await fileEncoding(utf16), 'UTF-16LE');
  assert.equal(await text(utf16), 'Łucja,Ołówek SA');
  assert.equal(await fileEncoding(file('bom.csv', Buffer.from('\uFEFFAnn'))), 'UTF-8');
});
