/**
 * Matching (CONTRACT §4). Properties checked:
 * 1. Accents, case and the usual folds are ignored: "zoe angstrom" finds Zoë Ångström; "gross strasse" finds Groß / Straße.
 * 2. Every typed token must match a different token, in any order: "smith jo" finds John Smith; "smith smith" needs two.
 * 3. Tokens match by prefix; CJK text is matched as written.
 * 4. Emails match by address, local part, domain and local-part pieces; a typed address stays one token.
 * 5. Phones match by digits: groups typed with separators form one token; prefix with or without country code or trunk 0; last 4+ digits.
 * 6. Digits typed after a `+` are a phone number: they match phones, not street numbers or postal codes; without the `+` they match both.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { contact, fixture, PEOPLE, type Fixture } from '../support/fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture(PEOPLE);
});
after(async () => {
  await f.close();
});

test('1. accents, case and folds are ignored', async () => {
  assert.deepEqual(await f.ids({ Query: 'zoe angstrom' }), ['p03']);
  assert.deepEqual(await f.ids({ Query: 'ZOË' }), ['p03']);
  assert.deepEqual(await f.ids({ Query: 'gross strasse' }), ['p05']);
  assert.deepEqual(await f.ids({ Query: 'lukasz wojcik' }), ['p09']);
  // NFD input (decomposed accents) finds the same contact.
  assert.deepEqual(await f.ids({ Query: 'Zoe\u0308 A\u030Angstro\u0308m' }), ['p03']);
});

test('2. tokens in any order, each on a different token', async () => {
  // John Smith (whole + prefix, in the name), Anna Johnson of Smith & Co (whole in the organisation), Jon Smithers (prefixes only).
  assert.deepEqual(await f.ids({ Query: 'smith jo' }), ['p01', 'p04', 'p02']);
  assert.deepEqual(await f.ids({ Query: 'jo smith' }), ['p01', 'p04', 'p02']);
  // Two "smith" tokens need two different tokens: name + email piece (p01), organisation + domain (p04),
  // and Anne Smyth's name + email piece with one typo each (p10, ranked last).
  assert.deepEqual(await f.ids({ Query: 'smith smith' }), ['p01', 'p04', 'p10']);
  // Anne Smyth too, after: "anna" is a nickname of Anne (a variant), "smith" a typo of Smyth.
  assert.deepEqual(await f.ids({ Query: 'anna smith' }), ['p04', 'p10']);
});

test('3. prefixes match; CJK as written', async () => {
  assert.deepEqual(await f.ids({ Query: 'stockh' }), ['p03']);
  assert.deepEqual(await f.ids({ Query: '山田' }), ['p06']);
  assert.deepEqual(await f.ids({ Query: '太' }), ['p06']);
});

test('4. email address, local part, domain and pieces', async () => {
  assert.deepEqual(await f.ids({ Query: 'john.smith@acme.com' }), ['p01']);
  assert.deepEqual(await f.ids({ Query: 'john.smith@ac' }), ['p01']);
  assert.deepEqual(await f.ids({ Query: 'polmex' }), ['p09']);
  assert.deepEqual(await f.ids({ Query: 'wojcik' }), ['p09']);
  assert.deepEqual(await f.ids({ Query: 'jon@' }), ['p02']);
});

test('5. phones by digits, with or without country code or trunk 0, and by last digits', async () => {
  // Both Boston numbers start 617 555 01…; equal rank, so DisplayName decides (Anne before John).
  assert.deepEqual(await f.ids({ Query: '(617) 555-01' }), ['p10', 'p01']);
  assert.deepEqual(await f.ids({ Query: '+44 20 7946' }), ['p02']);
  assert.deepEqual(await f.ids({ Query: '020 7946' }), ['p02']);
  assert.deepEqual(await f.ids({ Query: '4930 1234' }), ['p04']); // entered as national 030 1234567 in DE
  assert.deepEqual(await f.ids({ Query: '0958' }), ['p02']);
  assert.deepEqual(await f.ids({ Query: '876543' }), ['p05']);
  // The same DE number typed every way: trunk 0, +49, 0049, national without trunk.
  for (const q of ['030 1234', '+49 30 1234', '0049 30 1234', '301 234'])
    assert.deepEqual(await f.ids({ Query: q }), ['p04'], q);
  assert.deepEqual(await f.ids({ Query: '0044 20 7946' }), ['p02']);
  // "+4" is the start of a phone number, as "+44" is: it finds +44 and +49 numbers, not US ones.
  const plus4 = await f.ids({ Query: '+4' });
  assert.ok(plus4.includes('p02') && plus4.includes('p04'), plus4.join());
  assert.ok(!plus4.includes('p01') && !plus4.includes('p10'), plus4.join());
});

test('6. "+" digits match phones only; plain digits match words too', async () => {
  await f.db.write({
    upsert: [
      contact('p11', 'Dora', 'Street', {
        Street: '44 Baker Street',
        PostalCode: '4410',
        Phones: ['+1 212 555 0100'],
        Country: 'US',
      }),
    ],
  });
  try {
    const plus44 = await f.ids({ Query: '+44' });
    assert.ok(plus44.includes('p02') && !plus44.includes('p11'), plus44.join());
    assert.ok(!(await f.ids({ Query: '+4' })).includes('p11'));
    assert.ok(
      (await f.ids({ Query: '44' })).includes('p11'),
      'without the +, 44 finds the street number',
    );
    assert.ok((await f.ids({ Query: '441' })).includes('p11'), 'and 441 the postal code');
  } finally {
    await f.db.write({ delete: ['p11'] });
  }
});
