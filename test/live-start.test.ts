/**
 * The server answers while its databases load (issue 25, docs/DESIGN.md "Start-up"): the real server
 * (`src/main.ts`), first one process over a database it seeds at start (`seedDemo`: 40,000 generated
 * contacts, seconds of writing), then a primary and two workers over that database (each worker reads
 * the 40,000 into its index after it listens). The requests below are sent as soon as the port is
 * open, well within either.
 * Properties checked:
 * 1. The port is open and the first line printed is "listening" before the databases are loaded;
 *    /healthz answers 503 JSON `{status: "loading", loading: [{database: "Demo", …}]}`.
 * 2. Meanwhile an operation on the database is refused Unavailable with Retry-After: SOAP 1.1 a
 *    soap:Server fault, HTTP GET 503; the WSDL and an operation without a database answer as usual.
 * 3. Once loaded (the help page line printed): /healthz 200 `ok`, and the same requests answer normally.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callIn } from './support/bindings.ts';
import { seededFolder } from './support/seeded-folder.ts';

const { startServer } = seededFolder('live-start', 40_000);

/** The server as a user starts it, and a wait for a line it prints. */
function start(workers: number) {
  const server = startServer(['--import', 'tsx', 'src/main.ts'], workers);
  let out = '';
  server.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((done, fail) => {
      const look = () => {
        const m = pattern.exec(out);
        if (m) {
          server.stdout!.off('data', look);
          done(m);
        }
      };
      server.stdout!.on('data', look);
      server.once('exit', (code) => fail(new Error(`server exited with ${code}: ${out}`)));
      look();
    });
  return { server, printed, out: () => out };
}

const search = { StringOfJSONParameters: JSON.stringify({ Text: 'a' }), DBName: 'Demo' };

for (const workers of [1, 2])
  test(`${workers} process${workers > 1 ? 'es' : ''} loading: /healthz loading, database operations Unavailable, the rest served; then ok`, async () => {
    const { server, printed, out } = start(workers);
    const [, port] = await printed(/listening on 127\.0\.0\.1:(\d+)/);
    const base = `http://127.0.0.1:${port}`;
    const endpoint = `${base}/DesktopModules/ContactSearch_Common/WebServices/API.asmx`;

    // 1–2, all sent at once as soon as the port is open.
    const [health, soap, get, wsdl, support] = await Promise.all([
      fetch(`${base}/healthz`),
      callIn('soap11', endpoint, 'GetPredictiveOptionsSearchContacts', {
        ...search,
        AsType: 'JSON',
      }),
      fetch(
        `${endpoint}/GetPredictiveOptionsSearchContacts?${new URLSearchParams({ ...search, AsType: 'JSON' }).toString()}`,
      ),
      fetch(`${endpoint}?WSDL`),
      callIn('soap11', endpoint, 'GetRequestSupport', {
        StringOfJSONParameters: '{}',
        DBName: '',
        AsType: 'JSON',
      }),
    ]);
    assert.equal(out().includes('help page'), false, 'these were answered before the load ended');
    assert.equal(health.status, 503);
    assert.match(health.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await health.json()) as { status: string; loading: { database: string }[] };
    assert.equal(body.status, 'loading');
    assert.deepEqual(
      body.loading.map((d) => d.database),
      ['Demo'],
    );

    assert.equal(soap.status, 500, soap.text);
    assert.match(soap.text, /<faultcode>soap:Server<\/faultcode>/);
    assert.match(soap.text, /<Error Code="Unavailable"/);

    assert.equal(get.status, 503);
    assert.equal(get.headers.get('x-error-code'), 'Unavailable');
    assert.ok(Number(get.headers.get('retry-after')) > 0, 'Retry-After says when to come back');
    await get.text();

    assert.equal(wsdl.status, 200);
    assert.match(await wsdl.text(), /<wsdl:definitions/);
    assert.equal(support.status, 200, support.text);

    // 3. Loaded.
    await printed(/help page: +\S+/);
    const ok = await fetch(`${base}/healthz`);
    assert.deepEqual([ok.status, await ok.text()], [200, 'ok\n']);
    const after = await callIn('soap11', endpoint, 'GetPredictiveOptionsSearchContacts', {
      ...search,
      AsType: 'JSON',
    });
    assert.equal(after.status, 200, after.text);
    const found = await callIn('json', endpoint, 'GetPredictiveOptionsSearchContacts', {
      ...search,
      AsType: 'JSON',
    });
    assert.equal(found.status, 200, found.text);
    const options = (JSON.parse((JSON.parse(found.text) as { d: string }).d) as { Options: [] })
      .Options;
    assert.ok(options.length > 0, 'the seeded contacts are found');
    server.kill('SIGTERM');
    await new Promise((done) => server.once('exit', done));
  });
