/**
 * The layer rules of .dependency-cruiser.cjs (docs/DESIGN.md "Layers"), run over src/ by
 * dependency-cruiser's own command line. Properties checked:
 * 1. src/ has no violation: dependencies point down only (http → protocol → service → database → search →
 *    fields, store → fields) and no module imports itself through others.
 * 2. The rules are live: on a planted tree, search/ importing store/ and a cycle are both reported
 *    (a rule whose path matched nothing would pass 1 forever).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const cli = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const config = join(root, '.dependency-cruiser.cjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

async function violations(cwd: string): Promise<Violation[]> {
  // Exits non-zero when it finds errors; the JSON report is on stdout either way.
  const run = promisify(execFile)(
    process.execPath,
    [cli, 'src', '--config', config, '--output-type', 'json'],
    { cwd, maxBuffer: 64 << 20 },
  ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  const { stdout } = await run;
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

test('1. src/ keeps the layer rules and has no cycle', async () => {
  const found = await violations(root);
  assert.deepEqual(
    found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
    [],
  );
});

test('2. the rules report a planted upward import and a cycle', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  try {
    mkdirSync(join(dir, 'src', 'search'), { recursive: true });
    mkdirSync(join(dir, 'src', 'store'), { recursive: true });
    writeFileSync(
      join(dir, 'src', 'search', 'a.ts'),
      "import { b } from '../store/b.ts';\nexport const a = () => b;\n",
    );
    writeFileSync(
      join(dir, 'src', 'store', 'b.ts'),
      "import { a } from '../search/a.ts';\nexport const b = () => a;\n",
    );
    const names = new Set((await violations(dir)).map((v) => `${v.rule.name} ${v.from}`));
    assert.ok(names.has('search-imports-downward-only src/search/a.ts'), [...names].join('; '));
    assert.ok(names.has('store-imports-downward-only src/store/b.ts'), [...names].join('; '));
    assert.ok(names.has('no-circular src/search/a.ts'), [...names].join('; '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
