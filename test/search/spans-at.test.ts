/**
 * Where matched tokens lie, as highlighting reads them (SearchIndex.spansAt, index/spans.ts). Properties checked:
 * 1. For base and delta ordinals, every token index gives the kind, field, item, start and length
 *    contactEntries gives, alone or several at once in any order — tokens too long for a span (a
 *    value past 1,023 characters, a list item past 31) included.
 * 2. An index read from its image (a snapshot, a segment's worker build) keeps its spans.
 *    (test/search/segments.test.ts compares the spans of segment rows with a fresh build's.)
 * 3. packSpan/unpackSpan round-trip at the limits, and give NO_SPAN past them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contactEntries, type Entry } from '../../src/search/contact-tokens.ts';
import { SearchIndex } from '../../src/search/search-index.ts';
import { NO_SPAN, packSpan, unpackSpan, type Span } from '../../src/search/index/spans.ts';
import { generateContacts } from '../../src/demo/generate.ts';
import { contact } from '../cases/store.case.ts';

const pick = (e: Span | Entry): Span => ({
  kind: e.kind,
  field: e.field,
  item: e.item,
  start: e.start,
  length: e.length,
});

function assertSpans(index: SearchIndex): number {
  let phones = 0;
  for (const ord of index.ordinals()) {
    const c = index.doc(ord)!;
    const all = contactEntries(c);
    for (let k = 0; k < all.length; k++) {
      assert.deepEqual(
        index.spansAt(ord, [k], c).map(pick),
        [pick(all[k])],
        `${c.ContactId} entry ${k}`,
      );
      if (all[k].kind === 'phone') phones++;
    }
    const some = [all.length - 1, 0, Math.floor(all.length / 2)];
    assert.deepEqual(
      index.spansAt(ord, some, c).map(pick),
      some.map((k) => pick(all[k])),
      c.ContactId,
    );
  }
  return phones;
}

const odd = [
  contact('x1', 'Sean', "O'Brien", {
    Phones: ['+49 30 1234567', '030 7654321', '(617) 555-0101'],
    Country: 'DE',
    Emails: ['a.b@c.de', 'x@y.org'],
  }),
  contact('x2', 'No', 'Phone', { Phones: [] }),
  contact('x3', 'Empty', 'Digits', { Phones: ['n/a', '+1 212 555 0199'], Country: 'US' }),
  contact('x4', 'Long', 'Title', { JobTitle: `${'lorem ipsum '.repeat(100)}dolor sit amet` }),
  contact('x5', 'Many', 'Tags', { Tags: Array.from({ length: 40 }, (_, i) => `tag${i}`) }),
  contact('x6', 'Jürgen', 'Müller-Lüdenscheidt', { Organization: '山田商事 株式会社' }),
];

test('1. spansAt equals contactEntries, base and delta', () => {
  const generated = [...generateContacts({ count: 600, seed: 3 })].flat();
  const index = new SearchIndex();
  index.build([...generated, ...odd]);
  index.put(contact('d1', 'Delta', 'Person', { Phones: ['+44 20 7946 0958'], Country: 'GB' }));
  assert.ok(assertSpans(index) > 600, 'phone entries checked');
  // The odd contacts' tokens past the limits are NO_SPAN in the base (the fallback was exercised).
  const b = index.base;
  const ord = index.ordinalOf('x4')!;
  assert.ok(b.spans.subarray(b.spanOff[ord], b.spanOff[ord + 1]).includes(NO_SPAN));
});

test('2. an index read from its image keeps its spans', () => {
  const generated = [...generateContacts({ count: 200, seed: 5 })].flat();
  const seg = new SearchIndex();
  seg.build([...generated, ...odd]);
  const again = new SearchIndex();
  again.swapInImage(seg.image()!);
  assert.deepEqual(again.base.spans, seg.base.spans);
  assert.deepEqual(again.base.spanOff, seg.base.spanOff);
  assertSpans(again);
});

test('3. packSpan round-trips at its limits and refuses past them', () => {
  const cases: Span[] = [
    { kind: 'word', field: 'DisplayName', item: undefined, start: 0, length: 0 },
    { kind: 'part', field: 'JobTitle', item: undefined, start: 1023, length: 1023 },
    { kind: 'email', field: 'Emails', item: 31, start: 5, length: 7 },
    { kind: 'phone', field: 'Phones', item: 0, start: 1, length: 14 },
    { kind: 'word', field: 'Tags', item: 3, start: 0, length: 3 },
  ];
  for (const s of cases)
    assert.deepEqual(unpackSpan(packSpan(s.kind, s.field, s.item, s.start, s.length)), s);
  assert.equal(packSpan('word', 'JobTitle', undefined, 1024, 1), NO_SPAN);
  assert.equal(packSpan('word', 'JobTitle', undefined, 0, 1024), NO_SPAN);
  assert.equal(packSpan('word', 'Tags', 32, 0, 1), NO_SPAN);
  assert.equal(packSpan('word', 'NoSuchField', undefined, 0, 1), NO_SPAN);
});
