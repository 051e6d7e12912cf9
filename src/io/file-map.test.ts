/**
 * File mapping (native/file-map through io/file-map.ts). Checked, on Linux (where `npm install`
 * builds the addon: a missing build fails here, not silently):
 * 1. Mapped bytes at any offset (not page-aligned) equal the file's.
 * 2. A write to a mapped view stays in the process: the file is unchanged.
 * 3. The mapping outlives the file's path: a file renamed over it, then the file deleted, the bytes
 *    read are still the first file's.
 * 4. A collected mapping is unmapped (gone from /proc/self/maps).
 * 5. Bad arguments are a clear error, not a crash.
 */
import assert from 'node:assert/strict';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FILE_MAP, mapBytes } from './file-map.ts';

const linux = process.platform === 'linux';
const dir = mkdtempSync(join(tmpdir(), 'contacts-file-map-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const bytes = Buffer.from(Array.from({ length: 3 * 4096 + 123 }, (_, i) => (i * 7 + 3) & 0xff));
const fileOf = (name: string, content = bytes) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};
const withFd = <T>(path: string, f: (fd: number) => T): T => {
  const fd = openSync(path, 'r');
  try {
    return f(fd);
  } finally {
    closeSync(fd);
  }
};
const mappings = (path: string) =>
  readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .filter((l) => l.endsWith(path)).length;

test('the addon is built here (npm install builds it)', { skip: !linux && 'Linux only' }, () => {
  assert.equal(FILE_MAP.built, true);
});

test(
  '1–2. mapped bytes equal the file; a write to them stays in the process',
  { skip: !linux && 'Linux only' },
  () => {
    const p = fileOf('one.bin');
    for (const [at, length] of [
      [0, bytes.length],
      [1, 10],
      [4095, 2],
      [4096, 4096],
      [5000, bytes.length - 5000],
    ]) {
      const m = withFd(p, (fd) => mapBytes(fd, at, length));
      assert.equal(m.length, length);
      assert.ok(Buffer.from(m).equals(bytes.subarray(at, at + length)), `at ${at}`);
      m[0] ^= 0xff;
      assert.equal(m[0], bytes[at] ^ 0xff);
    }
    assert.ok(readFileSync(p).equals(bytes));
  },
);

test(
  '3. the mapping outlives its path (renamed over, deleted)',
  { skip: !linux && 'Linux only' },
  () => {
    const p = fileOf('three.bin');
    const m = withFd(p, (fd) => mapBytes(fd, 100, 5000));
    renameSync(fileOf('three-new.bin', Buffer.alloc(bytes.length, 0xaa)), p);
    assert.ok(Buffer.from(m).equals(bytes.subarray(100, 5100)));
    unlinkSync(p);
    assert.ok(Buffer.from(m).equals(bytes.subarray(100, 5100)));
  },
);

test('4. a collected mapping is unmapped', { skip: !linux && 'Linux only' }, async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const p = fileOf('four.bin');
  // Read in a function of its own: nothing of this frame keeps the mapping alive.
  (() => {
    const m = withFd(p, (fd) => mapBytes(fd, 0, 8192));
    assert.equal(mappings(p), 1);
    assert.equal(m[1], bytes[1]);
  })();
  for (let i = 0; i < 10 && mappings(p) > 0; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.equal(mappings(p), 0);
});

test('5. bad arguments are errors', { skip: !linux && 'Linux only' }, () => {
  const p = fileOf('five.bin');
  withFd(p, (fd) => {
    assert.throws(() => mapBytes(fd, -4096, 10), { code: 'ERR_OUT_OF_RANGE' });
    assert.throws(() => mapBytes(fd, 0, 0), { code: 'ERR_OUT_OF_RANGE' });
  });
  assert.throws(() => mapBytes(987654, 0, 10), { code: 'ERR_MMAP' }); // not an open file
});
