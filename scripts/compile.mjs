/**
 * `npm run compile` (and before every `npm start`): the server's TypeScript as plain JavaScript in
 * dist/, a mirror of src/ (dist/main.js is src/main.ts), so a production node runs no TypeScript
 * loader. tsx's loader runs its hooks on a thread of its own with its own V8 heap, and keeps every
 * module's source map: ~25 MB a process at rest (docs/perf-log/2026-12-07-compiled.md).
 *
 * esbuild is the transpiler tsx itself uses, so dist/ runs the code the tests ran; each file is its
 * own output (every import stays external), with `./x.ts` imports rewritten to `./x.js`, which
 * esbuild does only while resolving (issue evanw/esbuild#2435), hence `bundle` with every path
 * external. No `keepNames`: no `__name` wrapper a closure (src/boot/cheap-names-hooks.mjs). Every
 * other file of src/ is copied beside them (the page, the name data, the .mjs workers), so
 * `new URL('./x', import.meta.url)` finds the same files; so are the .ts sources themselves, which
 * node never loads from here: the index code version hashes them (search/index/version.ts), so a
 * dist/ compiled from older sources names the older version and never trusts a snapshot written by
 * newer code, nor writes one newer code would trust. Takes about a second.
 */
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src'),
  out = join(root, 'dist');

/** Every file under dir, as paths. */
const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));

const all = filesUnder(src);
const code = all.filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const copied = all.filter((f) => !f.endsWith('.test.ts') && !f.endsWith('.d.mts'));

// Written over in place, not removed first: a server running from dist/ still loads modules (a
// build worker, the PostgreSQL store) after its start.
await build({
  entryPoints: code,
  outdir: out,
  outbase: src,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  plugins: [
    {
      name: 'imports-stay-external',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) =>
          args.kind === 'entry-point'
            ? undefined
            : { path: args.path.replace(/^(\.{1,2}\/.*)\.ts$/, '$1.js'), external: true },
        );
      },
    },
  ],
});
for (const f of copied) {
  const to = join(out, relative(src, f));
  mkdirSync(dirname(to), { recursive: true });
  cpSync(f, to);
}
// What a source no longer there left behind.
const made = new Set([
  ...code.map((f) => join(out, relative(src, f)).replace(/\.ts$/, '.js')),
  ...copied.map((f) => join(out, relative(src, f))),
]);
for (const f of filesUnder(out)) if (!made.has(f)) rmSync(f);
