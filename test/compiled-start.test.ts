/**
 * `npm start` runs the compiled tree (scripts/compile.mjs: dist/, a mirror of src/ in plain
 * JavaScript; no TypeScript loader in the server, issue 25's memory). The tree as `npm start` makes
 * it, and the server run from it as `npm start` runs it. Properties checked:
 * 1. Every module of src/ has its .js in dist/, every other file is copied (the page, the name
 *    data, the .mjs workers, and the .ts sources the index code version hashes), every relative
 *    import in dist/ names a file that is there (`./x.ts` rewritten to `./x.js`), and no file of a
 *    source no longer there is left.
 * 2. The compiled server seeds its database (25,000 contacts: past BUILD_WORKER.minContacts, so its
 *    index is built on the build worker, dist/database/build-worker.js) and answers; a 1.3 MB
 *    ImportContacts (read on the large-text worker, dist/large-text/worker.js) is stored and found.
 * 3. The sources under tsx, started after it over the same folder, answer every query byte for
 *    byte as the compiled server did, from the snapshot the compiled server wrote (one index code
 *    version for both: the file is not written again).
 */
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { RUN_TS } from '../src/boot/run-ts.ts';
import { LARGE_TEXT } from '../src/next-turn.ts';
import { callIn } from './support/bindings.ts';
import { seededFolder } from './support/seeded-folder.ts';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src'),
  DIST = join(ROOT, 'dist');
const { dir, startServer } = seededFolder('compiled', 25_000);

const filesUnder = (d: string) =>
  readdirSync(d, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

/** A server started with `args` over the folder, once it prints its help page line: its endpoint. */
async function start(args: string[]): Promise<{ server: ChildProcess; endpoint: string }> {
  const server = startServer(args);
  let out = '';
  const port = await new Promise<string>((done, fail) => {
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /help page: +http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) done(m[1]);
    });
    server.once('exit', (code) => fail(new Error(`server exited with ${code}: ${out}`)));
  });
  return {
    server,
    endpoint: `http://127.0.0.1:${port}/DesktopModules/ContactSearch_Common/WebServices/API.asmx`,
  };
}

async function stop(server: ChildProcess) {
  const gone = new Promise((done) => server.once('exit', done));
  server.kill('SIGTERM');
  await gone;
}

const QUERIES = ['a', 'jo', 'mar', 'ma ro', 'r'];
const answers = (endpoint: string, queries = QUERIES) =>
  Promise.all(
    queries.map(async (Text) => {
      const r = await callIn('soap11', endpoint, 'GetPredictiveOptionsSearchContacts', {
        StringOfJSONParameters: JSON.stringify({ Text, Limit: 10 }),
        DBName: 'Demo',
        AsType: 'JSON',
      });
      assert.equal(r.status, 200, r.text.slice(0, 300));
      return r.text;
    }),
  );
const COMPILED = ['--max-semi-space-size=32', 'dist/main.js'];

test('1. the compiled tree: a .js for every module, the files read beside them, every relative import there', () => {
  const stale = join(DIST, 'search', 'gone-module.js');
  mkdirSync(dirname(stale), { recursive: true });
  writeFileSync(stale, 'export {};');
  const r = spawnSync(process.execPath, ['scripts/compile.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(!existsSync(stale), 'a file no source makes is left in dist/');
  const sources = filesUnder(SRC).filter((f) => !f.endsWith('.test.ts') && !f.endsWith('.d.mts'));
  const modules = sources.filter((f) => f.endsWith('.ts'));
  for (const f of sources) {
    const copy = join(DIST, relative(SRC, f));
    assert.deepEqual(readFileSync(copy), readFileSync(f), `${relative(ROOT, copy)}: not a copy`);
  }
  for (const f of modules) {
    const to = join(DIST, relative(SRC, f)).replace(/\.ts$/, '.js');
    assert.ok(existsSync(to), `${relative(ROOT, to)} is missing`);
  }
  const made = filesUnder(DIST);
  assert.equal(made.length, sources.length + modules.length, 'dist/ holds other files');
  let imports = 0;
  for (const f of made.filter((x) => /\.m?js$/.test(x) && !x.includes(`${DIST}/web/`))) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      imports++;
      assert.ok(!m[1].endsWith('.ts'), `${relative(ROOT, f)} imports ${m[1]}`);
      assert.ok(
        existsSync(join(dirname(f), m[1])),
        `${relative(ROOT, f)} imports ${m[1]}: no such file`,
      );
    }
  }
  assert.ok(imports > 500, `${imports} relative imports read`);
});

let compiledAnswers: string[] = [];
let snapshot: { size: number; mtimeMs: number } | undefined;
const snapshotNow = () => {
  const s = statSync(join(dir, 'Demo.db.index'));
  return { size: s.size, mtimeMs: s.mtimeMs };
};

test('2. the compiled server seeds its database, its index built on the build worker, and answers', async () => {
  const { server, endpoint } = await start(COMPILED);
  compiledAnswers = await answers(endpoint);
  for (const a of compiledAnswers)
    assert.match(
      a,
      /<GetPredictiveOptionsSearchContactsResult[^>]*>\{"Text":.*"Options":\[\{"ContactId"/,
    );
  await stop(server);
  snapshot = snapshotNow();
});

test('3. the sources under tsx answer as the compiled server did, from the snapshot it wrote', async () => {
  assert.ok(snapshot, 'test 2 ran');
  const { server, endpoint } = await start(['--max-semi-space-size=32', ...RUN_TS, 'src/main.ts']);
  assert.deepEqual(await answers(endpoint), compiledAnswers);
  await stop(server);
  assert.deepEqual(snapshotNow(), snapshot, 'the snapshot was written again: not trusted');
});

test('4. the compiled server reads a 1.3 MB ImportContacts on the large-text worker: stored and found', async () => {
  const { server, endpoint } = await start(COMPILED);
  const rows = Array.from(
    { length: 20_000 },
    (_, i) =>
      `CT${i},Compiled,Tree${String.fromCharCode(97 + (i % 26))}${i},Compiled Tree Test Organisation ${i}`,
  );
  const json = JSON.stringify({
    Request: 'ImportContacts',
    DBName: 'Demo',
    Format: 'CSV',
    Content: ['ContactId,First Name,Last Name,Company', ...rows].join('\r\n'),
  });
  assert.ok(json.length > LARGE_TEXT, `${json.length} characters`);
  const r = await fetch(`${endpoint}/ProcessRequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ StringOfJSONParameters: json }),
  });
  const body = await r.text();
  assert.equal(r.status, 200, body.slice(0, 300));
  assert.match(body, /Inserted=\\"20000\\"/, body.slice(0, 300));
  const [found] = await answers(endpoint, ['compiled treel11']);
  assert.match(found, /Compiled Treel11/);
  await stop(server);
});
