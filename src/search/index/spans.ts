/**
 * Token spans: where each contact token lies in its field (field, list item, start, length, kind),
 * kept by the build per ordinal so that highlighting an answer reads them instead of re-tokenising
 * the contact's fields (issue 22: that re-tokenising, nicknames and transliterations included, was a
 * fifth of a type-ahead request's time). A token is what an Entry is: a variant spelling is its
 * word's token and has no span of its own. Ordinal o's tokens, in entry order, are the bytes
 * `spans[spanOff.start(o) ..]`, `spanOff.length(o)` of them (table/lengths.ts).
 *
 * Layout: a byte code per token, and a byte (and a list item) whenever the field, list item or
 * kind changes (a contact's tokens come field by field, item by item). One Uint32 a token was
 * ~104 MB at 1M contacts; this is under half (docs/perf-log/2026-11-26-memory2.md): most tokens
 * are a word a short gap after the previous one in the same field, an email address starts its
 * run, a phone's second variant has the same span as its first: one byte each. Reading token k
 * decodes the contact's tokens before it (a few dozen at most, for the few answers shown). Any
 * start, length and item fits (varints): no token is without a span.
 *
 *   0x00–0x3f  a token starting (b >> 4) characters after the previous token's end, (b & 15) + 1 long
 *   SAME       a token with the previous token's start and length
 *   WIDE       a token: varint zigzag(start − previous end), varint length
 *   0x42–0x7f  a token starting at the previous token's end, b − 0x42 + LONG long (an email address)
 *   0x80–0xff  a new run: field | kind << 5 in the low 7 bits, then (list fields only) varint item;
 *              the "previous token" is then none (end 0)
 */
import { FIELDS } from '../../fields/schema.ts';
import type { Entry, EntryKind } from '../contact-tokens.ts';
import { grown } from '../table/growable.ts';
import { Lengths } from '../table/lengths.ts';

/** What a highlight reads of a matched token. */
export type Span = Pick<Entry, 'kind' | 'field' | 'item' | 'start' | 'length'>;

const SAME = 0x40,
  WIDE = 0x41,
  LONG_CODE = 0x42,
  RUN = 0x80;
/** The shortest length coded by LONG_CODE and up (the short codes hold 1–16). */
const LONG = 17;

const KINDS: readonly Exclude<EntryKind, 'variant'>[] = ['word', 'email', 'phone', 'part'];
const KIND_CODE = new Map<string, number>(KINDS.map((k, i) => [k, i]));
const FIELD_CODE = new Map<string, number>(FIELDS.map((f, i) => [f.name, i]));
/** List fields (Emails, Phones, Tags): their tokens carry an item; the others' item is undefined. */
const LISTED = FIELDS.map((f) => f.type === 'List');
if (FIELDS.length > 32) throw new Error('spans.ts: a run header holds a field index of 5 bits');

/** The spans of loaded rows, row by row (the loader's sink feeds `add`; `endRow` closes a row). */
export class SpanLoader {
  off = new Uint32Array(1024);
  bytes = new Uint8Array(1 << 16);
  rows = 0;
  n = 0;
  /** The run being written (-1: none yet in this row) and the previous token of the run. */
  private run = -1;
  private item = -1;
  private start = -1;
  private length = -1;

  add(
    kind: EntryKind,
    field: string,
    item: number | undefined,
    start: number,
    length: number,
  ): void {
    const f = FIELD_CODE.get(field),
      k = KIND_CODE.get(kind);
    if (f === undefined || k === undefined)
      throw new Error(`spans.ts: no span for a ${kind} token of field ${field}`);
    if (this.n + 24 > this.bytes.length) this.bytes = grown(this.bytes, this.n + 24);
    const run = f | (k << 5),
      it = LISTED[f] ? (item ?? 0) : 0;
    if (run !== this.run || it !== this.item) {
      this.bytes[this.n++] = RUN | run;
      if (LISTED[f]) this.varint(it);
      this.run = run;
      this.item = it;
      this.start = this.length = -1;
    }
    const gap = start - (this.start < 0 ? 0 : this.start + this.length);
    if (start === this.start && length === this.length) this.bytes[this.n++] = SAME;
    else if (gap >= 0 && gap < 4 && length >= 1 && length < LONG)
      this.bytes[this.n++] = (gap << 4) | (length - 1);
    else if (gap === 0 && length >= LONG && length - LONG + LONG_CODE < RUN)
      this.bytes[this.n++] = length - LONG + LONG_CODE;
    else {
      this.bytes[this.n++] = WIDE;
      this.varint(gap >= 0 ? gap * 2 : -gap * 2 - 1);
      this.varint(length);
    }
    this.start = start;
    this.length = length;
  }

