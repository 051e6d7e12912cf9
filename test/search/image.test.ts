/**
 * Index images (src/search/index/image.ts). Checked:
 * 1. An index swapped in from its own image answers a fixed set of queries (prefixes, whole words,
 *    typos, several tokens, emails, phone digits and suffixes, filters, facets, sorts, pages, the
 *    predictive options) exactly as the index it was taken from, and holds the same contacts.
 * 2. The same with every column's dictionary past its string mode (values read from the blob).
 * 3. An index with writes since its build has no image; a write after swapping one in is searchable.
 * 4. Through bytes (image-file.ts): the same answers from an image read back, its meta kept; a
 *    flipped byte anywhere, a cut at any point or a foreign preamble is refused as BadImage; each
 *    array's place read from the header alone (imagePlaces) is where it was written.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateContacts } from '../../src/demo/generate.ts';
import type { Contact } from '../../src/fields/contact.ts';
import {
  BadImage,
  imageBuffer,
  imageOffsets,
  imageMeta,
  imagePlaces,
  readImage,
  readImageFile,
} from '../../src/search/index/image-file.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TABLE_TUNING } from '../../src/search/table/dictionary.ts';
import { wordTokens } from '../../src/search/tokenize.ts';
import { fixture, PEOPLE, type Fixture } from '../support/fixture.ts';
import { contact } from '../cases/store.case.ts';

const CONTACTS: Contact[] = [...PEOPLE, ...[...generateContacts({ count: 600, seed: 11 })].flat()];

/** Queries drawn from the data: every 7th contact's words cut to 1–4 characters, whole, with a typo, paired. */
function queries(contacts: readonly Contact[]): object[] {
  const out: object[] = [{}, { Query: 'a' }, { Query: '+4' }, { Query: '030 12' }];
  for (let i = 0; i < contacts.length; i += 7) {
    const c = contacts[i];
    const words = [c.FirstName, c.LastName, c.City, c.Organization]
      .filter(Boolean)
      .map((s) => wordTokens(s!)[0]?.term)
      .filter((w): w is string => !!w);
    for (const w of words.slice(0, 2)) {
      out.push({ Query: w.slice(0, 1 + (i % 4)) }, { Query: w });
      if (w.length >= 5) out.push({ Query: w.slice(0, 2) + w[3] + w[2] + w.slice(4) }); // a transposition
    }
    if (words.length >= 2) out.push({ Query: `${words[1].slice(0, 3)} ${words[0].slice(0, 2)}` });
    if (c.Emails[0]) out.push({ Query: c.Emails[0].slice(0, 6) }, { Query: c.Emails[0] });
    const digits = c.Phones[0]?.replace(/\D/g, '') ?? '';
    if (digits.length > 6)
      out.push({ Query: digits.slice(-4) }, { Query: `+${digits.slice(0, 5)}` });
    const q = words[0]?.slice(0, 1);
    out.push(
      { Query: q, Facets: ['City', 'Country', 'Tags'], PageSize: 5 },
      { Query: q, Filters: [{ Field: 'Country', Op: 'Ne', Values: [c.Country ?? 'US'] }] },
      { Query: q, Sort: [{ Field: 'City', Dir: 'Desc' }], PageSize: 7, Page: 2 },
      { Query: q, Filters: [{ Field: 'Tags', Op: 'Eq', Values: [c.Tags[0] ?? 'customer'] }] },
    );
  }
  return out;
}

async function answers(f: Fixture, qs: object[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const q of qs) out.push(await f.call('GetSearchResults', { PageSize: 40, ...q }));
  for (const Text of ['b', 'st', 'jo'])
    for (const Field of ['City', 'Organization', 'LastName'])
      out.push(await f.call('GetPredictiveOptions', { Field, Text }));
  return out;
}

async function roundTrip(viaBytes = false): Promise<void> {
  const f = await fixture(CONTACTS);
  try {
    const index = f.db.index;
    index.build(index.all()); // the fixture's writes sit in the delta: make them the base
    const qs = queries(CONTACTS);
    const before = await answers(f, qs);
    const stored = CONTACTS.map((c) => index.get(c.ContactId));
    const image = index.image();
    assert.ok(image);
    if (viaBytes) {
      const bytes = imageBuffer(image, { seq: 42 });
      const back = readImage<{ seq: number }>(bytes);
      assert.deepEqual(back.meta, { seq: 42 });
      index.swapInImage(back.image);
    } else index.swapInImage(image);
    assert.deepEqual(await answers(f, qs), before);
    assert.equal(index.size, CONTACTS.length);
    assert.deepEqual(
      CONTACTS.map((c) => index.get(c.ContactId)),
      stored,
    );
  } finally {
    await f.close();
  }
}

test('1. an index from its image answers as the original', () => roundTrip());

test('2. the same with dictionaries read from their blobs', async () => {
  const was = TABLE_TUNING.mappedMax;
  TABLE_TUNING.mappedMax = 4;
  try {
    await roundTrip();
  } finally {
    TABLE_TUNING.mappedMax = was;
  }
});

