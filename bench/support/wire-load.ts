/**
 * What the wire benches (bench:http, bench:http-ab) share: a server process started and its port read
 * from its output, the requests of each binding built from the operation table, the traffic that
 * misses the result cache every time (distinct typing queries, faceted requests spelled unique), each
 * autocannon connection's own place in a list, and a process tree's CPU time.
 */
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { defaultConfig } from '../../src/config.ts';
import {
  operation,
  requestNamespace,
  soapAction,
  type OperationName,
} from '../../src/operations/table.ts';
import {
  CONTENT_TYPE,
  SOAP11_NS,
  SOAP12_NS,
  XML_DECL,
  type SoapVersion,
} from '../../src/protocol/constants.ts';
import { escapeText } from '../../src/render/xml.ts';
import { SERVER_ENV, serverArgs } from './server-process.ts';

/** A process (`node args` in `cwd`), once `pattern` shows in its output: its first group is the port. */
export function startProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
  cwd: string,
  log?: NodeJS.WritableStream,
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolvePort, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '',
      up = false;
    child.stdout!.on('data', (d: Buffer) => {
      log?.write(d);
      if (up) return;
      out += d.toString();
      const m = pattern.exec(out);
      if (m) {
        up = true;
        resolvePort({ child, port: Number(m[1]) });
      }
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

/** The line the server prints once its databases are loaded; its group is the port. */
const SERVER_UP = /help page: +http:\/\/127\.0\.0\.1:(\d+)\//;

/**
 * The server of the checkout at `tree`, as `npm start` runs it (server-process.ts), over `dataDir`'s
 * databases on a port of its own, once its databases are loaded; `flags` go to node before the
 * entry point (a profile, a GC trace).
 */
export function startServer(opts: {
  tree: string;
  dataDir: string;
  workers: number | string;
  flags?: readonly string[];
  log?: NodeJS.WritableStream;
}): Promise<{ child: ChildProcess; port: number }> {
  return startProcess(
    serverArgs(opts.tree, opts.flags),
    {
      CONTACT_SEARCH_DATA_DIR: opts.dataDir,
      CONTACT_SEARCH_HOST: '127.0.0.1',
      CONTACT_SEARCH_PORT: '0',
      CONTACT_SEARCH_LOG_LEVEL: 'warn',
      CONTACT_SEARCH_WORKERS: String(opts.workers),
      ...SERVER_ENV, // as `npm start` runs it
    },
    SERVER_UP,
    opts.tree,
    opts.log,
  );
}

/**
 * A function sending one request to 127.0.0.1:`port` over `agent` that resolves with its status
 * (0 when the connection failed), the body read and dropped: the benches that time answers from
 * outside a server they started (bench:memory-cap, bench:image-residency).
 */
export function statusAsker(port: number, agent: http.Agent) {
  return (path: string, method = 'GET', headers?: Record<string, string>, body?: string) =>
    new Promise<number>((done) => {
      const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      });
      req.on('error', () => done(0));
      req.end(body);
    });
}

export type Req = {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: autocannon.Request) => autocannon.Request;
};

const nsBase = defaultConfig().nsBase;
const endpoint = `/DesktopModules/${defaultConfig().module}_Common/WebServices/API.asmx`;

export function soap(v: SoapVersion, name: OperationName, json: object | string): Req {
  const op = operation(name)!;
  const action = soapAction(op, nsBase);
  return {
    method: 'POST',
    path: endpoint,
    headers:
      v === '1.1'
        ? { 'Content-Type': CONTENT_TYPE.soap11, SOAPAction: `"${action}"` }
        : { 'Content-Type': `${CONTENT_TYPE.soap12}; action="${action}"` },
    body: `${XML_DECL}<s:Envelope xmlns:s="${v === '1.1' ? SOAP11_NS : SOAP12_NS}"><s:Body><${name} xmlns="${requestNamespace(op, nsBase)}"><StringOfJSONParameters>${escapeText(typeof json === 'string' ? json : JSON.stringify(json))}</StringOfJSONParameters><DBName>Demo</DBName><AsType>JSON</AsType></${name}></s:Body></s:Envelope>`,
  };
}
const form = (json: object | string) =>
  new URLSearchParams({
    StringOfJSONParameters: typeof json === 'string' ? json : JSON.stringify(json),
    DBName: 'Demo',
    AsType: 'JSON',
  }).toString();
export function httpPost(name: OperationName, json: object | string): Req {
  return {
    method: 'POST',
    path: `${endpoint}/${name}`,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form(json),
  };
}
export function httpGet(name: OperationName, json: object): Req {
  return { method: 'GET', path: `${endpoint}/${name}?${form(json)}` };
}
/** A type-ahead request's parameters. */
export const typed = (Text: string) => ({ Text, Limit: 10 });

/** JSON whitespace spelling `n` in base 3 (space, tab, newline; XML keeps all three in element text). */
function spell(n: number): string {
  let ws = '';
  for (let i = 0; i < 15; i++, n = Math.floor(n / 3)) ws += ' \t\n'[n % 3];
  return ws;
}

