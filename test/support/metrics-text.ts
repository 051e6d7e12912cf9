/** Reads the Prometheus text exposition (version 0.0.4) into series, for tests. */
import assert from 'node:assert/strict';

export interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export class Exposition {
  constructor(
    readonly series: readonly Series[],
    readonly types: ReadonlyMap<string, string>,
  ) {}

  /** Series of `name` whose labels include `labels`. */
  select(name: string, labels: Record<string, string> = {}): Series[] {
    return this.series.filter(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    );
  }

  /** The sum of the selected series (0 when there are none). */
  sum(name: string, labels: Record<string, string> = {}): number {
    return this.select(name, labels).reduce((n, s) => n + s.value, 0);
  }

  /** The one series of `name` with these labels; fails when there is none or more than one. */
  one(name: string, labels: Record<string, string> = {}): number {
    const found = this.select(name, labels);
    assert.equal(found.length, 1, `${name}${JSON.stringify(labels)}: ${found.length} series`);
    return found[0].value;
  }
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Fails on any line that is not a comment, a blank or a well-formed sample. */
export function parseExposition(text: string): Exposition {
  const series: Series[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue;
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      types.set(name, type);
      continue;
    }
    const m = LINE.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL))
      labels[k] = v.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    const value = Number(m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : m[3]);
    assert.ok(!Number.isNaN(value) || /^nan$/i.test(m[3]), line); // prom-client writes Nan; Prometheus reads any case
    series.push({ name: m[1], labels, value });
  }
  return new Exposition(series, types);
}

export async function scrape(base: string): Promise<Exposition> {
  const r = await fetch(`${base}/metrics`);
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseExposition(await r.text());
}
