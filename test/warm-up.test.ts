/**
 * A started server's warm-up (src/service/warm-up.ts, docs/DESIGN.md "Warm-up"). Properties checked:
 * 1. The texts: deterministic, the count asked (or fewer when too few rows have a first name), each
 *    the first 1–5 code points of a first name, every other one followed by a space and the first 1–4
 *    of the last name; rows without a first name give none; an empty table none at all.
 * 2. On a real database: every database warmed with that many queries; the answers of the service
 *    clients use are the same before and after, and its result cache saw none of the warm-up's texts;
 *    the event loop gets turns meanwhile; `stopped` ends it early; 0 queries turns it off.
 * 3. `keepWarm`: the warm-up at start, then again after a full build is swapped in (a big write), and
 *    not after a small one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { openDatabase, registryOf } from '../src/database/registry.ts';
import type { FieldName } from '../src/fields/schema.ts';
import { createService } from '../src/service/index.ts';
import { generateContacts } from '../src/demo/generate.ts';
import { keepWarm, warmUp, warmUpTexts, type WarmUpReport } from '../src/service/warm-up.ts';

/** A table of the given first and last names (row i holds names[i]). */
function tableOf(names: [string | undefined, string | undefined][]) {
  return {
    rows: names.length,
    value: (row: number, field: FieldName) =>
      field === 'FirstName' ? names[row][0] : field === 'LastName' ? names[row][1] : undefined,
  };
}

test('1. warm-up texts: name prefixes as typed, deterministic, companies skipped', () => {
  const names: [string | undefined, string | undefined][] = [
    ['Margaret', 'Thompson'],
    [undefined, undefined], // a company
    ['𠮷野 Ann', 'Øster'],
    ['Jo', 'Li'],
    ['  Anna  ', ' Smith'],
    ['Christopher', 'Brown'],
  ];
  const texts = warmUpTexts(tableOf(names), 6);
  assert.deepEqual(texts, warmUpTexts(tableOf(names), 6), 'the same table gives the same texts');
  assert.ok(texts.length > 0 && texts.length <= 6);
  // Each is the first 1–5 code points of a first name, alone or with the first 1–4 of its last name.
  const cut = (x: string, n: number) => Array.from(x.trim()).slice(0, n).join('').trimEnd();
  const firstOnly = new Set<string>(),
    withLast = new Set<string>();
  for (const [f, l] of names) {
    if (!f) continue;
    for (let k = 1; k <= 5; k++) {
      firstOnly.add(cut(f, k));
      for (let j = 1; j <= 4 && l; j++) withLast.add(`${cut(f, k)} ${cut(l, j)}`);
    }
  }
  for (const t of texts)
    assert.ok(firstOnly.has(t) || withLast.has(t), `${t} is typed from a contact's names`);
  assert.equal(new Set(texts).size, texts.length, 'each text once');
  assert.ok(
    texts.some((t) => withLast.has(t)),
    'some texts hold a last name',
  );
  assert.ok(
    texts.some((t) => firstOnly.has(t)),
    'some hold a first name only',
  );
  assert.ok(
    texts.some((t) => t.startsWith('C')),
    'the last rows are reached too',
  );
  // Code points: the astral first character is never cut in half.
  const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  for (const t of texts) assert.doesNotMatch(t, lone);
  assert.ok(
    texts.some((t) => t.startsWith('𠮷')),
    'the astral name is among them',
  );

  const many = warmUpTexts(tableOf(names), 100);
  assert.ok(many.length < 100 && many.length >= 6, `${many.length} distinct texts from six rows`);
  assert.deepEqual(warmUpTexts(tableOf([]), 10), []);
  assert.deepEqual(warmUpTexts(tableOf([[undefined, 'Ltd']]), 10), [], 'no first name, no text');
  assert.deepEqual(warmUpTexts(tableOf(names), 0), []);
});

const dir = mkdtempSync(join(tmpdir(), 'contacts-warm-up-'));
const db = await openDatabase({ name: 'Demo', backend: 'sqlite', seedDemo: 3000 }, dir);
const databases = registryOf(new Map([['demo', db]]));
after(async () => {
  await databases.close();
  rmSync(dir, { recursive: true, force: true });
});

