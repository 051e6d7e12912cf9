/**
 * The import CLI (`npm run import`), run as a user runs it, on real files and a real SQLite file.
 * Properties checked:
 * 1. A CSV of several slices is imported; the database then opens with exactly those contacts.
 * 2. A file with a bad row at its end is Rejected (exit 1) and changes nothing, though its first
 *    slices were written into the transaction before the bad row was read.
 * 3. Mode Replace with a Windows-1252 file leaves only that file's contacts, decoded, and counts the deleted.
 * 4. An unconfigured database or an unknown format is refused with a message naming what to fix (exit 2).
 * 5. Without --xml it prints a summary a person reads: counts, problems per kind with their rows,
 *    columns not kept, the column mapping of a dry run; exit 1 when nothing was imported.
 * 6. Its likely-duplicate search reads the index snapshot a server wrote beside the store, with the
 *    changes since from the change feed, and finds the same duplicates as a read of every contact,
 *    which it falls back to (saying why) when the snapshot is corrupt or gone.
 * (Tests 1–3 ask for --xml: the Response is what they check.)
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from '../src/database/registry.ts';
import { BUILD_WORKER } from '../src/database/worker-build.ts';

const ROOT = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'contacts-import-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, 'config.json'),
  JSON.stringify({ databases: [{ name: 'Demo', backend: 'sqlite' }] }),
);

function importCli(...args: string[]) {
  return run('--xml', ...args);
}

function run(...args: string[]) {
  return runIn(join(dir, 'data'), ...args);
}

function runIn(data: string, ...args: string[]) {
  return cli('src/cli/import.ts', data, ...args);
}

/** One of the project's CLIs, over the data folder `data`. */
function cli(script: string, data: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      CONTACT_SEARCH_CONFIG: join(dir, 'config.json'),
      CONTACT_SEARCH_DATA_DIR: data,
    },
    encoding: 'utf8',
  });
  return {
    code: r.status,
    out: r.stdout,
    err: r.stderr,
    summary: /<Summary ([^>]*)\/>/.exec(r.stdout)?.[1] ?? '',
  };
}

async function contents(): Promise<Map<string, string>> {
  const db = await openDatabase({ name: 'Demo', backend: 'sqlite' }, join(dir, 'data'));
  try {
    return new Map(
      [...db.all()].map((c) => [c.ContactId, `${c.DisplayName} <${c.Emails.join(',')}>`]),
    );
  } finally {
    await db.close();
  }
}

const people = Array.from(
  { length: 4_500 },
  (_, i) => `p${i},Zoë${i},"Ångström, Jr",z${i}@example.org`,
);
const file = (name: string, data: string | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};

test('1. a CSV of several slices is imported', async () => {
  const r = importCli(
    '--db',
    'Demo',
    file('people.csv', ['ContactId,First Name,Last Name,E-mail Address', ...people].join('\r\n')),
  );
  assert.equal(r.code, 0, r.err + r.out);
  assert.match(
    r.summary,
    /Rows="4500" Valid="4500" Invalid="0" Inserted="4500" Updated="0" Deleted="0"/,
  );
  const got = await contents();
  assert.equal(got.size, 4_500);
  assert.equal(got.get('p4499'), 'Zoë4499 Ångström, Jr <z4499@example.org>');
});

test('2. a bad row at the end rejects the file and changes nothing', async () => {
  const before = await contents();
  const r = importCli(
    '--db',
    'Demo',
    file(
      'bad.csv',
      [
        'ContactId,First Name,Last Name,E-mail Address',
        ...people.map((p) => p.replace('Zoë', 'Changed')),
        'x1,Bad,Row,nope',
      ].join('\n'),
    ),
  );
  assert.equal(r.code, 1, r.err + r.out);
  assert.match(r.out, /Status="Rejected"/);
  assert.match(r.out, /<Error Line="4502" Field="Emails"/);
  assert.deepEqual(await contents(), before);
});

test('3. Replace with a Windows-1252 file', async () => {
  const latin1 = Buffer.from(
    'Id;First Name;Last Name\r\np1;José;Muñoz\r\nn1;Łucja;Nowak\r\n'.replace('Ł', 'L'),
    'latin1',
  );
  const r = importCli('--db', 'Demo', '--mode', 'Replace', file('latin.csv', latin1));
  assert.equal(r.code, 0, r.err + r.out);
  assert.match(r.summary, /Inserted="1" Updated="1" Deleted="4499"/);
  assert.deepEqual([...(await contents()).entries()].sort(), [
    ['n1', 'Lucja Nowak <>'],
    ['p1', 'José Muñoz <>'],
  ]);
});

