/**
 * docs/DESIGN.md "The tree" and docs/SEARCH.md "Where the code is" name what src/ holds (issue 21:
 * the picture matches the tree), so a folder or module added without its line fails here. Checked:
 * 1. every folder of src/, at any depth, is named (`name/`) in DESIGN.md or SEARCH.md;
 * 2. every module directly in src/ and in the folders whose rows list their files one by one (http/,
 *    protocol/, database/, fields/, operations/) is named in DESIGN.md, and every module directly in
 *    search/ in SEARCH.md. Folders of many like files (one per operation, per store, per format) are
 *    described by their row, not file by file.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
const design = readFileSync(join(root, 'docs', 'DESIGN.md'), 'utf8');
const search = readFileSync(join(root, 'docs', 'SEARCH.md'), 'utf8');

function folders(dir: string, rel = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [`${rel}${e.name}`, ...folders(join(dir, e.name), `${rel}${e.name}/`)]);
}

const modules = (dir: string) =>
  readdirSync(join(src, dir), { withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name) && !e.name.endsWith('.test.ts'))
    .map((e) => e.name);

test('1. every folder of src/ is named in DESIGN.md or SEARCH.md', () => {
  const unnamed = folders(src).filter((f) => {
    const name = `${f.split('/').at(-1)}/`;
    return !design.includes(name) && !search.includes(name);
  });
  assert.deepEqual(unnamed, []);
});

test('2. the modules of src/ and of the listed folders are named', () => {
  const unnamed: string[] = [];
  for (const dir of ['', 'http', 'protocol', 'database', 'fields', 'operations']) {
    for (const m of modules(dir)) if (!design.includes(m)) unnamed.push(`${dir}/${m} (DESIGN.md)`);
  }
  for (const m of modules('search'))
    if (!search.includes(m)) unnamed.push(`search/${m} (SEARCH.md)`);
  assert.deepEqual(unnamed, []);
});