const served = createService({ databases, limits: DEFAULT_LIMITS });
const ask = async (Text: string) => {
  const r = await served.invoke({
    op: 'GetPredictiveOptionsSearchContacts',
    StringOfJSONParameters: JSON.stringify({ Text, Limit: 10 }),
    DBName: 'Demo',
    AsType: 'JSON',
    caller: { binding: 'json', loopback: true },
  });
  assert.equal(r.kind, 'text');
  return r.kind === 'text' ? r.text : '';
};

test('2. warm-up on a real database: answers unchanged, nothing cached, the loop served', async () => {
  const probes = ['a', 'ma', 'jo sm', 'ann', 'pe ko', 'zz'];
  const before = await Promise.all(probes.map(ask));
  const size = db.size;

  let turns = 0;
  const ticking = setInterval(() => turns++, 0);
  let immediate = false;
  setImmediate(() => (immediate = true));
  const limits = { ...DEFAULT_LIMITS, warmUpQueries: 400 };
  const reports = await warmUp(databases, limits, { sliceMs: 0 });
  clearInterval(ticking);

  const texts = warmUpTexts(db.index.table, 400);
  assert.ok(texts.length > 350, `${texts.length} distinct texts from 3,000 contacts`);
  assert.deepEqual(
    reports.map((r) => [r.database, r.queries]),
    [['Demo', texts.length]],
  );
  assert.ok(reports[0].ms >= 0);
  assert.ok(immediate, 'an immediate queued before the warm-up ran before it ended');
  assert.ok(turns > 0, 'timers ran while it warmed');
  assert.deepEqual(await Promise.all(probes.map(ask)), before, 'the same answers after it');
  assert.equal(db.size, size, 'no contact changed');
  // The clients' result cache keeps a text on its second asking (limits.resultCacheOnRepeat): a text
  // the warm-up asked, asked once now by a client, is its first asking there, so it is not kept.
  const entries = served.stats!().resultCache.entries;
  await ask(warmUpTexts(db.index.table, 400)[7]);
  assert.equal(served.stats!().resultCache.entries, entries, 'the warm-up left no trace in it');
});

test('2b. warm-up: stopped early, or off', async () => {
  let asked = 0;
  const stopped = await warmUp(
    databases,
    { ...DEFAULT_LIMITS, warmUpQueries: 500 },
    { stopped: () => asked++ >= 25 },
  );
  assert.deepEqual(
    stopped.map((r) => r.queries),
    [25],
  );
  assert.deepEqual(await warmUp(databases, { ...DEFAULT_LIMITS, warmUpQueries: 0 }), []);
});

test('3. keepWarm: warmed at start, and again after a full build is swapped in', async () => {
  const heard: [string, number, 'start' | 'rebuild'][] = [];
  let rebuilt: (r: WarmUpReport) => void = () => {};
  const again = new Promise<WarmUpReport>((done) => (rebuilt = done));
  await keepWarm(databases, { ...DEFAULT_LIMITS, warmUpQueries: 200 }, (r, why) => {
    heard.push([r.database, r.queries, why]);
    if (why === 'rebuild') rebuilt(r);
  });
  assert.deepEqual(heard, [['Demo', warmUpTexts(db.index.table, 200).length, 'start']]);

  // A small write goes into the delta: no build, no warm-up.
  const [few] = generateContacts({ count: 5, seed: 7, startAt: 900_001 }, 5);
  await db.write({ upsert: few });
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(heard.length, 1, 'no warm-up after a small write');

  // Over half the index's rebuild threshold at once: a full build, swapped in, then warmed.
  const [many] = generateContacts({ count: 1_100, seed: 8, startAt: 800_001 }, 1_100);
  await db.write({ upsert: many });
  let timer: NodeJS.Timeout | undefined;
  const r = await Promise.race([
    again,
    new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error('no warm-up within 30 s of the big write')), 30_000);
    }),
  ]).finally(() => clearTimeout(timer));
  assert.equal(r.database, 'Demo');
  assert.equal(r.queries, warmUpTexts(db.index.table, 200).length);
  assert.equal(heard.at(-1)?.[2], 'rebuild');
});
