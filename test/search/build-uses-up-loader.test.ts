/**
 * A build uses its loader up (index/build.ts): each loaded array is dropped once the build has
 * copied it, so a build's peak is not the loaded rows and the index both (issue 25: a 1M build's
 * peak 1.40 → 1.13 GB). Properties checked:
 * 1. After the build the loader's rows, entries and spans are empty.
 * 2. The built table still reads every contact's values (the dictionaries it shares with the
 *    loader's table are kept), and every entry and span of the loaded contacts is in the index.
 * 3. The loader keeps positions as steps (2 bits an entry), so the cap it says (Base.posCapped) is
 *    its rows': set by a contact of more than 65,535 tokens, not by one replaced by a shorter copy.
 * Answers of indexes built this way: test/search/properties.test.ts (the naive reference).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateContacts } from '../../src/demo/generate.ts';
import { buildBase, type Built } from '../../src/search/index/build.ts';
import { IndexLoader } from '../../src/search/index/loader.ts';
import type { Contact } from '../../src/fields/contact.ts';

const contacts = [...generateContacts({ count: 2_000, seed: 7 })].flat();

function built(cs: readonly Contact[] = contacts): {
  loader: IndexLoader;
  index: Built;
  entries: number;
  spanBytes: number;
} {
  const loader = new IndexLoader();
  for (const c of cs) loader.add(c);
  const entries = loader.fwd.n,
    spanBytes = loader.fwd.spans.n;
  let index: Built | undefined;
  for (const _ of buildBase(loader, (b) => (index = b)));
  return { loader, index: index!, entries, spanBytes };
}

test("1. the loader's rows, entries and spans are dropped by the build", () => {
  const { loader, entries } = built();
  assert.ok(entries > contacts.length, 'the loader held entries before the build');
  assert.equal(loader.table.rows, 0);
  for (const c of loader.table.columns) assert.equal(c.ids.a.length, 0, c.field.name);
  assert.equal(loader.fwd.term.length, 0);
  assert.equal(loader.fwd.steps.length, 0);
  assert.equal(loader.fwd.spans.bytes.length, 0);
});

test('2. the built index holds every value, entry and span', () => {
  const { index, entries, spanBytes } = built();
  assert.equal(index.base.n, contacts.length);
  assert.equal(index.base.entOff[index.base.n], entries);
  assert.equal(index.base.spans.length, spanBytes);
  for (const c of contacts) {
    const o = index.byId.get(c.ContactId)!;
    assert.notEqual(o, undefined, c.ContactId);
    assert.equal(index.table.value(o, 'DisplayName'), c.DisplayName);
    assert.deepEqual(index.table.column('Emails').read(o), c.Emails);
  }
});

test("3. a position at its cap is the built rows' (a replaced copy's does not count)", () => {
  const long = { ...contacts[3], Tags: Array.from({ length: 70_000 }, (_, i) => `t${i}`) };
  assert.equal(built([...contacts, long]).index.base.posCapped, true);
  assert.equal(
    built([long, ...contacts]).index.base.posCapped,
    false,
    'replaced by its shorter copy',
  );
  assert.equal(built().index.base.posCapped, false);
});
