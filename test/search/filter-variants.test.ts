/**
 * Filters meet names however they are written (CONTRACT §4, issue 23), through GetSearchResults.
 * Properties checked:
 * 1. Prefix and Contains on a String field treat ä/ae, ö/oe, ü/ue, å/aa, æ/ae, ø/oe as equivalent
 *    both ways, by the rules of search: a value's two-letter spelling of its letters ("Müller" is
 *    "mueller"), its one-letter spelling of its digraphs ("Mueller" is "muller"), and the operand's
 *    one-letter spelling ("mueller" meets "Muller"), except a digraph at the operand's end ("mue" is
 *    not "mu", which would meet every "Mu…").
 * 2. The same on a List field, per listed value.
 * 3. Eq, In, Ne and NotIn stay exact value selections (case and accents folded, no variant
 *    spellings): a facet value chosen from a list selects what its count says.
 * 4. The verdict a filter caches per value is its own: a Prefix and a Contains, and two operands,
 *    asked one after the other, each give their own list.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fixture, contact, type Fixture } from '../support/fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture([
    contact('u1', 'Hans', 'Müller', { Tags: ['kühn'] }),
    contact('u2', 'Eva', 'Mueller', { Tags: ['kuehn'] }),
    contact('u3', 'Karl', 'Muller', { Tags: ['kuhn', 'vip'] }),
    contact('u4', 'Otto', 'Mullerson', { Tags: ['kuhnle'] }),
    contact('u5', 'Ida', 'Murphy', { Tags: ['kurz'] }),
    contact('a1', 'Anna', 'Jäger', { Organization: 'Bäckerei Jäger' }),
    contact('a2', 'Bert', 'Jaeger', { Organization: 'Baeckerei Jaeger' }),
    contact('a3', 'Carl', 'Jager', { Organization: 'Backerei Jager' }),
    contact('o1', 'Dora', 'Höfer'),
    contact('o2', 'Emil', 'Hoefer'),
    contact('o3', 'Fritz', 'Hofer'),
    contact('r1', 'Greta', 'Åberg'),
    contact('r2', 'Hugo', 'Aaberg'),
    contact('r3', 'Inga', 'Aberg'),
    contact('e1', 'Jens', 'Mærsk'),
    contact('e2', 'Knud', 'Maersk'),
    contact('e3', 'Lars', 'Marsk'),
    contact('s1', 'Mads', 'Sørensen'),
    contact('s2', 'Nils', 'Soerensen'),
    contact('s3', 'Ole', 'Sorensen'),
  ]);
});
after(() => f.close());

const where = async (Field: string, Op: string, Values: string[]) =>
  (
    await f.ids({ Filters: [{ Field, Op, Values }], Sort: [{ Field: 'ContactId', Dir: 'Asc' }] })
  ).join(' ');

test('1. Prefix and Contains: every letter of the family, both ways', async () => {
  const cases: [string, string, string, string][] = [
    // ü/ue: Mueller is "muller" too; Müller is "mueller" too; Muller and Mullerson meet "mueller"
    // through its one-letter spelling, as the search "mueller" finds them.
    ['LastName', 'Contains', 'mueller', 'u1 u2 u3 u4'],
    ['LastName', 'Contains', 'müller', 'u1 u2 u3 u4'],
    ['LastName', 'Contains', 'muller', 'u1 u2 u3 u4'],
    ['LastName', 'Contains', 'ueller', 'u1 u2 u3 u4'], // "ue" before other letters is also "u"
    ['LastName', 'Contains', 'llue', ''], // …but not at the end (no "llu" in Mueller)
    ['LastName', 'Contains', 'üller', 'u1 u2 u3 u4'],
    ['LastName', 'Prefix', 'mueller', 'u1 u2 u3 u4'],
    ['LastName', 'Prefix', 'Müll', 'u1 u2 u3 u4'],
    ['LastName', 'Prefix', 'muell', 'u1 u2 u3 u4'],
    // A digraph at the end is kept: "mue" is not "mu".
    ['LastName', 'Prefix', 'mue', 'u1 u2'],
    ['LastName', 'Prefix', 'mü', 'u1 u2 u3 u4 u5'],
    // ä/ae
    ['LastName', 'Prefix', 'jaeg', 'a1 a2 a3'],
    ['LastName', 'Prefix', 'jäg', 'a1 a2 a3'],
    ['LastName', 'Contains', 'aeger', 'a1 a2 a3'],
    ['LastName', 'Contains', 'äger', 'a1 a2 a3'],
    ['Organization', 'Contains', 'baeckerei jaeger', 'a1 a2 a3'],
    ['Organization', 'Contains', 'äckerei jäg', 'a1 a2 a3'],
    ['Organization', 'Prefix', 'bäckerei', 'a1 a2 a3'],
    // ö/oe
    ['LastName', 'Contains', 'oefer', 'o1 o2 o3'],
    ['LastName', 'Contains', 'öfer', 'o1 o2 o3'],
    ['LastName', 'Prefix', 'hoef', 'o1 o2 o3'],
    ['LastName', 'Prefix', 'höf', 'o1 o2 o3'],
    // å/aa
    ['LastName', 'Prefix', 'aab', 'r1 r2 r3'],
    ['LastName', 'Prefix', 'åb', 'r1 r2 r3'],
    ['LastName', 'Contains', 'aaberg', 'r1 r2 r3'],
    ['LastName', 'Contains', 'åberg', 'r1 r2 r3'],
    // æ/ae (æ is "ae" written as one letter, so Marsk is its one-letter spelling, as "ä" is "a")
    ['LastName', 'Contains', 'maersk', 'e1 e2 e3'],
    ['LastName', 'Contains', 'mærsk', 'e1 e2 e3'],
    ['LastName', 'Prefix', 'maer', 'e1 e2 e3'],
    ['LastName', 'Prefix', 'mær', 'e1 e2 e3'],
    // ø/oe
    ['LastName', 'Contains', 'oerensen', 's1 s2 s3'],
    ['LastName', 'Contains', 'ørensen', 's1 s2 s3'],
    ['LastName', 'Prefix', 'soer', 's1 s2 s3'],
    ['LastName', 'Prefix', 'sør', 's1 s2 s3'],
  ];
  const got = [];
  for (const [field, op, value] of cases) got.push(await where(field, op, [value]));
  assert.deepEqual(
    got,
    cases.map((c) => c[3]),
  );
});

test('2. a List field: each listed value meets the operand by the same rules', async () => {
  assert.equal(await where('Tags', 'Contains', ['kuehn']), 'u1 u2 u3 u4');
  assert.equal(await where('Tags', 'Contains', ['kühn']), 'u1 u2 u3 u4');
  assert.equal(await where('Tags', 'Prefix', ['kueh']), 'u1 u2 u3 u4');
  assert.equal(await where('Tags', 'Prefix', ['kue']), 'u1 u2');
  assert.equal(await where('Tags', 'Contains', ['uhn']), 'u1 u2 u3 u4');
});

test('3. Eq, In, Ne and NotIn are exact value selections: no variant spellings', async () => {
  assert.equal(await where('LastName', 'Eq', ['Mueller']), 'u2');
  assert.equal(await where('LastName', 'Eq', ['Müller']), 'u1 u3'); // accents fold, as ever
  assert.equal(await where('LastName', 'In', ['Jaeger', 'Hoefer']), 'a2 o2');
  assert.equal(await where('Tags', 'Eq', ['kuehn']), 'u2');
  const ne = await where('LastName', 'Ne', ['Mueller']);
  assert.ok(ne.includes('u1') && !ne.includes('u2'), ne);
  const notIn = await where('LastName', 'NotIn', ['Aaberg', 'Soerensen']);
  assert.ok(notIn.includes('r1') && notIn.includes('s1'), notIn);
  assert.ok(!notIn.includes('r2') && !notIn.includes('s2'), notIn);
  // æ is "ae" once case and accents are folded (normalize), so Eq "Maersk" selects Mærsk as ever.
  assert.equal(await where('LastName', 'Eq', ['Maersk']), 'e1 e2');
  // A facet value's count is what Eq on it selects (for a value no other differs from only in
  // case or accents: Eq "kühn" selects kuhn too, docs/SEARCH.md "Filters").
  const doc = await f.call('GetSearchResults', { Facets: ['Tags', 'Organization'], PageSize: 1 });
  const counts = new Map<string, number>();
  for (const facet of doc.Facets)
    for (const v of facet.Values) counts.set(`${facet.Field} ${v.Value}`, v.Count);
  for (const [field, value] of [
    ['Tags', 'kuehn'],
    ['Organization', 'Baeckerei Jaeger'],
  ])
    assert.equal(
      (await where(field, 'Eq', [value])).split(' ').length,
      counts.get(`${field} ${value}`),
      value,
    );
});

test('4. each filter keeps its own verdicts per value', async () => {
  assert.equal(await where('LastName', 'Prefix', ['mu']), 'u1 u2 u3 u4 u5');
  assert.equal(await where('LastName', 'Contains', ['mue']), 'u1 u2');
  assert.equal(await where('LastName', 'Prefix', ['mue']), 'u1 u2');
  assert.equal(await where('LastName', 'Contains', ['mueller']), 'u1 u2 u3 u4');
  assert.equal(await where('LastName', 'Prefix', ['mu']), 'u1 u2 u3 u4 u5');
});
