/**
 * native/file-map's `resident` (src/io/file-map.ts residentBytes): the bytes of a mapping in memory,
 * a page at a time — what bench:image-residency counts a server's snapshot pages with. Checked: a
 * file just written and read through its mapping is held whole (its pages are in the page cache);
 * a view's count is its own pages only (a view starting mid-page counts the pages it touches). Skipped, saying so,
 * where the addon is not built (npm install builds it; CI does).
 */
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FILE_MAP, mapBytes, residentBytes } from '../src/io/file-map.ts';

test(
  'resident: a mapped file just written is held whole; a view counts its own pages',
  { skip: !FILE_MAP.built && 'native/file-map is not built (npm install builds it)' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'resident-'));
    try {
      const file = join(dir, 'f');
      const PAGE = 4096;
      writeFileSync(file, Buffer.alloc(64 * PAGE, 7));
      const fd = openSync(file, 'r');
      const whole = mapBytes(fd, 0, 64 * PAGE);
      closeSync(fd);
      let sum = 0;
      for (let i = 0; i < whole.length; i += PAGE) sum += whole[i];
      assert.equal(sum, 7 * 64);
      assert.equal(residentBytes(whole), 64 * PAGE);
      assert.equal(residentBytes(whole.subarray(3 * PAGE, 5 * PAGE)), 2 * PAGE);
      // A range starting mid-page counts the pages it touches.
      assert.equal(residentBytes(whole.subarray(PAGE + 10, 2 * PAGE + 10)), 2 * PAGE);
      assert.equal(residentBytes(whole.subarray(0, 0)), 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