test('4. an unconfigured database or unknown format is refused', () => {
  const noDb = importCli('--db', 'Sales', join(dir, 'people.csv'));
  assert.equal(noDb.code, 2);
  assert.match(noDb.err, /no database named "Sales" is configured/);
  const noFormat = importCli('--db', 'Demo', file('people.txt', 'x'));
  assert.equal(noFormat.code, 2);
  assert.match(noFormat.err, /--format CSV\|VCard\|JSON/);
});

test('5. a summary for a person; exit 1 when nothing was imported', async () => {
  const csv = file(
    'outlook.csv',
    [
      'Title,First Name,Last Name,Job Title,Home Country/Region,Spouse',
      'Dr.,Ann,Lee,,Atlantis,Bo',
      'Mr.,Cy,Odom,Buyer,Spain,',
      'Ms.,Di,Kay,,Atlantis,',
    ].join('\r\n'),
  );
  const dry = run('--db', 'Demo', '--dry-run', '--partial', csv);
  assert.equal(dry.code, 0, dry.err + dry.out);
  assert.doesNotMatch(dry.out, /<Response/);
  assert.match(
    dry.out,
    /outlook\.csv: dry run, nothing written\. 3 rows: 1 good, 2 with problems\./,
  );
  assert.match(dry.out, /Country "Atlantis" is not a country .*: rows 2, 4/);
  assert.match(dry.out, /Spouse: 1 row \(2\)/);
  assert.match(dry.out, /Title → NamePrefix/);
  assert.match(dry.out, /Spouse → \(not kept\)\s+\(unknown column: not kept\)/);
  const none = run('--db', 'Demo', csv.replace('outlook', 'none'), '--partial');
  assert.equal(none.code, 2, 'no such file');
  const bad = run(
    '--db',
    'Demo',
    '--partial',
    file('bad-only.csv', 'First Name,E-mail Address\r\nAnn,not-an-email\r\n'),
  );
  assert.equal(bad.code, 1, bad.out);
  assert.match(bad.out, /0 good, 1 with problems/);
});

test('6. the duplicate search reads the index snapshot and the feed since, else every contact', async () => {
  const data = join(dir, 'snap');
  const g = cli(
    'src/cli/generate.ts',
    data,
    '--db',
    'Demo',
    '--count',
    `${BUILD_WORKER.minContacts}`,
  );
  assert.equal(g.code, 0, g.err);
  // A server's open builds on its worker and writes the snapshot beside the store.
  const db = await openDatabase({ name: 'Demo', backend: 'sqlite' }, data);
  const [a, b] = [...db.all()].filter((c) => c.Phones.length > 0).slice(100, 102);
  await db.close();
  const snapshot = join(data, 'Demo.db.index');
  assert.ok(existsSync(snapshot), 'a snapshot was written');
  // A contact written after the snapshot: the CLI hears of it through the change feed.
  const late = runIn(
    data,
    '--db',
    'Demo',
    file('late.csv', 'First Name,E-mail Address\r\nLate,late.comer@example.org\r\n'),
  );
  assert.equal(late.code, 0, late.err + late.out);
  const probe = file(
    'probe.csv',
    [
      'First Name,Last Name,E-mail Address,Mobile Phone',
      `Again,One,${a.Emails[0].toUpperCase()},`,
      `Again,Two,,${b.Phones[0].replace(/\D/g, '-')}`,
      'Again,Late,LATE.COMER@EXAMPLE.ORG,',
      'New,Person,new.person@example.org,',
    ].join('\r\n'),
  );
  const duplicates = (r: ReturnType<typeof runIn>) => r.out.match(/<Duplicate [^>]*>/g) ?? [];
  const viaSnapshot = runIn(data, '--xml', '--db', 'Demo', '--dry-run', probe);
  assert.equal(viaSnapshot.code, 0, viaSnapshot.err + viaSnapshot.out);
  assert.doesNotMatch(viaSnapshot.err, /reading every contact/);
  const found = duplicates(viaSnapshot);
  assert.equal(found.length, 3, found.join('\n'));
  for (const c of [a, b])
    assert.ok(
      found.some((d) => d.includes(`Of="${c.ContactId}"`)),
      c.ContactId,
    );
  // A corrupt snapshot is not trusted, a missing one not missed: every contact read, the same answer.
  const bytes = readFileSync(snapshot);
  bytes[bytes.length >> 1] ^= 0xff;
  writeFileSync(snapshot, bytes);
  const corrupt = runIn(data, '--xml', '--db', 'Demo', '--dry-run', probe);
  assert.match(corrupt.err, /not usable .*; reading every contact from the store/);
  assert.deepEqual(duplicates(corrupt), found);
  rmSync(snapshot);
  const none = runIn(data, '--xml', '--db', 'Demo', '--dry-run', probe);
  assert.match(none.err, /no index snapshot .*; reading every contact from the store/);
  assert.deepEqual(duplicates(none), found);
});
