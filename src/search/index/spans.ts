/**
 * Token spans: where each contact token lies in its field (field, list item, start, length, kind),
 * kept by the build per ordinal so that highlighting an answer reads them instead of re-tokenising
 * the contact's fields (issue 22: that re-tokenising, nicknames and transliterations included, was a
 * fifth of a type-ahead request's time). One Uint32 per token (a token is what an Entry is: a
 * variant spelling is its word's token and has no span of its own), a contact's tokens in entry
 * order, `spanOff[o]..spanOff[o + 1]` for ordinal o.
 *
 * Packing: start 10 bits, length 10, field 5 (index in the schema's FIELDS), kind 2, item 5. A token
 * that does not fit (a value past 1,023 characters, a list item past 31) is NO_SPAN, and its contact's
 * highlight falls back to tokenising it (contact-tokens.ts contactEntries): rare by construction.
 */
import { FIELDS } from '../../fields/schema.ts';
import type { Entry, EntryKind } from '../contact-tokens.ts';
import { grown } from '../table/growable.ts';

/** What a highlight reads of a matched token. */
export type Span = Pick<Entry, 'kind' | 'field' | 'item' | 'start' | 'length'>;

export const NO_SPAN = 0xffffffff;

const KINDS: readonly Exclude<EntryKind, 'variant'>[] = ['word', 'email', 'phone', 'part'];
const KIND_CODE = new Map<string, number>(KINDS.map((k, i) => [k, i]));
const FIELD_CODE = new Map<string, number>(FIELDS.map((f, i) => [f.name, i]));
/** List fields (Emails, Phones, Tags): their tokens carry an item; the others' item is undefined. */
const LISTED = FIELDS.map((f) => f.type === 'List');

export function packSpan(
  kind: EntryKind,
  field: string,
  item: number | undefined,
  start: number,
  length: number,
): number {
  const f = FIELD_CODE.get(field),
    k = KIND_CODE.get(kind),
    it = item ?? 0;
  if (f === undefined || k === undefined || f > 30 || start > 1023 || length > 1023 || it > 31)
    return NO_SPAN;
  return (start | (length << 10) | (f << 20) | (k << 25) | (it << 27)) >>> 0;
}

export function unpackSpan(v: number): Span {
  const f = (v >>> 20) & 31;
  return {
    kind: KINDS[(v >>> 25) & 3],
    field: FIELDS[f].name,
    item: LISTED[f] ? v >>> 27 : undefined,
    start: v & 1023,
    length: (v >>> 10) & 1023,
  };
}

/** The spans of loaded rows, row by row (the loader's sink feeds `add`; `endRow` closes a row). */
export class SpanLoader {
  off = new Uint32Array(1024);
  spans = new Uint32Array(1 << 16);
  rows = 0;
  n = 0;

  add(
    kind: EntryKind,
    field: string,
    item: number | undefined,
    start: number,
    length: number,
  ): void {
    if (this.n === this.spans.length) this.spans = grown(this.spans, this.n + 1);
    this.spans[this.n++] = packSpan(kind, field, item, start, length);
  }

  endRow(): void {
    if (this.rows + 2 > this.off.length) this.off = grown(this.off, this.rows + 2);
    this.off[++this.rows] = this.n;
  }

  /** The spans of rows `order` (ordinal o is loaded row order[o]), as the base keeps them. */
  permuted(order: Uint32Array): { spanOff: Uint32Array; spans: Uint32Array } {
    const n = order.length;
    const spanOff = new Uint32Array(n + 1);
    for (let o = 0; o < n; o++)
      spanOff[o + 1] = spanOff[o] + this.off[order[o] + 1] - this.off[order[o]];
    const spans = new Uint32Array(spanOff[n]);
    for (let o = 0; o < n; o++)
      spans.set(this.spans.subarray(this.off[order[o]], this.off[order[o] + 1]), spanOff[o]);
    return { spanOff, spans };
  }
}
