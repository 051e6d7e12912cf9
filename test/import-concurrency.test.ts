/**
 * Searches keep answering while an import runs (issue "ProcessRequest …"): the import's validation,
 * its sliced store transaction and the index rebuild it triggers all let the event loop through, and
 * searches are answered from the index as it was until the import's new index is swapped in.
 * Properties checked:
 * 1. During a 60,000-row import, searches issued one after another all answer, none waits for more
 *    than a fraction of the import (a blocked loop makes one search wait for the whole import).
 * 2. Searches during the import see none of it or all of it (the new index is swapped in at once,
 *    once committed), never part; once the import has answered, they see it all.
 * 3. A write that arrives while an import is validating waits for the import (validation lets the event
 *    loop through, but holds the database's writes): an Insert-mode import never overwrites a contact
 *    written after it checked that the id was free.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { createService } from '../src/service/index.ts';
import { openDatabase, registryOf } from '../src/database/registry.ts';
import { startRealService, type RealService } from './support/real-service.ts';

const ROWS = 60_000;
let svc: RealService;
before(async () => {
  svc = await startRealService({ seedDemo: 2_000 });
});
after(async () => {
  await svc?.close();
});

const call = async (op: string, params: object) => {
  const r = await fetch(`${svc.endpoint}/${op}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      StringOfJSONParameters: JSON.stringify(params),
      DBName: 'Demo',
      AsType: 'JSON',
    }),
  });
  assert.equal(r.status, 200, await r.clone().text());
  const body = (await r.json()) as { d?: string } | string;
  const text = typeof body === 'string' ? body : (body.d ?? JSON.stringify(body));
  return text.startsWith('<') ? text : JSON.parse(text); // ProcessRequest answers its <Response> XML
};

test('1–2. searches answer during a big import, see none or all of it, then all of it', async () => {
  const csv = [
    'ContactId,First Name,Last Name,E-mail Address',
    ...Array.from({ length: ROWS }, (_, i) => `imp${i},Zyx${i},Quorra,q${i}@example.org`),
  ].join('\n');
  const started = performance.now();
  let done = 0;
  const importing = call('ProcessRequest', {
    Request: 'ImportContacts',
    DBName: 'Demo',
    Format: 'CSV',
    Content: csv,
  }).then((r) => {
    done = performance.now();
    return r;
  });
  const waits: number[] = [];
  const seenDuring = new Set<number>();
  while (!done) {
    const t = performance.now();
    const r = await call('GetSearchResults', { Query: 'quorra', PageSize: 1 });
    waits.push(performance.now() - t);
    if (!done) seenDuring.add(r.Total);
  }
  const result = await importing;
  const took = done - started;
  assert.match(String(result), /Inserted="60000"/);
  assert.ok(took > 1000, `the import is big enough to matter (${Math.round(took)} ms)`);
  assert.ok(
    waits.length >= 10,
    `${waits.length} searches answered during a ${Math.round(took)} ms import`,
  );
  const longest = Math.max(...waits);
  assert.ok(
    longest < took * 0.4,
    `the longest search waited ${Math.round(longest)} ms of a ${Math.round(took)} ms import`,
  );
  assert.ok(seenDuring.has(0), 'searches early in the import see the data before it');
  assert.deepEqual(
    [...seenDuring].filter((n) => n !== 0 && n !== ROWS),
    [],
    'never part of the import',
  );
  assert.equal((await call('GetSearchResults', { Query: 'quorra', PageSize: 1 })).Total, ROWS);
});

test("3. a write during an import's validation waits for the import", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contacts-race-'));
  const db = await openDatabase({ name: 'Demo', backend: 'sqlite' }, dir);
  try {
    const service = createService({
      databases: registryOf(new Map([['demo', db]])),
      limits: DEFAULT_LIMITS,
    });
    const call = (params: object) =>
      service
        .invoke({
          op: 'ProcessRequest',
          StringOfJSONParameters: JSON.stringify(params),
          DBName: null,
          AsType: null,
          caller: { binding: 'json', loopback: true },
        })
        .then((r) => (r.kind === 'text' ? r.text : ''));
    // "x" is validated (free) on the first row; the import then yields every 2,000 rows.
    const csv = [
      'ContactId,First Name,Last Name',
      'x,Imported,Row',
      ...Array.from({ length: 9_999 }, (_, i) => `r${i},R${i},Row`),
    ].join('\n');
    const importing = call({
      Request: 'ImportContacts',
      DBName: 'Demo',
      Format: 'CSV',
      Content: csv,
      Mode: 'Insert',
    });
    const single = call({
      Request: 'UpsertContacts',
      DBName: 'Demo',
      Contacts: [{ ContactId: 'x', FirstName: 'Single', LastName: 'Write' }],
    });
    const [imp, up] = await Promise.all([importing, single]);
    assert.match(imp, /Inserted="10000"/);
    assert.match(up, /Status="OK"/);
    assert.equal(db.get('x')?.FirstName, 'Single', 'the later write is the one kept');
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
