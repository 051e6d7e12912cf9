/**
 * The search page's files as the server serves them: the fixed list only, each with its content
 * type, an ETag honoured with 304, `no-cache`, nosniff, and a policy on the page that allows only
 * its own origin. Names are case-insensitive like the legacy IIS paths.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startRealService, type RealService } from './support/real-service.ts';

let svc: RealService;
let base: string;
before(async () => {
  svc = await startRealService();
  base = svc.endpoint.replace(/API\.asmx$/, '');
});
after(() => svc.close());

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

test('every file of src/web is served with its type, an ETag, no-cache and nosniff', async () => {
  const files = readdirSync(new URL('../src/web/', import.meta.url)).filter((f) =>
    /\.(html|css|js)$/.test(f),
  );
  assert.ok(files.length >= 3, files.join());
  for (const f of files) {
    const res = await fetch(base + f);
    assert.equal(res.status, 200, f);
    assert.equal(res.headers.get('content-type'), TYPES[f.split('.').pop()!], f);
    assert.equal(res.headers.get('cache-control'), 'no-cache', f);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', f);
    assert.match(res.headers.get('etag') ?? '', /^"[\w-]{22}"$/, f);
    assert.ok((await res.text()).length > 100, f);
  }
});

test('Search.html (any case) carries a same-origin policy; its modules and styles are all local', async () => {
  for (const name of ['Search.html', 'search.html', 'SEARCH.HTML']) {
    const res = await fetch(base + name);
    assert.equal(res.status, 200, name);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /connect-src 'self'/);
    const html = await res.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"#]+)"/g)].map((m) => m[1]);
    assert.ok(refs.includes('search.js') && refs.includes('search.css'), refs.join());
    for (const r of refs)
      assert.ok(!/^(https?:)?\/\//.test(r), `${r} is not loaded from elsewhere`);
  }
});

test('a matching If-None-Match gets 304 without the body; HEAD gets the headers', async () => {
  const first = await fetch(`${base}search.js`);
  const etag = first.headers.get('etag')!;
  const again = await fetch(`${base}search.js`, { headers: { 'If-None-Match': etag } });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), '');
  const other = await fetch(`${base}search.js`, {
    headers: { 'If-None-Match': '"something-else"' },
  });
  assert.equal(other.status, 200);
  const head = await fetch(`${base}search.css`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('content-type'), TYPES.css);
});

test('names outside the list are not served: other files, other folders, traversal', async () => {
  for (const path of [
    'search.ts',
    'static-files.ts',
    '../web/search.js',
    '..%2Fhttp%2Fserver.ts',
    'x/search.js',
    'search.js.map',
    'package.json',
  ]) {
    const res = await fetch(base + path);
    assert.notEqual(res.status, 200, path);
    assert.doesNotMatch(res.headers.get('content-type') ?? '', /javascript|css/, path);
  }
  const post = await fetch(`${base}search.js`, { method: 'POST', body: 'x' });
  assert.notEqual(post.status, 200);
});