test('3. no image with a delta; writes after a swap are searchable', async () => {
  const f = await fixture(CONTACTS.slice(0, 50));
  try {
    const index = f.db.index;
    assert.equal(index.image(), undefined); // the fixture's writes are a delta
    index.build(index.all());
    index.swapInImage(index.image()!);
    await f.db.write({
      upsert: [contact('new1', 'Quentin', 'Zyxwvut', { City: 'Quito' })],
      delete: [CONTACTS[0].ContactId],
    });
    assert.deepEqual(await f.ids({ Query: 'zyxw' }), ['new1']);
    assert.equal(index.get(CONTACTS[0].ContactId), undefined);
    assert.equal(index.size, 50);
  } finally {
    await f.close();
  }
});

test('3b. writes after an image is read land in the room it left: no column or dictionary copied', async () => {
  const was = TABLE_TUNING.mappedMax;
  TABLE_TUNING.mappedMax = 4; // buffered dictionaries, as a large database's unique columns are
  const f = await fixture(CONTACTS.slice(0, 120));
  try {
    const index = f.db.index;
    index.build(index.all());
    const image = index.image()!;
    assert.ok(
      image.room!.some((r) => r > 0),
      'a snapshot image leaves room',
    );
    index.swapInImage(readImage(imageBuffer(image, {})).image);
    const cols = index.table.columns;
    const held = cols.map((c) => [c.ids.a.buffer, c.offs?.a.buffer]);
    const dictBytes = cols.map((c) => c.dict.approximateBytes());
    await f.db.write({
      upsert: [
        contact('new1', 'Quentin', 'Zyxwvut', { City: 'Quito', Emails: ['q@zyx.example'] }),
        contact('new2', 'Ysolde', 'Ampleforth', { Phones: ['+44 20 7946 0000'] }),
      ],
    });
    assert.deepEqual(await f.ids({ Query: 'zyxw' }), ['new1']);
    assert.deepEqual(await f.ids({ Query: 'amplef' }), ['new2']);
    assert.equal(index.get('new1')?.Emails[0], 'q@zyx.example');
    cols.forEach((c, k) => {
      const name = c.field.name;
      assert.equal(c.ids.a.buffer, held[k][0], `${name}'s ids copied`);
      assert.equal(c.offs?.a.buffer, held[k][1], `${name}'s offsets copied`);
      // Copied, a dictionary's buffer would grow by half (64 KB at least); in its room, by an eighth.
      assert.ok(
        c.dict.approximateBytes() <= dictBytes[k] * 1.2 + 1024,
        `${name}'s dictionary from ${dictBytes[k]} to ${c.dict.approximateBytes()} bytes`,
      );
    });
  } finally {
    TABLE_TUNING.mappedMax = was;
    await f.close();
  }
});

test('4. an image through bytes answers as the original; damage is refused', async () => {
  await roundTrip(true);
  const f = await fixture(CONTACTS.slice(0, 80));
  try {
    f.db.index.build(f.db.index.all());
    const image = f.db.index.image()!;
    const bytes = imageBuffer(image, { v: 1 });
    assert.deepEqual(imageMeta(bytes), { v: 1 });
    const refused = (b: Buffer) => assert.throws(() => readImage(b), BadImage);
    // The arrays' rooms (zeros a write fills before anything reads them) are outside the CRC.
    const starts = imageOffsets(image, { v: 1 });
    const inRoom = (at: number) =>
      image.arrays.some((a, i) => {
        const end = starts[i] + a.byteLength + ((8 - (a.byteLength % 8)) % 8);
        return at >= end && at < (starts[i + 1] ?? bytes.length);
      });
    const original = readImage(bytes).image.arrays;
    let checked = 0,
      rooms = 0;
    for (let at = 0; at < bytes.length; at += Math.max(1, Math.floor(bytes.length / 197))) {
      const flipped = Buffer.from(bytes);
      flipped[at] ^= 0x20;
      if (inRoom(at)) {
        assert.deepEqual(readImage(flipped).image.arrays, original);
        rooms++;
      } else {
        refused(flipped);
        checked++;
      }
      refused(bytes.subarray(0, at));
    }
    assert.ok(checked > 100 && rooms > 0, `${checked} checked bytes, ${rooms} in rooms`);
    refused(Buffer.concat([bytes, Buffer.alloc(8)]));
    refused(Buffer.from('not an image at all'));
    // From a file, array by array: the same image; a flipped byte or a cut file refused.
    const dir = mkdtempSync(join(tmpdir(), 'image-file-'));
    try {
      const file = join(dir, 'x.index');
      writeFileSync(file, bytes);
      // Where each array lies, read from the header alone (bench:image-residency's map of it).
      const places = imagePlaces(file);
      assert.deepEqual(places.header, readImage(bytes).image.header);
      assert.deepEqual(
        places.places,
        image.arrays.map((a, i) => ({ offset: starts[i], bytes: a.byteLength })),
      );
      const back = readImageFile<{ v: number }>(file);
      assert.deepEqual(back.meta, { v: 1 });
      assert.deepEqual(back.image, readImage(bytes).image);
      const flipped = Buffer.from(bytes);
      flipped[bytes.length - 3] ^= 1;
      writeFileSync(file, flipped);
      assert.throws(() => readImageFile(file), BadImage);
      writeFileSync(file, bytes.subarray(0, bytes.length - 8));
      assert.throws(() => readImageFile(file), BadImage);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await f.close();
  }
});
