/**
 * bench/support/image-held.ts, bench:memory's table of what a process holds of a mapped index
 * snapshot (issue 25's 10M figures):
 * 1. Every array of an image file has a name of its own, and its place holds its bytes, type and length.
 * 2. Mappings of the file in an smaps text are told apart by the array each starts at, their Rss added
 *    up per array; other files' mappings are not counted.
 * 3. For real, where the file-map addon is built: an array mapped and read shows as held, by its name.
 */
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { imageHeld, imagePlaces } from '../bench/support/image-held.ts';
import { generateContacts } from '../src/demo/generate.ts';
import { FILE_MAP, mapBytes } from '../src/io/file-map.ts';
import { imageBuffer } from '../src/search/index/image-file.ts';
import { fixture } from './support/fixture.ts';

/** A built image of 400 generated contacts written to a file: the test gets the file and the image's arrays. */
async function withImageFile(
  check: (file: string, arrays: readonly ArrayBufferView[]) => void,
): Promise<void> {
  const f = await fixture([...generateContacts({ count: 400, seed: 5 })].flat());
  const dir = mkdtempSync(join(tmpdir(), 'image-held-'));
  try {
    f.db.index.build(f.db.index.all());
    const image = f.db.index.image()!;
    const file = join(dir, 'Demo.db.index');
    writeFileSync(file, imageBuffer(image, { v: 1 }));
    check(file, image.arrays);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await f.close();
  }
}

const typeOf = (a: ArrayBufferView) =>
  a instanceof Uint8Array
    ? 'u8'
    : a instanceof Uint16Array
      ? 'u16'
      : a instanceof Uint32Array
        ? 'u32'
        : a instanceof Int32Array
          ? 'i32'
          : 'f64';

test('1. every array named once; each place holds its array', () =>
  withImageFile((file, arrays) => {
    const { names, places } = imagePlaces(file);
    assert.equal(names.length, arrays.length);
    assert.equal(places.length, arrays.length);
    for (let i = 0; i < names.length; i++) assert.ok(names[i], `array ${i} has a name`);
    assert.equal(new Set(names).size, names.length, 'names are distinct');
    for (const want of [
      'base.entTerm',
      'base.post',
      'terms.bytes',
      'DisplayName.ids',
      'postOff.rel',
    ])
      assert.ok(names.includes(want), want);
    const bytes = readFileSync(file);
    places.forEach(([type, length, at], i) => {
      const a = arrays[i] as ArrayBufferView & { length: number };
      assert.equal(type, typeOf(a), `${names[i]}'s type`);
      assert.equal(length, a.length, `${names[i]}'s length`);
      assert.ok(
        bytes
          .subarray(at, at + a.byteLength)
          .equals(Buffer.from(a.buffer, a.byteOffset, a.byteLength)),
        `${names[i]}'s bytes at ${at}`,
      );
    });
  }));

test('2. an smaps text: each mapping counted for the array it starts at', () =>
  withImageFile((file) => {
    const { names, places } = imagePlaces(file);
    const i = names.indexOf('base.entTerm'),
      j = names.indexOf('base.post');
    // As mapBytes maps an array: from the page of its first byte to the page end past its last.
    const hex = (n: number) => n.toString(16).padStart(12, '0');
    const mapping = (k: number, path: string, rssKb: number) => {
      const [type, length, at] = places[k];
      const from = at - (at % 4096);
      const bytes = length * { u8: 1, u16: 2, u32: 4, i32: 4, f64: 8 }[type];
      const len = Math.ceil((at + bytes - from) / 4096) * 4096;
      return `${hex(0x7f0000000000)}-${hex(0x7f0000000000 + len)} rw-p ${hex(from)} fd:01 1234   ${path}\nSize: ${len / 1024} kB\nRss: ${rssKb} kB\nPss: ${rssKb} kB\n`;
    };
    const smaps =
      mapping(i, file, 8) +
      mapping(j, file, 12) +
      mapping(j, file, 4) + // a second mapping of the same array: added
      mapping(i, '/elsewhere/Demo.db.index', 100) + // another file
      `7f0000200000-7f0000300000 rw-p 00000000 00:00 0 \nRss: 64 kB\n`; // anonymous
    const held = imageHeld(file, smaps);
    assert.deepEqual(
      held.map((h) => [h.name, h.held]),
      [
        ['base.post', 16 * 1024],
        ['base.entTerm', 8 * 1024],
      ],
    );
  }));

test(
  '3. a mapped and read array shows as held (file-map addon)',
  { skip: !FILE_MAP.built && 'native/file-map not built' },
  () =>
    withImageFile((file) => {
      const { names, places } = imagePlaces(file);
      const i = names.indexOf('base.entTerm');
      const [, length, at] = places[i];
      const fd = openSync(file, 'r');
      try {
        const view = mapBytes(fd, at, length * 4);
        let sum = 0;
        for (let k = 0; k < view.length; k += 512) sum += view[k];
        const held = imageHeld(file, readFileSync('/proc/self/smaps', 'utf8'));
        const entTerm = held.find((h) => h.name === 'base.entTerm');
        assert.ok(entTerm && entTerm.held > 0, `held: ${JSON.stringify(held)} (${sum})`);
        assert.equal(entTerm.size, length * 4);
      } finally {
        closeSync(fd);
      }
    }),
);
