/**
 * The index's code version (src/search/index/version.ts) covers what a build indexes, so a snapshot
 * made by other code is rebuilt. Properties checked:
 * 1. Every src/ module that contact-tokens.ts imports, directly or not, and every data file beside
 *    the search code (nicknames, Latin spellings), is among the hashed sources.
 * 2. The version is a stable hash (the same twice in one process).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { indexCodeVersion, SOURCES } from '../../src/search/index/version.ts';

const root = resolve(import.meta.dirname, '../..');
const versionDir = join(root, 'src/search/index');
const hashed = new Set(SOURCES.map((s) => resolve(versionDir, s)));

/** The src/ modules `file` imports, directly or not (relative imports, types included). */
function importsOf(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g))
    importsOf(resolve(dirname(file), m[1]), seen);
  return seen;
}

test('1. the hashed sources hold every module and data file tokenising reads', () => {
  const modules = [...importsOf(join(root, 'src/search/contact-tokens.ts'))];
  assert.ok(modules.length > 8, `${modules.length} modules`);
  const data = readdirSync(join(root, 'src/search'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name.endsWith('-data'))
    .flatMap((d) =>
      readdirSync(join(root, 'src/search', d.name))
        .filter((f) => f.endsWith('.csv'))
        .map((f) => join(root, 'src/search', d.name, f)),
    );
  assert.ok(data.length >= 3, `${data.length} data files`);
  const missing = [...modules, ...data].filter((f) => !hashed.has(f)).map((f) => relative(root, f));
  assert.deepEqual(missing, []);
});

test('2. the version is a stable hash', () => {
  const v = indexCodeVersion();
  assert.match(v ?? '', /^[0-9a-f]{32}$/);
  assert.equal(indexCodeVersion(), v);
});
