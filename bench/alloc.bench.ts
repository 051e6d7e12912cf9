/**
 * `npm run bench:alloc [-- --data-dir DIR --count N --top K]`: what one distinct type-ahead request
 * allocates, end to end over SOAP 1.1 (issue 22: "no per-request garbage beyond the answer"). The
 * real server and a keep-alive client in one process, one request at a time over loopback, V8's
 * sampling heap profiler keeping every allocation (collected ones too), over N requests (20,000) of
 * the distinct typing traffic after a warm-up of others. Prints bytes a request, the server's and
 * the client's apart (a sample is the client's when its stack holds node's HTTP client or this file),
 * and the server's top K sites by the innermost frame of this project (else the innermost frame).
 * Bytes, not time: repeatable on a busy machine. Not a test.
 */
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultConfig } from '../src/config.ts';
import { openDatabase, registryOf } from '../src/database/registry.ts';
import { createServer } from '../src/http/server.ts';
import { operation, requestNamespace, soapAction } from '../src/operations/table.ts';
import { CONTENT_TYPE, SOAP11_NS, XML_DECL } from '../src/protocol/constants.ts';
import { escapeText } from '../src/render/xml.ts';
import { createService } from '../src/service/index.ts';
import { contactNames, distinctTypingQueries } from './support/typing.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: join(root, '.tmp', 'bench-http') },
    count: { type: 'string', default: '20000' },
    top: { type: 'string', default: '20' },
    /** Also print the heaviest whole stacks (innermost first) of the sites matching this regular expression. */
    stacks: { type: 'string' },
  },
});
const dir = resolve(values['data-dir']!);
const n = Number(values.count),
  top = Number(values.top);
const queries = distinctTypingQueries(contactNames(join(dir, 'Demo.db')));
if (!(n > 0 && top > 0) || n + 3000 > queries.length) {
  console.error(`--count takes 1 to ${queries.length - 3000}, --top a positive number`);
  process.exit(2);
}

const config = { ...defaultConfig(), port: 0 };
const db = await openDatabase({ name: 'Demo', backend: 'sqlite' }, dir);
const service = createService({
  databases: registryOf(new Map([['demo', db]])),
  limits: config.limits,
});
const server = createServer({ config, service });
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const { port } = server.address() as AddressInfo;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const op = operation('GetPredictiveOptionsSearchContacts')!;
const path = `/DesktopModules/${config.module}_Common/WebServices/API.asmx`;
const headers = {
  'Content-Type': CONTENT_TYPE.soap11,
  SOAPAction: `"${soapAction(op, config.nsBase)}"`,
};
function send(Text: string): Promise<void> {
  const body = `${XML_DECL}<s:Envelope xmlns:s="${SOAP11_NS}"><s:Body><${op.name} xmlns="${requestNamespace(op, config.nsBase)}"><StringOfJSONParameters>${escapeText(JSON.stringify({ Text, Limit: 10 }))}</StringOfJSONParameters><DBName>Demo</DBName><AsType>JSON</AsType></${op.name}></s:Body></s:Envelope>`;
  return new Promise((done, fail) => {
    const rq = http.request({ port, path, method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error(`${res.statusCode}`))));
    });
    rq.on('error', fail);
    rq.end(body);
  });
}

// Warm-up on other queries than the measured ones (the list's tail).
for (let i = 1; i <= 3000; i++) await send(queries[queries.length - i]);
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 4096,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
for (let i = 0; i < n; i++) await send(queries[i]);
const { profile } = await session.post('HeapProfiler.stopSampling');

type Node = (typeof profile)['head'];
const src = join(root, 'src') + '/';
const file = (url: string) => (url.startsWith('file://') ? fileURLToPath(url) : url);
const isClient = (url: string) =>
  url === import.meta.filename || /_http_client|_http_agent/.test(url);
const where = (f: Node['callFrame']) =>
  `${f.functionName || '(anonymous)'} ${file(f.url).replace(`${root}/`, '')}:${f.lineNumber + 1}`;
let client = 0,
  serverBytes = 0;
const sites = new Map<string, number>();
const stackPattern = values.stacks ? new RegExp(values.stacks) : undefined;
const stacks = new Map<string, number>();
// `under`: the innermost frame of src/ on the stack so far ('' outside any).
(function walk(node: Node, inClient: boolean, under: string, path: string[] = []) {
  const f = node.callFrame;
  path = [...path, where(f)];
  const url = file(f.url);
  const c = inClient || isClient(url);
  const mine = url.startsWith(src) ? where(f) : '';
  if (node.selfSize) {
    if (c) client += node.selfSize;
    else {
      serverBytes += node.selfSize;
      const key = mine || (under ? `${where(f)} < ${under}` : where(f));
      sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
      if (stackPattern?.test(key)) {
        const s = path.slice(-8).reverse().join(' < ');
        stacks.set(s, (stacks.get(s) ?? 0) + node.selfSize);
      }
    }
  }
  for (const child of node.children) walk(child, c, mine || under, path);
})(profile.head, false, '');

const kb = (b: number) => `${(b / n / 1024).toFixed(1)} KB`;
console.log(
  `${db.size.toLocaleString('en')} contacts, ${n.toLocaleString('en')} distinct type-ahead requests over SOAP 1.1, one at a time`,
);
console.log(
  `allocated a request: server ${kb(serverBytes)}, client ${kb(client)} (sampled every 4 KB)\n`,
);
console.log(
  '| server site (innermost frame of src/, else with the src/ frame under it) | a request | share |',
);
console.log('|---|---|---|');
for (const [k, b] of [...sites].sort((a, z) => z[1] - a[1]).slice(0, top))
  console.log(`| ${k} | ${kb(b)} | ${((100 * b) / serverBytes).toFixed(1)}% |`);
if (stackPattern) {
  console.log(
    `\n| stack of a site matching /${values.stacks}/ (innermost first) | a request |\n|---|---|`,
  );
  for (const [k, b] of [...stacks].sort((a, z) => z[1] - a[1]).slice(0, top))
    console.log(`| ${k} | ${kb(b)} |`);
}
server.close();
agent.destroy();
await db.close();
process.exit(0);
