/**
 * The column store under the index. Properties checked:
 * 1. A dictionary keeps every id's value when it moves from strings to its buffer, and stops sharing ids after.
 * 1b'. isoMillis takes exactly what toISOString writes (checked against Date.parse and toISOString):
 *     every year from 0 to 9999, leap days, and near misses (Feb 29 of a common year, day 31 of a
 *     30-day month, hour 24, a sign, a space, no milliseconds, a lower-case z) refused.
 * 1c. A buffered column of email addresses keeps each domain once and gives back every value as
 *     interned (no '@', several, an empty domain, non-Latin, one- and two-byte tail numbers, past
 *     the most tails it numbers), from its image's parts too.
 * 1d. A buffered dictionary gives back values of every length (empty, 254, 255, past 64K bytes) at
 *     every place in its blocks of 16, from its image's parts too, and refuses parts without lengths.
 * 1e. A buffer grown in steps (a segment's staging) has the room asked for and gives back every
 *     value, those interned between its steps and after too.
 * 2. A table gives back exactly the contacts put in (absent members, empty strings, lists, any script);
 *    a row's view reads every member as the contact holds it, in any order and again; the id a
 *    read-ahead touches is the one a row's first value decodes, and reading ahead past the table's
 *    rows or for absent values is harmless.
 * 3. The id hash agrees with a Map over any sequence of sets and deletes (through its resizes).
 * 4. A permuted table holds the same contacts in the new order, sharing the dictionaries.
 * 4b. Column ids and list offsets take the narrowest array their values fit, and widen as values
 *     are appended past 255 and 65,535 without losing a row (after a permutation too).
 * 5. Ranks order a dictionary's values as plain (or normalised) string comparison does, equal values
 *    share a rank, absent and empty values rank last, and rankBound finds a bound's first value —
 *    with the native sort and with its fallback (values holding NUL).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ContactTable } from '../../src/search/table/contact-table.ts';
import { Dictionary, isoMillis } from '../../src/search/table/dictionary.ts';
import { IdHash } from '../../src/search/table/id-hash.ts';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FILE_MAP, isMapped, mapBytes } from '../../src/io/file-map.ts';
import { rankBound, ranksOf } from '../../src/search/table/ranks.ts';
import { normalize } from '../../src/search/normalize.ts';
import { generateContacts } from '../../src/demo/generate.ts';
import { contact } from '../cases/store.case.ts';
import type { Contact } from '../../src/fields/contact.ts';

test('1. a dictionary keeps its ids across the move to a buffer', () => {
  const d = new Dictionary(3);
  const values = ['Zoë', '', '山田', 'Zoë', 'a😀b', 'plain', 'a😀b'];
  const ids = values.map((v) => d.intern(v));
  assert.deepEqual(ids.slice(0, 4), [1, 2, 3, 1]); // shared while mapped
  assert.equal(d.deduplicated, false);
  assert.deepEqual(ids.slice(4), [4, 5, 6]); // a new id for a repeated value once buffered
  assert.deepEqual(
    ids.map((id) => d.value(id)),
    values,
  );
  assert.equal(d.value(0), '');
  assert.equal(d.size, 7);
});

test('1b. timestamps move to numbers, and back to text for a value of another form', () => {
  const d = new Dictionary(3);
  const stamps = [
    '2024-01-01T00:00:00.000Z',
    '1999-12-31T23:59:59.999Z',
    '2024-01-01T00:00:00.000Z',
    '2026-11-26T04:00:00.123Z',
    '0001-01-01T00:00:00.000Z',
  ];
  const ids = stamps.map((v) => d.intern(v));
  assert.equal(d.parts().times?.length, 4, 'one number a value'); // the repeat shared its id while mapped
  const parts = d.parts();
  const copy = Dictionary.fromParts(parts);
  assert.deepEqual(
    ids.map((id) => [d.value(id), copy.value(id)]),
    stamps.map((v) => [v, v]),
  );
  // Read in place, not copied (an image's mapped array stays the file's pages): a value appended
  // afterwards grows a copy of its own, and the array it was read from is left as it was.
  const held = Float64Array.from(parts.times!);
  parts.times![0] += 1;
  assert.equal(copy.value(ids[0]), '2024-01-01T00:00:00.001Z');
  parts.times![0] -= 1;
  assert.equal(copy.intern('2030-05-05T05:05:05.005Z'), 5);
  assert.equal(copy.value(5), '2030-05-05T05:05:05.005Z');
  assert.deepEqual(parts.times, held);
  assert.deepEqual(
    copy.parts().times,
    Float64Array.from([...held, Date.parse('2030-05-05T05:05:05.005Z')]),
  );
  const odd = ['2024-01-01T24:00:00.000Z', '2024-01-01T00:00:00Z', 'soon'];
  const more = odd.map((v) => d.intern(v));
  assert.deepEqual(more, [5, 6, 7]);
  assert.equal(d.parts().times, undefined);
  assert.deepEqual(
    [...ids, ...more].map((id) => d.value(id)),
    [...stamps, ...odd],
  );
  assert.equal(d.value(0), '');
});

test("1b'. isoMillis takes exactly what toISOString writes", () => {
  const slow = (s: string) => {
    const ms = Date.parse(s);
    return Number.isNaN(ms) || new Date(ms).toISOString() !== s ? undefined : ms;
  };
  const fixed = [
    '2024-02-29T12:00:00.000Z',
    '2023-02-29T12:00:00.000Z',
    '1900-02-29T00:00:00.000Z',
    '2000-02-29T00:00:00.000Z',
    '2024-04-31T00:00:00.000Z',
    '2024-12-31T23:59:59.999Z',
    '2024-13-01T00:00:00.000Z',
    '2024-00-10T00:00:00.000Z',
    '2024-01-00T00:00:00.000Z',
    '2024-01-01T24:00:00.000Z',
    '2024-01-01T23:60:00.000Z',
    '2024-01-01T23:59:60.000Z',
    '2024-01-01 00:00:00.000Z',
    '2024-01-01T00:00:00.000z',
    '+024-01-01T00:00:00.000Z',
    '2024-01-01T00:00:00Z',
    '0000-01-01T00:00:00.000Z',
    '0050-06-15T10:20:30.400Z',
    '0099-12-31T23:59:59.999Z',
    '0100-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
  ];
  for (const s of fixed) assert.equal(isoMillis(s), slow(s), s);
  fc.assert(
    fc.property(
      fc.integer({
        min: Date.parse('0000-01-01T00:00:00.000Z'),
        max: Date.parse('9999-12-31T23:59:59.999Z'),
      }),
      fc.integer({ min: 0, max: 23 }),
      fc.constantFrom('', '1', '9'),
      (ms, at, digit) => {
        const s = new Date(ms).toISOString();
        assert.equal(isoMillis(s), ms, s);
        // One character changed: as the slow check says.
        const t = digit
          ? s.slice(0, at) + digit + s.slice(at + 1)
          : s.slice(0, at) + s.slice(at + 1);
        assert.equal(isoMillis(t), slow(t), t);
      },
    ),
    { numRuns: 20_000 },
  );
});

test('1c. an email column keeps each domain once', () => {
  const d = new Dictionary(3);
  const values = [
    'ann@example.com',
    'bob@example.com',
    'no-at-sign',
    'x@y@example.com',
    'empty@',
    '@only',
    'zoë@例え.jp',
    'ann@example.com',
    '',
  ];
  for (let i = 0; i < 17_000; i++) values.push(`u${i}@d${i % 16_500}.org`);
  const ids = values.map((v) => d.intern(v));
  const back = Dictionary.fromParts(d.parts());
  assert.deepEqual(
    ids.map((id) => d.value(id)),
    values,
  );
  assert.deepEqual(
    ids.map((id) => back.value(id)),
    values,
  );
  const p = d.parts();
  assert.equal(p.tails?.length, 0x3fff, 'domains numbered up to the most it keeps');
  assert.equal(p.tails?.[0], '@example.com');
  const plain = values.reduce((n, v) => n + Buffer.byteLength(v), 0);
  assert.ok(p.bytes.length < plain, `${p.bytes.length} bytes, not ${plain}`);
  // A column of other values keeps them whole.
  const names = new Dictionary(3);
  for (const v of ['a', 'b', 'c', 'd@e', 'f']) names.intern(v);
  assert.equal(names.parts().tails, undefined);
  assert.equal(names.value(4), 'd@e');
});

test('1d. buffered values of every length', () => {
  const d = new Dictionary(1);
  const values = ['first'];
  for (const n of [0, 1, 254, 255, 256, 70_000, 3, 254, 0, 255])
    for (let k = 0; k < 7; k++) values.push('é'.repeat(n >> 1) + 'x'.repeat(n & 1));
  for (let i = 0; i < 40; i++) values.push(`v${i}`.repeat(i * 9));
  const ids = values.map((v) => d.intern(v));
  assert.deepEqual(
    ids,
    values.map((_, i) => i + 1),
  );
  const back = Dictionary.fromParts(d.parts());
  for (const dict of [d, back])
    assert.deepEqual(
      ids.map((id) => dict.value(id)),
      values,
    );
  assert.ok((d.parts().lengths?.wide.length ?? 0) > 0, 'a block past 65,535 bytes kept apart');
  assert.throws(
    () => Dictionary.fromParts({ ...d.parts(), lengths: undefined }),
    /without their lengths/,
  );
});

test('1e. a buffer grown in steps keeps every value, those interned between the steps too', () => {
  for (const tails of [false, true]) {
    const d = new Dictionary(1);
    const values: string[] = [];
    const add = (v: string) => {
      values.push(v);
      assert.equal(d.intern(v), values.length);
    };
    // Past 4 MiB, so the growth takes several steps; emails give the dictionary its tails.
    for (let i = 0; i < 60_000; i++)
      add(
        tails
          ? `person.${i}.${'q'.repeat(80)}@example${i % 7}.org`
          : `Ångström ${'x'.repeat(i % 200)} ${i}`,
      );
    const size = d.approximateBytes();
    const steps = d.reserveSteps(5_000_000);
    let n = 0;
    for (const _ of steps) {
      if (++n % 2) add(tails ? `between.${n}@example1.org` : `between ${n} 東京`); // interned meanwhile
      assert.equal(d.value(values.length), values.at(-1), 'readable between the steps');
    }
    assert.ok(n > 1, `${n} steps`);
    assert.ok(d.approximateBytes() > size, 'grown');
    for (let i = 0; i < 20_000; i++) add(`after ${i} ${'y'.repeat(i % 100)}`);
    assert.deepEqual(
      values.map((_, i) => d.value(i + 1)),
      values,
    );
  }
});

test('2. a table round-trips contacts', () => {
  const t = new ContactTable();
  const odd = [
    contact('x1', 'Zoë', 'Ångström', {
      MiddleName: '',
      Tags: [],
      Emails: [],
      Phones: ['+49 30 1234567', '+49 30 1234567'],
      Notes: 'line\nbreak, "quoted"',
    }),
    {
      ContactId: 'x2',
      DisplayName: 'ACME 株式会社',
      Organization: 'ACME 株式会社',
      Emails: ['a@b.c'],
      Phones: [],
      Tags: ['t1', 't1', 't2'],
      CreatedAt: '2024-01-01T00:00:00.000Z',
      UpdatedAt: '2024-01-02T00:00:00.000Z',
    },
  ];
  const contacts = [...odd, ...[...generateContacts({ count: 300, seed: 3 })].flat()];
  const rows = contacts.map((c) => t.append(c));
  assert.deepEqual(
    rows,
    contacts.map((_, i) => i),
  );
  for (let i = 0; i < contacts.length; i++) assert.deepStrictEqual(t.contact(i), contacts[i]);
  assert.equal(t.value(1, 'FirstName'), undefined);
  assert.equal(t.value(0, 'MiddleName'), '');
  assert.deepEqual(t.column('Tags').values(1), ['t1', 't1', 't2']);
  // A list's value is its first item (an option's email), none for an empty list.
  for (let i = 0; i < contacts.length; i++)
    for (const f of ['Emails', 'Phones', 'Tags', 'DisplayName'] as const) {
      const v = (contacts[i] as unknown as Record<string, unknown>)[f];
      assert.equal(t.value(i, f), Array.isArray(v) ? v[0] : v, `${i} ${f}`);
      // The id read ahead (ContactTable.readAhead) is the one `first` decodes; 0 when absent.
      const col = t.column(f);
      assert.equal(
        col.firstId(i) === 0 ? undefined : col.dict.value(col.firstId(i)),
        t.value(i, f),
      );
    }
  // Reading ahead touches only what is there: rows past the table and absent values included.
  const names = ['DisplayName', 'Emails', 'Tags', 'Organization'] as const;
  const ahead = [0, 1, contacts.length - 1, contacts.length, contacts.length + 1000];
  assert.ok(Number.isFinite(t.readAhead(ahead, names)));
  assert.ok(
    Number.isFinite(
      t.readAhead(
        Array.from({ length: 100 }, (_, i) => i),
        names,
      ),
    ),
  );
  for (let i = 0; i < contacts.length; i++) {
    const v = t.view(i) as unknown as Record<string, unknown>,
      c = t.contact(i) as unknown as Record<string, unknown>;
    for (const col of [...t.columns].reverse())
      assert.deepStrictEqual(v[col.field.name], c[col.field.name], `${i} ${col.field.name}`);
    assert.equal(v.Phones, v.Phones, 'read once, then kept');
  }

  const order = Uint32Array.from(
    contacts
      .map((_, i) => i)
      .reverse()
      .filter((i) => i % 3 !== 1),
  );
  const p = t.permuted(order);
  assert.equal(p.rows, order.length);
  for (let i = 0; i < order.length; i++) assert.deepStrictEqual(p.contact(i), contacts[order[i]]);
  assert.equal(p.column('Emails').dict, t.column('Emails').dict);
});

test('4b. column ids and offsets widen as they grow, and read back every row', () => {
  const t = new ContactTable();
  const contacts = Array.from({ length: 70_000 }, (_, i): Contact => ({
    ContactId: `c${i}`,
    DisplayName: `n${i % 300}`, // past 255 values: u8 → u16
    ...(i % 2 ? { Country: 'DE' } : {}), // stays u8
    City: `city${i}`, // past 65,535 values: u16 → u32 (buffer mode from 65,536 values)
    Emails: [],
    Phones: [],
    Tags: i < 100 ? [] : ['a', 'b', 'c', 'd'], // offsets past 65,535 items: u16 → u32
    CreatedAt: '2024-01-01T00:00:00.000Z',
    UpdatedAt: '2024-01-01T00:00:00.000Z',
  }));
  contacts.slice(0, 200).forEach((c) => t.append(c));
  assert.ok(t.column('DisplayName').ids.a instanceof Uint8Array);
  assert.ok(t.column('Tags').offs!.a instanceof Uint16Array);
  contacts.slice(200).forEach((c) => t.append(c));
  assert.ok(t.column('DisplayName').ids.a instanceof Uint16Array);
  assert.ok(t.column('Country').ids.a instanceof Uint8Array);
  assert.ok(t.column('City').ids.a instanceof Uint32Array);
  assert.ok(t.column('Tags').offs!.a instanceof Uint32Array);
  for (const i of [0, 99, 100, 255, 256, 299, 65_535, 65_536, 69_999])
    assert.deepStrictEqual(t.contact(i), contacts[i], `row ${i}`);
  const order = Uint32Array.from({ length: 300 }, (_, i) => 69_999 - i);
  const p = t.permuted(order);
  assert.ok(p.column('Country').ids.a instanceof Uint8Array);
  assert.ok(p.column('Tags').offs!.a instanceof Uint16Array); // 1,200 items: two bytes
  for (let i = 0; i < order.length; i++) assert.deepStrictEqual(p.contact(i), contacts[order[i]]);
});

test('3. the id hash agrees with a Map', () => {
  const op = fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 400 }));
  fc.assert(
    fc.property(fc.array(op, { maxLength: 600, size: 'max' }), (ops) => {
      const ids: string[] = [];
      const h = new IdHash((row) => ids[row]);
      const ref = new Map<string, number>();
      for (const [del, k] of ops) {
        const id = `id-${k}`;
        if (del) {
          assert.equal(h.delete(id), ref.get(id));
          ref.delete(id);
        } else {
          ids.push(id);
          assert.equal(h.set(id, ids.length - 1), ref.get(id));
          ref.set(id, ids.length - 1);
        }
        assert.equal(h.size, ref.size);
      }
      for (let k = 0; k <= 400; k++) assert.equal(h.get(`id-${k}`), ref.get(`id-${k}`));
    }),
  );
});

test('3b. an id table mapped from a file takes a few ids in place; more are copied off it first', (t) => {
  if (!FILE_MAP.built) {
    t.skip('SKIPPED: native/file-map is not built here (no mapped arrays to test)');
    return;
  }
  const ids = Array.from({ length: 3000 }, (_, i) => `C${i}`);
  const made = new IdHash((row) => ids[row]);
  for (let i = 0; i < 2000; i++) made.set(ids[i], i);
  const p = made.parts();
  const dir = mkdtempSync(join(tmpdir(), 'id-hash-'));
  try {
    const file = join(dir, 'ids');
    writeFileSync(file, Buffer.concat([Buffer.from(p.slots.buffer), Buffer.from(p.hashes.buffer)]));
    const fd = openSync(file, 'r');
    const bytes = mapBytes(fd, 0, p.slots.byteLength + p.hashes.byteLength);
    closeSync(fd);
    const h = new IdHash((row) => ids[row]).restore({
      slots: new Int32Array(bytes.buffer, bytes.byteOffset, p.slots.length),
      hashes: new Uint32Array(bytes.buffer, bytes.byteOffset + p.slots.byteLength, p.hashes.length),
      used: p.used,
      filled: p.filled,
    });
    const write = (from: number, to: number) => {
      for (const _ of h.roomSteps(to - from));
      for (let i = from; i < to; i++) h.set(ids[i], i);
    };
    write(2000, 2003);
    assert.ok(isMapped(h.parts().slots) && isMapped(h.parts().hashes), 'three ids: not copied');
    write(2003, 2203);
    assert.ok(!isMapped(h.parts().slots) && !isMapped(h.parts().hashes), '200 ids: copied first');
    for (let i = 0; i < 2203; i++) assert.equal(h.get(ids[i]), i);
    assert.equal(h.get(ids[2203]), undefined);
    assert.equal(h.size, 2203);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('5. ranks agree with string order', () => {
  const value = fc.oneof(
    fc.constantFrom(
      '',
      'a',
      'A',
      'Zoë',
      'zoe',
      '2024-01-01T00:00:00.000Z',
      '2023-12-31T23:59:59.999Z',
      'a\u0000b',
      'a\u0000',
      '\u0000',
    ),
    fc.string({ maxLength: 4 }),
  );
  fc.assert(
    fc.property(
      fc.array(value, { maxLength: 40, size: 'max' }),
      fc.boolean(),
      fc.constantFrom(1, 1000),
      fc.string({ maxLength: 3 }),
      (values, normalized, mapped, bound) => {
        const d = new Dictionary(mapped);
        const ids = values.map((v) => d.intern(v));
        const r = ranksOf(d, normalized ? 'normalized' : 'raw');
        const key = (id: number) => (normalized ? normalize(d.value(id)) : d.value(id));
        for (const a of [0, ...ids]) {
          for (const b of [0, ...ids]) {
            const va = d.value(a),
              vb = d.value(b);
            if (va === '' || vb === '') {
              assert.equal(r.rank[a] === r.missing, va === '');
              continue;
            }
            const want = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
            assert.equal(
              Math.sign(r.rank[a] - r.rank[b]),
              want,
              `${JSON.stringify(va)} vs ${JSON.stringify(vb)}`,
            );
          }
        }
        if (!normalized) {
          const present = [...new Set(values.filter((v) => v !== ''))].sort();
          const first = present.find((v) => !(v < bound));
          const got = rankBound(d, r, (v) => v < bound);
          assert.equal(
            got,
            first === undefined ? r.missing : r.rank[ids[values.indexOf(first)]],
            `bound ${JSON.stringify(bound)}`,
          );
        }
      },
    ),
    { numRuns: 300 },
  );
});
