/**
 * Index images (src/search/index/image.ts). Checked:
 * 1. An index swapped in from its own image answers a fixed set of queries (prefixes, whole words,
 *    typos, several tokens, emails, phone digits and suffixes, filters, facets, sorts, pages, the
 *    predictive options) exactly as the index it was taken from, and holds the same contacts.
 * 2. The same with every column's dictionary past its string mode (values read from the blob).
 * 3. An index with writes since its build has no image; a write after swapping one in is searchable.
 * 4. Through bytes (image-file.ts): the same answers from an image read back, its meta kept; a
 *    flipped byte anywhere, a cut at any point or a foreign preamble is refused as BadImage.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateContacts } from '../../src/demo/generate.ts';
import type { Contact } from '../../src/fields/contact.ts';
import {
  BadImage,
  imageBytes,
  imageMeta,
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
      const bytes = Buffer.concat(imageBytes(image, { seq: 42 }));
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

test('4. an image through bytes answers as the original; damage is refused', async () => {
  await roundTrip(true);
  const f = await fixture(CONTACTS.slice(0, 80));
  try {
    f.db.index.build(f.db.index.all());
    const bytes = Buffer.concat(imageBytes(f.db.index.image()!, { v: 1 }));
    assert.deepEqual(imageMeta(bytes), { v: 1 });
    const refused = (b: Buffer) => assert.throws(() => readImage(b), BadImage);
    for (let at = 0; at < bytes.length; at += Math.max(1, Math.floor(bytes.length / 97))) {
      const flipped = Buffer.from(bytes);
      flipped[at] ^= 0x20;
      refused(flipped);
      refused(bytes.subarray(0, at));
    }
    refused(Buffer.concat([bytes, Buffer.alloc(8)]));
    refused(Buffer.from('not an image at all'));
    // From a file, array by array: the same image; a flipped byte or a cut file refused.
    const dir = mkdtempSync(join(tmpdir(), 'image-file-'));
    try {
      const file = join(dir, 'x.index');
      writeFileSync(file, bytes);
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
