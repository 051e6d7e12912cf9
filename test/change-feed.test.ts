/**
 * Two processes over one SQLite file (here: two databases on two connections in one process, which is
 * what SQLite sees of two worker processes), and the import CLI beside a running database.
 * Properties checked:
 * 1. A contact written through one database is found through the other's service on its very next
 *    call, whose result cache held the answer from before; a deleted one is gone; a saved search too.
 * 2. A write in the second database after the first's counts what the first wrote (it catches up
 *    before writing): an upsert of a contact the other inserted is an update.
 * 3. Replace through one: the other keeps answering from its current index, then reloads to exactly
 *    the new contacts.
 * 4. The import CLI writing the file of a database that is open: its contacts are found at once.
 * 5. One look at the feed serves every request read before it (arrivals.ts), and only those: a
 *    request read after another's commit sees that commit.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { arrived } from '../src/arrivals.ts';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { createService } from '../src/service/index.ts';
import type { Contact } from '../src/fields/contact.ts';
import { openDatabase, registryOf } from '../src/database/registry.ts';
import { contact, eventually } from './cases/store.case.ts';

const ROOT = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'contacts-feed-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function pair(name: string, contacts: Contact[] = []) {
  const a = await openDatabase({ name, backend: 'sqlite' }, dir);
  if (contacts.length) await a.write({ upsert: contacts });
  const b = await openDatabase({ name, backend: 'sqlite' }, dir);
  const service = createService({
    databases: registryOf(new Map([[name.toLowerCase(), b]])),
    limits: DEFAULT_LIMITS,
  });
  const call = async (
    op: 'GetPredictiveOptionsSearchContacts' | 'GetSearchResults',
    params: object,
  ) => {
    const r = await service.invoke({
      op,
      StringOfJSONParameters: JSON.stringify(params),
      DBName: name,
      AsType: 'JSON',
      caller: { binding: 'httpget', loopback: true },
    });
    return r.kind === 'text' ? JSON.parse(r.text) : undefined;
  };
  const ids = async (query: string): Promise<string[]> =>
    (await call('GetSearchResults', { Query: query, PageSize: 500 })).Rows.map(
      (r: { ContactId: string }) => r.ContactId,
    ).sort();
  return {
    a,
    b,
    call,
    ids,
    async close() {
      await a.close();
      await b.close();
    },
  };
}

test('1. writes through one database are seen by the other on its very next call', async () => {
  const p = await pair('One', [contact('x1', 'Xavier', 'Quill')]);
  try {
    assert.deepEqual(await p.ids('quill'), ['x1']);
    const before = await p.call('GetPredictiveOptionsSearchContacts', { Text: 'quil' });
    assert.equal(before.Options.length, 1);
    await p.a.write({ upsert: [contact('x2', 'Xena', 'Quillon')] });
    assert.deepEqual(await p.ids('quill'), ['x1', 'x2']);
    const typed = await p.call('GetPredictiveOptionsSearchContacts', { Text: 'quil' }); // the same text: cached before the write
    assert.equal(typed.Options.length, 2);
    await p.a.write({ delete: ['x1'] });
    assert.deepEqual(await p.ids('quill'), ['x2']);
    assert.equal(p.b.get('x1'), undefined);
    const now = '2024-02-02T00:00:00.000Z';
    await p.a.putSavedSearch({ Name: 'Quills', Query: 'quill', CreatedAt: now, UpdatedAt: now });
    assert.equal(p.b.sync() !== undefined, true, 'the saved search moved the feed');
    await p.b.sync();
    assert.equal(p.b.savedSearch('quills')?.Query, 'quill');
    assert.equal(p.b.sync(), undefined, 'nothing more to read');
  } finally {
    await p.close();
  }
});

test('2. a write catches up first: what the other inserted is an update here', async () => {
  const p = await pair('Two');
  try {
    await p.a.write({ upsert: [contact('y1', 'Yara', 'Stone')] });
    const summary = await p.b.write({
      upsert: [contact('y1', 'Yara', 'Stonebridge'), contact('y2', 'Yuri', 'Stone')],
    });
    assert.deepEqual(summary, { inserted: 1, updated: 1, deleted: 0 });
    assert.equal(p.b.get('y1')?.LastName, 'Stonebridge');
    await p.a.sync();
    assert.equal(p.a.get('y1')?.LastName, 'Stonebridge', 'and the first sees the second');
    assert.equal(p.a.size, 2);
  } finally {
    await p.close();
  }
});

test('3. Replace through one: the other answers meanwhile, then holds exactly the new contacts', async () => {
  const old = Array.from({ length: 3_000 }, (_, i) => contact(`o${i}`, 'Olga', `Old${i}`));
  const p = await pair('Three', old);
  try {
    assert.equal(p.b.size, 3_000);
    await p.a.write({
      replaceAll: true,
      upsert: [contact('n1', 'Nina', 'New'), contact('n2', 'Ned', 'New')],
    });
    const during = (await p.call('GetSearchResults', { Query: 'olga' })).Total; // the reload runs behind this call
    assert.ok(during === 3_000 || during === 0, `all of the old or none: ${during}`);
    assert.ok(
      await eventually(async () => p.b.sync() === undefined && p.b.size === 2),
      'the reload finishes',
    );
    assert.deepEqual(await p.ids('new'), ['n1', 'n2']);
    assert.deepEqual(await p.ids('olga'), []);
  } finally {
    await p.close();
  }
});

test('4. the import CLI writes while the database is open: found at once', async () => {
  const config = join(dir, 'cli.json');
  writeFileSync(config, JSON.stringify({ databases: [{ name: 'Four', backend: 'sqlite' }] }));
  const p = await pair('Four', [contact('k1', 'Kai', 'Marlowe')]);
  try {
    assert.deepEqual(await p.ids('marlowe'), ['k1']);
    const csv = join(dir, 'more.csv');
    writeFileSync(
      csv,
      'ContactId,First Name,Last Name,E-mail Address\r\nk2,Kim,Marlowe,kim@example.org\r\n',
    );
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/import.ts', '--db', 'Four', csv],
      {
        cwd: ROOT,
        env: { ...process.env, CONTACT_SEARCH_CONFIG: config, CONTACT_SEARCH_DATA_DIR: dir },
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.deepEqual(await p.ids('marlowe'), ['k1', 'k2']);
  } finally {
    await p.close();
  }
});

test('5. one look at the feed serves the requests read before it, and a request read after a commit sees it', async () => {
  const p = await pair('Five', [contact('f1', 'Fay', 'Fenwick')]);
  try {
    const first = arrived(),
      second = arrived(); // two requests read in one turn
    assert.equal(p.b.sync(first), undefined, 'nothing moved');
    await p.a.write({ upsert: [contact('f2', 'Finn', 'Fenwick')] }); // committed after both were read
    assert.equal(p.b.sync(second), undefined, 'read before the look: the look serves it');
    assert.equal(p.b.get('f2'), undefined);
    const third = arrived(); // read after the commit
    await p.b.sync(third);
    assert.equal(p.b.get('f2')?.FirstName, 'Finn', 'a request read after the commit sees it');
    await p.a.write({ delete: ['f1'] });
    await p.b.sync(); // no arrival number: always looks
    assert.equal(p.b.get('f1'), undefined);
  } finally {
    await p.close();
  }
});
