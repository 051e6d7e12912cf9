// src/boot/cheap-names-hooks.mjs: tsx's kept names made cheap, and stack traces still pointing at
// the TypeScript source (the helper is replaced by one of the same length).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CHEAP_NAMES, RUN_TS } from '../src/boot/run-ts.ts';

const root = resolve(import.meta.dirname, '..');
const fixture = resolve(root, 'test/fixtures/named-closure.ts');

/** The fixture's closure, run in a fresh node with `flags`: its name and the first frame of its stack. */
function probe(flags: readonly string[]): { name: string; frame: string } {
  const code = `import { make } from ${JSON.stringify(fixture)};
const f = make();
let stack = '';
try { f(); } catch (e) { stack = e.stack; }
console.log(JSON.stringify({ name: f.name, frame: stack.split('\\n')[1] }));`;
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', code], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, TSX_DISABLE_CACHE: '1' },
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { name: string; frame: string };
}

test('the hook drops the defineProperty per named closure, and the stack still names the source line and column', () => {
  const src = readFileSync(fixture, 'utf8').split('\n');
  const line = src.findIndex((l) => l.includes("throw new Error('thrown here')")) + 1;
  const column = src[line - 1].indexOf('new Error') + 1;
  const plain = probe(['--import', 'tsx']);
  const cheap = probe(RUN_TS);
  // tsx alone keeps the name by Object.defineProperty (esbuild's __name); with the hook it is the
  // name JavaScript gives a function passed as an argument: none.
  assert.equal(plain.name, 'thrower');
  assert.equal(cheap.name, '');
  for (const { frame } of [plain, cheap])
    assert.ok(frame.includes(`named-closure.ts:${line}:${column}`), frame);
  assert.ok(RUN_TS.includes(CHEAP_NAMES));
});
