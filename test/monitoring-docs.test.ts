/**
 * docs/MONITORING.md and docs/grafana-dashboard.json keep up with /metrics. Properties checked:
 * 1. Every contact_search_* metric a real server exposes is documented in MONITORING.md, and every
 *    one MONITORING.md names is exposed (contact_search_workers only with worker processes).
 * 2. The dashboard is valid JSON whose every query names only metrics the server exposes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { PEOPLE } from './support/fixture.ts';
import { scrape, type Exposition } from './support/metrics-text.ts';
import { startRealService, type RealService } from './support/real-service.ts';

const DOC = readFileSync(new URL('../docs/MONITORING.md', import.meta.url), 'utf8');
const DASHBOARD = readFileSync(new URL('../docs/grafana-dashboard.json', import.meta.url), 'utf8');
const CLUSTER_ONLY = ['contact_search_workers'];

let svc: RealService;
let m: Exposition;
before(async () => {
  svc = await startRealService({ contacts: PEOPLE });
  await fetch(
    `${svc.endpoint}/GetSearchResults?StringOfJSONParameters=%7B%7D&DBName=Demo&AsType=JSON`,
  );
  const csv = 'ContactId,First Name\nd1,Dee\n';
  await fetch(`${svc.endpoint}/ProcessRequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      StringOfJSONParameters: JSON.stringify({
        Request: 'ImportContacts',
        DBName: 'Demo',
        Format: 'CSV',
        Content: csv,
      }),
    }),
  });
  m = await scrape(svc.base);
});
after(async () => {
  await svc?.close();
});

/** A metric family's name: a histogram's or summary's series without their suffix. */
const family = (name: string, types: ReadonlyMap<string, string>) => {
  const base = name.replace(/_(bucket|count|sum)$/, '');
  return types.has(name) ? name : types.has(base) ? base : name;
};

test('1. every metric exposed is documented, and every one documented is exposed', () => {
  const exposed = new Set([...m.types.keys()].filter((n) => n.startsWith('contact_search_')));
  const documented = new Set([...DOC.matchAll(/`(contact_search_[a-z_]+)`/g)].map((x) => x[1]));
  for (const name of exposed)
    assert.ok(documented.has(name), `${name} is not in docs/MONITORING.md`);
  for (const name of documented) {
    if (CLUSTER_ONLY.includes(name) || /^contact_search_worker$/.test(name)) continue; // the removed series is named as such
    assert.ok(
      exposed.has(name),
      `docs/MONITORING.md names ${name}, which /metrics does not expose`,
    );
  }
  assert.ok(exposed.size >= 15, String(exposed.size));
});

test('2. the Grafana dashboard is valid JSON, and its queries name exposed metrics', () => {
  const dash = JSON.parse(DASHBOARD) as {
    panels: { type: string; targets?: { expr: string }[] }[];
  };
  const exprs = dash.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr);
  assert.ok(exprs.length >= 15);
  for (const expr of exprs) {
    for (const [name] of expr.matchAll(/\b(contact_search|process|nodejs)_[a-z_]+/g)) {
      const f = family(name, m.types);
      assert.ok(
        m.types.has(f) || CLUSTER_ONLY.includes(f),
        `dashboard query names ${name}: ${expr}`,
      );
    }
  }
});
