import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ERRORS } from '../errors.ts';
import { DOCS } from './generate.ts';

for (const [file, make] of Object.entries(DOCS)) {
  test(`${file} is what its table generates (run \`npm run docs\` after changing the table)`, () => {
    assert.equal(readFileSync(file, 'utf8'), make());
  });
}

test('every error code is documented and the docs name no code the table lacks', () => {
  const documented = new Set([...readFileSync('docs/ERRORS.md', 'utf8').matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]));
  assert.deepEqual([...documented].sort(), Object.keys(ERRORS).sort());
});
