/**
 * The streaming CSV reader. Properties checked:
 * 1. Each row reports the line it starts on, across empty lines, quoted line breaks and CRLF.
 * 2. Rows come in slices of ROW_SLICE, in file order, whether the input is one string or read chunks.
 * 3. Read chunks may split a UTF-8 character; the values come out whole.
 * 4. A file that turns out unreadable after some slices throws FileProblem; an empty file or one
 *    without a known column throws FileProblem before any row.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ROW_SLICE as SLICE } from '../next-turn.ts';
import { csvRows, FileProblem, type ParsedRow } from './csv.ts';

async function slices(input: Parameters<typeof csvRows>[0]): Promise<ParsedRow[][]> {
  const out: ParsedRow[][] = [];
  for await (const s of csvRows(input)) out.push(s);
  return out;
}

test('1. each row reports the line it starts on', async () => {
  const text =
    'First Name;Last Name;Notes\r\nAnn;Lee;one\r\n\r\nBob;Ray;"two\r\nlines"\r\nCy;Ode\r\n\r\n\r\nDi;Kay;x';
  const [rows] = await slices(text);
  assert.deepEqual(
    rows.map((r) => [r.line, r.record?.FirstName ?? r.error]),
    [
      [2, 'Ann'],
      [4, 'Bob'],
      [6, 'has 2 cells where the header has 3'],
      [9, 'Di'],
    ],
  );
  assert.equal(rows[1].record!.Notes, 'two\r\nlines');
});

async function* chunked(bytes: Buffer, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

test('2–3. slices of SLICE rows in order, from a string or from chunks that split characters', async () => {
  const n = SLICE * 2 + 7;
  const text = [
    'ContactId,First Name',
    ...Array.from({ length: n }, (_, i) => `c${i},Zoë-Ångström-${i}`),
  ].join('\n');
  for (const input of [text, chunked(Buffer.from(text), 4093)]) {
    const got = await slices(input);
    assert.deepEqual(
      got.map((s) => s.length),
      [SLICE, SLICE, 7],
    );
    const rows = got.flat();
    assert.deepEqual(
      rows.map((r) => r.line),
      Array.from({ length: n }, (_, i) => i + 2),
    );
    assert.ok(rows.every((r, i) => r.record!.FirstName === `Zoë-Ångström-${i}`));
  }
});

test('3b. a text over a parse chunk keeps a character outside the BMP that falls on a chunk boundary', async () => {
  // Rows of 10 code units, 𠜎 two of them: over ten shifts, one puts its first half at a chunk's end.
  const rows = Array.from({ length: 8_000 }, (_, i) => `c${String(i).padStart(4, '0')},𠜎a`);
  for (let shift = 0; shift < 10; shift++) {
    const text = ['ContactId,First Name', `s${'0'.repeat(shift)},first`, ...rows].join('\n');
    const got = (await slices(text)).flat().slice(1);
    assert.equal(got.length, rows.length);
    const bad = got.find((r) => r.record!.FirstName !== '𠜎a');
    assert.equal(bad?.record?.FirstName, undefined, `shift ${shift}: line ${bad?.line}`);
  }
});

test('4. unreadable, empty and unknown-column files throw FileProblem', async () => {
  // Rows of some length: a file of a few KiB is parsed in one go, its error found before any slice is handed out.
  const good = Array.from({ length: SLICE + 1 }, (_, i) => `c${i},Ann${'n'.repeat(i % 50)}`);
  const read: number[] = [];
  await assert.rejects(
    async () => {
      for await (const s of csvRows(['ContactId,First Name', ...good, 'c-x,"unclosed'].join('\n')))
        read.push(s.length);
    },
    (e) => e instanceof FileProblem && /cannot be read/.test(e.message),
  );
  assert.deepEqual(read, [SLICE], 'the first slice came before the problem was found');
  await assert.rejects(slices(''), (e) => e instanceof FileProblem && /empty/.test(e.message));
  await assert.rejects(
    slices('Foo,Bar\n1,2\n'),
    (e) => e instanceof FileProblem && /no column/.test(e.message),
  );
});
