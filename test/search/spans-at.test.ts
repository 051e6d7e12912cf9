/**
 * Where matched tokens lie, as highlighting reads them (SearchIndex.spansAt, index/spans.ts). Properties checked:
 * 1. For base and delta ordinals, every token index gives the kind, field, item, start and length
 *    contactEntries gives, alone or several at once in any order — tokens far into a long value, a
 *    list item past 31, included — and a base ordinal's are all read from its coded spans.
 * 2. An index read from its image (a snapshot, a segment's worker build) keeps its spans.
 *    (test/search/segments.test.ts compares the spans of segment rows with a fresh build's.)
 * 3. The byte codes round-trip spans of every shape: wide starts and lengths, a start before the
 *    previous token's end, a repeated span, an empty one, big list items; an unknown field is refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contactEntries, type Entry } from '../../src/search/contact-tokens.ts';
import { SearchIndex } from '../../src/search/search-index.ts';
import { decodeSpans, SpanLoader, type Span } from '../../src/search/index/spans.ts';
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
  // Every base token has a coded span (no fallback to tokenising), the long JobTitle's last one too.
  const b = index.base;
  for (const ord of index.ordinals()) {
    if (ord >= b.n) continue;
    const all = contactEntries(index.doc(ord)!);
    const at = b.spanOff.start(ord);
    const coded = decodeSpans(
      b.spans,
      at,
      at + b.spanOff.length(ord),
      all.map((_, k) => k),
    );
    assert.deepEqual(coded, all.map(pick), index.doc(ord)!.ContactId);
  }
  const x4 = contactEntries(index.get('x4')!);
  assert.ok(x4.some((e) => e.start > 1023));
});

test('2. an index read from its image keeps its spans', () => {
  const generated = [...generateContacts({ count: 200, seed: 5 })].flat();
  const seg = new SearchIndex();
  seg.build([...generated, ...odd]);
  const again = new SearchIndex();
  again.swapInImage(seg.image()!);
  assert.deepEqual(again.base.spans, seg.base.spans);
  assert.deepEqual(again.base.spanOff.parts(), seg.base.spanOff.parts());
  assertSpans(again);
});

test('3. the byte codes round-trip spans of every shape', () => {
  const rows: Span[][] = [
    [
      { kind: 'word', field: 'DisplayName', item: undefined, start: 0, length: 0 },
      { kind: 'word', field: 'DisplayName', item: undefined, start: 3, length: 16 },
      { kind: 'part', field: 'DisplayName', item: undefined, start: 5, length: 17 },
      { kind: 'word', field: 'JobTitle', item: undefined, start: 100_000, length: 70_000 },
      { kind: 'email', field: 'Emails', item: 0, start: 0, length: 12 },
      { kind: 'word', field: 'Emails', item: 0, start: 0, length: 4 },
      { kind: 'word', field: 'Emails', item: 0, start: 5, length: 3 },
      { kind: 'word', field: 'Emails', item: 0, start: 8, length: 17 },
      { kind: 'email', field: 'Emails', item: 1, start: 0, length: 78 },
      { kind: 'email', field: 'Emails', item: 2, start: 0, length: 79 },
      { kind: 'email', field: 'Emails', item: 3, start: 0, length: 16 },
      { kind: 'word', field: 'Emails', item: 3, start: 20, length: 3 },
      { kind: 'phone', field: 'Phones', item: 1, start: 1, length: 14 },
      { kind: 'phone', field: 'Phones', item: 1, start: 1, length: 14 },
      { kind: 'phone', field: 'Phones', item: 2, start: 1, length: 14 },
      { kind: 'word', field: 'Tags', item: 300, start: 0, length: 3 },
    ],
    [],
    [{ kind: 'word', field: 'Tags', item: 0, start: 7, length: 1 }],
  ];
  const loader = new SpanLoader();
  for (const row of rows) {
    for (const s of row) loader.add(s.kind, s.field, s.item, s.start, s.length);
    loader.endRow();
  }
  const { spanOff, spans } = loader.permuted(Uint32Array.from([2, 0, 1]));
  [rows[2], rows[0], rows[1]].forEach((row, o) => {
    const which = row.map((_, k) => k);
    const [from, to] = [spanOff.start(o), spanOff.start(o + 1)];
    assert.deepEqual(decodeSpans(spans, from, to, which), row);
    const some = [...which].reverse().concat(0, row.length);
    assert.deepEqual(
      decodeSpans(spans, from, to, some),
      some.map((k) => row[k]),
    );
  });
  assert.throws(() => loader.add('word', 'NoSuchField', undefined, 0, 1), /NoSuchField/);
});
