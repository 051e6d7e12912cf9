/**
 * An index image: a built index (build.ts `Built`: the base segment, the contact table, the id hash,
 * and the ranks the build made) as a small JSON-able header plus a list of typed arrays, with no
 * object per contact, term or value. So a worker thread can hand a build over with zero copies (the
 * arrays' buffers in a transfer list: `transferList`), and a file can hold one (image-file.ts).
 * Dictionaries of strings travel as one UTF-8 blob and the end of each value; the terms as their
 * front-coded bytes (terms.ts).
 */
import { FIELDS } from '../../fields/schema.ts';
import { bitsFor } from '../bits.ts';
import { ContactTable, type Ids } from '../table/contact-table.ts';
import { Dictionary } from '../table/dictionary.ts';
import { type Typed } from '../table/growable.ts';
import { Lengths, type LengthParts } from '../table/lengths.ts';
import { keepRanks, madeRanks, type RankOrder } from '../table/ranks.ts';
import type { Base } from './base.ts';
import { Terms } from './terms.ts';
import type { Built } from './build.ts';
import { idHashOf } from './loader.ts';

/** Bumped whenever the image's layout changes (2: front-coded terms; 3: column ids as narrow as they fit; 4: timestamps as numbers; 5: a gap per class without offsets; 6: token spans; 7: token spans as byte codes, email domains kept once, buffered values' lengths in bytes; 8: an entry's class in its term id's top bits, postings in 3 bytes, positions and sources as 2-bit steps; 9: postings back to 4 bytes). */
export const IMAGE_FORMAT = 9;

interface RanksHeader {
  order: RankOrder;
  rank: number;
  sorted: number;
  first: number;
  size: number;
  missing: number;
}

/** A Lengths (table/lengths.ts): its two arrays' places and its long lengths. */
interface LengthsHeader {
  rel: number;
  marks: number;
  wide: [number, number[]][];
  total: number;
}

interface ColumnHeader {
  field: string;
  ids: number;
  offs?: number;
  mapped: boolean;
  bytes: number;
  ends: number;
  lengths?: LengthsHeader;
  times?: number;
  /** An email column's domains (Dictionary's tails), kept once. */
  tails?: string[];
  ranks: RanksHeader[];
}

/** Scalars and the places of the arrays (indices into `IndexImage.arrays`). */
export interface ImageHeader {
  format: number;
  n: number;
  T: number;
  rows: number;
  posCapped: boolean;
  base: Record<
    Exclude<keyof Base, 'n' | 'T' | 'heads' | 'terms' | 'postOff' | 'spanOff' | 'posCapped'>,
    number
  >;
  postOff: LengthsHeader;
  spanOff: LengthsHeader;
  terms: { bytes: number; blocks: number };
  heads: { keys: string[]; ends: number[]; all: number };
  columns: ColumnHeader[];
  idHash: { slots: number; hashes: number; used: number; filled: number };
}

export interface IndexImage {
  header: ImageHeader;
  arrays: Typed[];
  /**
   * Per array, elements of room to leave after it in a file (image-file.ts): a table column's,
   * for the writes after an open (roomAfter). Absent or 0: none.
   */
  room?: number[];
}

/**
 * The room a snapshot leaves after each array a write appends to (column ids and offsets, a
 * dictionary's bytes, lengths and instants): an eighth of it and a little more, so that 12% more
 * contacts (a 100,000-row import into 1M) can be written after an open before any array is copied.
 * It costs no disk (a hole in the file) and no memory until written: only address space.
 */
const roomAfter = (length: number) => Math.ceil(length / 8) + 64;

/** `a` in a buffer of its own (a transfer moves whole buffers; Node's small Buffers share a pool). */
function own<A extends Typed>(a: A): A {
  if (!Buffer.isBuffer(a) && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength) return a;
  const Type = (Buffer.isBuffer(a) ? Uint8Array : a.constructor) as new (n: number) => A;
  const b = new Type(a.length);
  b.set(a);
  return b;
}

/**
 * The image of a build (`built` must hold no delta: rows === base.n). `roomy`: with room after the
 * table's arrays (a snapshot's; a segment's table is only ever copied into another).
 */
export function imageOf(built: Built, roomy = false): IndexImage {
  const arrays: Typed[] = [];
  const room: number[] = [];
  const put = (a: Typed, grows = false) => {
    room.push(grows && roomy ? roomAfter(a.length) : 0);
    return arrays.push(own(a)) - 1;
  };
  const putLengths = (l: LengthParts, grows = false): LengthsHeader => ({
    rel: put(l.rel, grows),
    marks: put(l.marks, grows),
    wide: l.wide,
    total: l.total,
  });
  const b = built.base;
  const heads = [...b.heads];
  const ends: number[] = [];
  let total = 0;
  for (const [, h] of heads) ends.push((total += h.length));
  const all = new Uint32Array(total);
  heads.forEach(([, h], i) => all.set(h, i === 0 ? 0 : ends[i - 1]));
  const header: ImageHeader = {
    format: IMAGE_FORMAT,
    n: b.n,
    T: b.T,
    rows: built.table.rows,
    posCapped: b.posCapped,
    terms: (() => {
      const t = b.terms.parts();
      return { bytes: put(t.bytes), blocks: put(t.blocks) };
    })(),
    base: {
      cLo: put(b.cLo),
      cHi: put(b.cHi),
      cBase: put(b.cBase),
      cGapLo: put(b.cGapLo),
      cGapHi: put(b.cGapHi),
      post: put(b.post),
      entOff: put(b.entOff),
      entTerm: put(b.entTerm),
      entSteps: put(b.entSteps),
      spans: put(b.spans),
    },
    postOff: putLengths(b.postOff.parts()),
    spanOff: putLengths(b.spanOff.parts()),
    heads: { keys: heads.map(([k]) => k), ends, all: put(all) },
    columns: built.table.columns.map((col) => {
      col.trim();
      const d = col.dict.parts();
      const ranks = Object.entries(madeRanks(col.dict)).map(([order, r]) => ({
        order: order as RankOrder,
        rank: put(r.rank),
        sorted: put(r.sorted),
        first: r.first,
        size: r.size,
        missing: r.missing,
      }));
      return {
        field: col.field.name,
        ids: put(col.ids.a.subarray(0, col.ids.n), true),
        offs: col.offs ? put(col.offs.a.subarray(0, col.offs.n), true) : undefined,
        mapped: d.mapped,
        bytes: put(d.bytes, !d.mapped), // a deduplicated dictionary's values are strings once read
        ends: put(d.ends),
        lengths: d.lengths && putLengths(d.lengths, true),
        times: d.times ? put(d.times, true) : undefined,
        tails: d.tails,
        ranks,
      };
    }),
    idHash: (() => {
      const p = built.byId.parts();
      return { slots: put(p.slots), hashes: put(p.hashes), used: p.used, filled: p.filled };
    })(),
  };
  return { header, arrays, room };
}

