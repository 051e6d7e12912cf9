/**
 * The module `name` (no extension) beside the module at `base` (its `import.meta.url`), with base's
 * own extension: `.ts` where tsx runs the sources, `.js` in the compiled tree (scripts/compile.mjs).
 */
export function besideMe(name: string, base: string): URL {
  const ext = base.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`${name}${ext}`, base);
}

/**
 * A worker thread's entry for `new Worker(...)`: a TypeScript file is loaded through tsx, registered
 * in the worker first (tsx's `--import` hook, inherited in execArgv, does not reach worker threads on
 * Node 20), and then its cheap kept names (src/boot/cheap-names-hooks.mjs), as the main thread runs;
 * anything else as it is.
 */
export function workerEntry(url: URL): URL {
  if (!url.pathname.endsWith('.ts')) return url;
  const tsx = import.meta.resolve('tsx/esm/api');
  const names = new URL('./boot/cheap-names.mjs', import.meta.url).href;
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(names)}); await import(${JSON.stringify(url.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}