/**
 * The same requests, each sent once: JSON whitespace after `{` spells a running counter, so the
 * server's result cache (keyed on the parameters as sent) misses every time while the engine does
 * the very same work.
 */
let sent = 0;
export function unique(requests: Req[]): Req[] {
  return requests.map((r) => ({
    ...r,
    setupRequest: (req: autocannon.Request) => ({
      ...req,
      body: String(req.body).replace(
        '<StringOfJSONParameters>{',
        `<StringOfJSONParameters>{${spell(sent++)}`,
      ),
    }),
  }));
}

/**
 * The distinct typing traffic against one server (`port`): its k-th request (over all its
 * scenarios, warm-ups included, whichever connection sends it) carries the k-th query of `queries`.
 * Should a run go through the whole list, the later passes spell their number in JSON whitespace:
 * still a cache miss.
 */
const distinctSent = new Map<number, number>();
export function distinctTyping(
  queries: readonly string[],
  port: number,
  make: (params: string) => Req,
): Req[] {
  const params = (k: number) => {
    const json = JSON.stringify(typed(queries[k % queries.length]));
    const pass = Math.floor(k / queries.length);
    return pass === 0 ? json : `{${spell(pass)}${json.slice(1)}`;
  };
  return [
    {
      ...make(params(0)),
      setupRequest: (req: autocannon.Request) => {
        const k = distinctSent.get(port) ?? 0;
        distinctSent.set(port, k + 1);
        const r = make(params(k));
        return { ...req, method: r.method, path: r.path, body: r.body };
      },
    },
  ];
}

/**
 * The `requests` and `setupClient` options of a load: each connection replays the list from its own
 * place in it (the k-th from k/connections of the way through): users type independently. autocannon
 * starts every connection at the top, so all 64 sent the same request at once and met each slow one
 * together (docs/perf-log/2026-11-24-morning.md). Each connection is handed one request that takes
 * the next of the list as it is sent: a list handed over as it is gets built into every
 * connection's request buffers up front, as the clock runs — 3,100 typing requests × 64 connections
 * kept the load generator busy for 3–5 s, and the first answers read as that long.
 */
export function staggered(
  requests: Req[],
  connections: number,
): Pick<autocannon.Options, 'requests' | 'setupClient'> {
  let k = 0;
  const sendAs = (req: autocannon.Request, r: Req): autocannon.Request => {
    const plain: autocannon.Request = { ...req, method: r.method, path: r.path };
    if (r.headers) plain.headers = r.headers;
    if (r.body !== undefined) plain.body = r.body;
    return r.setupRequest ? r.setupRequest(plain) : plain;
  };
  return {
    requests: [requests[0]],
    setupClient: (client) => {
      let next = Math.floor(((k++ % connections) * requests.length) / connections);
      client.setRequests([
        { setupRequest: (req) => sendAs(req, requests[next++ % requests.length]) },
      ]);
    },
  };
}

/** A process and its children (the workers): /proc/<pid>/task/<pid>/children. */
export function tree(pid: number): number[] {
  let kids: number[] = [];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    /* gone */
  }
  return [pid, ...kids.flatMap(tree)];
}

/** CPU seconds (user + system) a process and its children have used: /proc/<pid>/stat fields 14 and 15, in clock ticks (100 a second on Linux). */
export function cpuSeconds(pid: number): number {
  let total = 0;
  for (const p of tree(pid)) {
    const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    total += (Number(f[11]) + Number(f[12])) / 100;
  }
  return total;
}

/** An autocannon run's result, and its answers after each connection's first (which includes its connect). */
export interface Loaded {
  result: autocannon.Result;
  /** The longest answer (whole ms, as autocannon records them) after each connection's first. */
  steadyMax: number;
  /** Answers after each connection's first that took over 200 ms (issue 22: none should). */
  steadyOver200: number;
}

/**
 * Runs autocannon. Every connection opens as the clock starts, so its first answer waits for its
 * connect too: the steady state's longest answer is read apart from those.
 */
export function load(options: autocannon.Options): Promise<Loaded> {
  return new Promise((done, fail) => {
    const answered = new WeakSet<object>();
    let steadyMax = 0,
      steadyOver200 = 0;
    autocannon(options, (err: unknown, result: autocannon.Result) =>
      err ? fail(err) : done({ result, steadyMax: Math.floor(steadyMax), steadyOver200 }),
    ).on('response', (client, _status, _bytes, ms) => {
      if (!answered.has(client)) answered.add(client);
      else {
        if (ms > steadyMax) steadyMax = ms;
        if (ms > 200) steadyOver200++;
      }
    });
  });
}

/** The median of some figures (of slices, rounds or runs). */
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** `median (min–max)`, each written by `show`. */
export const spread = (xs: readonly number[], show: (x: number) => string): string =>
  `${show(median(xs))} (${show(Math.min(...xs))}–${show(Math.max(...xs))})`;