/** The buffers to transfer with `image` (each once). */
export function transferList(image: IndexImage): ArrayBuffer[] {
  // Holes (image-file.ts checkImageFile: arrays the main thread maps) have nothing to transfer.
  return [...new Set(image.arrays.filter((a) => a).map((a) => a.buffer as ArrayBuffer))];
}

/** The build an image holds; its arrays are used in place. Throws when the image does not fit this code. */
export function builtFromImage(image: IndexImage): Built {
  let built: Built | undefined;
  for (const _ of builtFromImageSteps(image, (b) => (built = b)));
  return built!;
}

/**
 * builtFromImage as steps (a generator: the caller may let the event loop through between them; a
 * segment's image is read on the main thread, index/segment.ts): a dictionary of strings a step.
 */
export function* builtFromImageSteps(
  { header: h, arrays }: IndexImage,
  done: (built: Built) => void,
): Generator<void> {
  if (h.format !== IMAGE_FORMAT)
    throw new Error(`index image format ${h.format}, not ${IMAGE_FORMAT}`);
  if (h.columns.length !== FIELDS.length || h.columns.some((c, i) => c.field !== FIELDS[i].name))
    throw new Error('index image columns differ from the field schema');
  const u32 = (i: number) => arrays[i] as Uint32Array<ArrayBuffer>;
  const u8 = (i: number) => arrays[i] as Uint8Array<ArrayBuffer>;
  const lengthsOf = (l: LengthsHeader): LengthParts => ({
    rel: arrays[l.rel] as Uint16Array,
    marks: u32(l.marks),
    wide: l.wide,
    total: l.total,
  });
  const dicts: Dictionary[] = [];
  for (const c of h.columns) {
    dicts.push(
      Dictionary.fromParts({
        mapped: c.mapped,
        bytes: u8(c.bytes),
        ends: u32(c.ends),
        lengths: c.lengths && lengthsOf(c.lengths),
        times: c.times === undefined ? undefined : (arrays[c.times] as Float64Array),
        tails: c.tails,
      }),
    );
    if (c.mapped) yield;
  }
  const table = new ContactTable(dicts);
  h.columns.forEach((c, k) => {
    const col = table.columns[k];
    col.ids.a = arrays[c.ids] as Ids;
    col.ids.n = col.ids.a.length;
    if (col.offs && c.offs !== undefined) {
      col.offs.a = arrays[c.offs] as Ids;
      col.offs.n = col.offs.a.length;
    }
    for (const r of c.ranks)
      keepRanks(col.dict, r.order, {
        rank: u32(r.rank),
        sorted: u32(r.sorted),
        first: r.first,
        size: r.size,
        missing: r.missing,
      });
  });
  table.rows = h.rows;
  const byId = idHashOf(table).restore({
    slots: arrays[h.idHash.slots] as Int32Array,
    hashes: u32(h.idHash.hashes),
    used: h.idHash.used,
    filled: h.idHash.filled,
  });
  const n = h.n;
  const alive = bitsFor(n).fill(0xffffffff);
  if (n & 31) alive[alive.length - 1] = (1 << (n & 31)) - 1;
  const heads = new Map<string, Uint32Array>();
  const all = u32(h.heads.all);
  h.heads.keys.forEach((k, i) =>
    heads.set(k, all.subarray(i === 0 ? 0 : h.heads.ends[i - 1], h.heads.ends[i])),
  );
  yield; // the table's columns above, the base's arrays below: each step stays a few ms
  const a = h.base;
  const base: Base = {
    n,
    T: h.T,
    terms: Terms.fromParts({ T: h.T, bytes: u8(h.terms.bytes), blocks: u32(h.terms.blocks) }),
    cLo: u32(a.cLo),
    cHi: u32(a.cHi),
    cBase: u32(a.cBase),
    cGapLo: u32(a.cGapLo),
    cGapHi: u32(a.cGapHi),
    postOff: Lengths.fromParts(lengthsOf(h.postOff)),
    post: u32(a.post),
    heads,
    entOff: u32(a.entOff),
    entTerm: u32(a.entTerm),
    entSteps: u8(a.entSteps),
    posCapped: h.posCapped,
    spanOff: Lengths.fromParts(lengthsOf(h.spanOff)),
    spans: u8(a.spans),
  };
  done({ table, alive, byId, base });
}