  endRow(): void {
    if (this.rows + 2 > this.off.length) this.off = grown(this.off, this.rows + 2);
    this.off[++this.rows] = this.n;
    this.run = this.item = -1;
  }

  /** The spans of rows `order` (ordinal o is loaded row order[o]), as the base keeps them. */
  permuted(order: Uint32Array): { spanOff: Lengths; spans: Uint8Array } {
    const { off, bytes } = this;
    const spanOff = new Lengths();
    for (let o = 0; o < order.length; o++) spanOff.push(off[order[o] + 1] - off[order[o]]);
    const spans = new Uint8Array(spanOff.total);
    // Byte by byte: a row's spans are a few dozen bytes, less than a subarray and a copy call cost.
    for (let o = 0, at = 0; o < order.length; o++)
      for (let i = off[order[o]]; i < off[order[o] + 1]; i++) spans[at++] = bytes[i];
    return { spanOff, spans };
  }

  /** Frees the loaded spans (a build calls it once they are permuted). */
  drop(): void {
    this.off = new Uint32Array(0);
    this.bytes = new Uint8Array(0);
    this.rows = this.n = 0;
  }

  private varint(v: number): void {
    while (v >= 0x80) {
      this.bytes[this.n++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.bytes[this.n++] = v;
  }
}

/**
 * The spans of tokens `which` (indices in entry order) among the tokens encoded in
 * `bytes[from .. to)`; a token past the last one encoded is left undefined.
 */
export function decodeSpans(
  bytes: Uint8Array,
  from: number,
  to: number,
  which: readonly number[],
): (Span | undefined)[] {
  const out = new Array<Span | undefined>(which.length).fill(undefined);
  let last = -1;
  for (const k of which) if (k > last) last = k;
  let at = from,
    t = 0,
    f = 0,
    kind = 0,
    item: number | undefined,
    start = 0,
    length = 0;
  while (at < to && t <= last) {
    const b = bytes[at++];
    if (b >= RUN) {
      f = b & 31;
      kind = (b >>> 5) & 3;
      if (LISTED[f]) {
        item = varintAt(bytes, at);
        at = varintEnd;
      } else item = undefined;
      start = length = 0;
      continue;
    }
    if (b < SAME) {
      start += length + (b >>> 4);
      length = (b & 15) + 1;
    } else if (b >= LONG_CODE) {
      start += length;
      length = b - LONG_CODE + LONG;
    } else if (b === WIDE) {
      const z = varintAt(bytes, at);
      start += length + (z & 1 ? -(z + 1) / 2 : z / 2);
      length = varintAt(bytes, varintEnd);
      at = varintEnd;
    } // SAME: as the previous token
    for (let i = 0; i < which.length; i++)
      if (which[i] === t)
        out[i] = { kind: KINDS[kind], field: FIELDS[f].name, item, start, length };
    t++;
  }
  return out;
}

/** Where the varint varintAt last read ends (no closure over the decoder's position: a hot read). */
let varintEnd = 0;

/** The varint at bytes[at] (7 bits a byte, low first); sets varintEnd. */
function varintAt(bytes: Uint8Array, at: number): number {
  let v = 0,
    scale = 1,
    b: number;
  do {
    b = bytes[at++];
    v += (b & 0x7f) * scale;
    scale *= 128;
  } while (b & 0x80);
  varintEnd = at;
  return v;
}
