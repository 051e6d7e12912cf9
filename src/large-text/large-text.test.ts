import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeBody } from '../http/body-charset.ts';
import { FileProblem, type ParsedRow } from '../io/csv.ts';
import { rowsOfText, type LayoutHolder } from '../io/import-file.ts';
import { describeRole } from '../io/columns.ts';
import { validateContact } from '../fields/validate.ts';
import { LARGE_TEXT } from '../next-turn.ts';
import { LargeText, LargeTextError, largeTextCounts } from './large-text.ts';
import { getPriority } from 'node:os';
import { BACKGROUND_NICE } from '../nicer.mjs';
import { niceByThread, niceOfNewThreads } from '../../test/support/thread-nice.ts';

/** A text of this thread handed to the worker as a request body's bytes are. */
const held = (s: string) => LargeText.fromBytes(undefined, [Buffer.from(s)]);

/** A CSV over LARGE_TEXT characters, with characters of 1–4 UTF-8 bytes. */
const CSV = [
  'ContactId,First Name,Last Name,E-mail Address',
  ...Array.from({ length: 30_000 }, (_, i) => `c${i},Zoë ${i},Ångström 東京 𠜎,c${i}@example.com`),
].join('\r\n');

async function all(rows: AsyncIterable<ParsedRow[]>): Promise<ParsedRow[][]> {
  const out: ParsedRow[][] = [];
  for await (const s of rows) out.push(s);
  return out;
}

// First: the worker starts with this file's first large text.
test('the worker runs BACKGROUND_NICE nicer than the thread that answers searches (Linux: per thread)', async () => {
  const before = niceByThread();
  const text = await held('{"a":1}');
  const want = String(Math.min(19, getPriority() + BACKGROUND_NICE));
  assert.ok(niceOfNewThreads(before).includes(want), `a new thread at nice ${want}`);
  assert.equal(niceByThread().values().next().value, String(getPriority()));
  text.release();
});

test('a large JSON text parses on the worker to what JSON.parse gives, its large member held there', async () => {
  assert.ok(CSV.length > LARGE_TEXT);
  const value = { Request: 'ImportContacts', Format: 'CSV', Content: CSV, Nested: { a: [1, 'x'] } };
  const text = await held(JSON.stringify(value));
  assert.equal(text.length, JSON.stringify(value).length);
  const parsed = (await text.json()) as Record<string, unknown>;
  text.release();
  const content = parsed.Content;
  assert.ok(content instanceof LargeText, 'Content stays on the worker');
  assert.equal(content.length, CSV.length);
  assert.deepEqual({ ...parsed, Content: CSV }, value);
  assert.ok((await content.text()) === CSV, 'brought here, the same text');
  assert.equal(largeTextCounts().held, 1);
  content.release();
  assert.equal(largeTextCounts().held, 0, 'released');
  // A large string as the whole value.
  const alone = await held(JSON.stringify(CSV));
  const v = await alone.json();
  alone.release();
  assert.ok(v instanceof LargeText && (await v.text()) === CSV);
  v.release();
});

test('a large text that is not JSON: LargeTextError json, with the message JSON.parse gives', async () => {
  const bad = `{"Content":${JSON.stringify(CSV)},}`;
  let expected = '';
  try {
    JSON.parse(bad);
  } catch (e) {
    expected = (e as Error).message;
  }
  const text = await held(bad);
  await assert.rejects(
    text.json(),
    (e: unknown) => e instanceof LargeTextError && e.kind === 'json' && e.message === expected,
  );
  text.release();
});

test('request bytes are decoded there as decodeBody decodes them here (BOMs, charsets)', async () => {
  for (const [type, bytes] of [
    ['application/json', Buffer.from(CSV)],
    ['application/json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CSV, 'utf16le')])],
    ['application/json; charset=utf-16le', Buffer.from(CSV, 'utf16le')],
  ] as const) {
    const chunks = [bytes.subarray(0, 1001), bytes.subarray(1001, 70_001), bytes.subarray(70_001)];
    const text = await LargeText.fromBytes(type, chunks);
    assert.ok((await text.text()) === decodeBody(type, bytes), type);
    text.release();
  }
});

test('rows read there are the rows rowsOfText reads here, with the layout; base64 and unreadable files as here', async () => {
  const mapping: LayoutHolder = {};
  const here = await all(rowsOfText('CSV', CSV, undefined, mapping));
  assert.equal(here.flat().length, 30_000);
  for (const [content, base64] of [
    [CSV, false],
    [Buffer.from(CSV).toString('base64'), true],
  ] as const) {
    const text = await held(content);
    const layout: LayoutHolder = {};
    assert.deepEqual(await all(text.rows('CSV', base64, layout)), here);
    assert.deepEqual(
      layout.value?.roles.map(describeRole),
      mapping.value!.roles.map(describeRole),
      'the layout (DryRun mapping)',
    );
    text.release();
  }
  const notBase64 = await held(`${CSV}!`);
  await assert.rejects(
    all(notBase64.rows('CSV', true)),
    (e: unknown) => e instanceof LargeTextError && e.kind === 'base64',
  );
  const unreadable = await held(`x,y\r\n${CSV}`);
  await assert.rejects(all(unreadable.rows('CSV', false)), FileProblem);
  notBase64.release();
  unreadable.release();
  assert.equal(largeTextCounts().held, 0);
});

test("with the import's time, each row comes validated there as validateContact validates it here, its record not sent", async () => {
  const now = '2026-12-01T12:00:00.000Z';
  const withBad = `${CSV}\r\n,No Id,Here,not-an-email\r\nc1,Again,Twice,x@example.com`;
  const here = (await all(rowsOfText('CSV', withBad))).flat();
  const text = await held(withBad);
  const there = (await all(text.rows('CSV', false, undefined, now))).flat();
  text.release();
  assert.equal(there.length, here.length);
  let problems = 0;
  there.forEach((row, i) => {
    const mine = here[i];
    assert.equal(row.line, mine.line);
    if (mine.error || !mine.record) return assert.deepEqual(row, mine, 'a row in error as it is');
    assert.equal(row.record, undefined, `line ${row.line}: the record is not sent`);
    assert.deepEqual(row.checked, validateContact(mine.record, now), `line ${row.line}`);
    problems += row.checked!.problems.length;
  });
  assert.ok(problems > 0, 'a row with problems is checked there too');
  assert.equal(
    there.at(-1)!.checked!.contact!.CreatedAt,
    now,
    "new contacts get the import's time",
  );
});
