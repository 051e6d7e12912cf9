/**
 * Building the base segment from loaded contacts (loader.ts): ordinals in tie-break order, the
 * forward index in that order, the sorted dictionary, class-major postings and the bucket heads of
 * the prefixes typed first. Design: docs/SEARCH.md "The index".
 */
import { bitsFor, hasBit, setBit } from '../bits.ts';
import { prefixHeads, slotOf } from '../heads.ts';
import { sortedStrings, StringRun } from '../sort-strings.ts';
import type { ContactTable } from '../table/contact-table.ts';
import type { IdHash } from '../table/id-hash.ts';
import { ranksOf } from '../table/ranks.ts';
import { CLASSES, CLS_SHIFT, PHONE_NS, sortKeyOf, TERM_MASK, type Base } from './base.ts';
import { Lengths } from '../table/lengths.ts';
import { idHashOf, type IndexLoader } from './loader.ts';
import { Terms } from './terms.ts';

/** What a build hands the index in one synchronous step. */
export interface Built {
  readonly table: ContactTable;
  readonly alive: Uint32Array;
  readonly byId: IdHash;
  readonly base: Base;
}

/** Contacts per build step between two turns of the event loop (tens of ms of work). */
const STEP = 20_000;

/**
 * The build as steps (a generator: the caller may let the event loop through between them). Nothing
 * of the index changes until the step that hands `swapIn` the new base, table, live bits and id hash.
 */
/** `ranks`: rank the date and id columns ahead (false for a segment: its rows go into the index's dictionaries). */
export function* buildBase(
  loader: IndexLoader,
  swapIn: (built: Built) => void,
  { ranks = true }: { ranks?: boolean } = {},
): Generator<void> {
  const src = loader.table;
  const rows = loader.liveRows();
  const order = yield* ordinalOrder(src, rows);
  const n = rows.length;
  // The columns and the forward index, already made per loaded row, are put in ordinal order.
  const table = src.permuted(order);
  // The loader is the build's to use up: each of its arrays is dropped once copied, so the build's
  // peak is not the loaded rows and the index both (1M: ~1.4 GB; issue 25).
  src.dropRows();
  const alive = bitsFor(n).fill(0xffffffff);
  if (n & 31) alive[alive.length - 1] = (1 << (n & 31)) - 1;
  const byId = idHashOf(table);
  for (let o = 0; o < n; o++) {
    byId.set(table.value(o, 'ContactId')!, o);
    if (o % STEP === STEP - 1) yield;
  }
  const lf = loader.fwd;
  const entOff = new Uint32Array(n + 1);
  for (let o = 0; o < n; o++) entOff[o + 1] = entOff[o] + lf.off[order[o] + 1] - lf.off[order[o]];
  const E = entOff[n];
  const et = new Uint32Array(E),
    entSteps = new Uint8Array((E + 3) >>> 2);
  const posCapped = putEntries(lf, order, entOff, et, entSteps);
  lf.dropEntries();
  yield;
  const { spanOff, spans } = lf.spans.permuted(order);
  lf.spans.drop();
  yield;
  // Sort the dictionary and renumber.
  const { T, termChunks, termOff, wide, sorted } = lf.sortedTerms();
  yield;
  const terms = Terms.encode(termChunks, termOff, wide);
  termChunks.length = 0;
  yield;
  const remap = new Uint32Array(T);
  for (let i = 0; i < T; i++) remap[sorted[i]] = i;
  const entT = et;
  // Postings, class-major, deduplicated per (term, class, ordinal); ordinals ascend because o does.
  // A class's offsets cover only the term ids it holds (phones never hold words): a fifth of 5×T.
  const cLo = new Uint32Array(CLASSES).fill(T),
    cHi = new Uint32Array(CLASSES),
    cBase = new Uint32Array(CLASSES);
  // Each class's longest run of term ids it does not hold gets no offsets either: the email class
  // spans the phones' 3.75M terms at 1M (15 MB of offsets all equal).
  const held = Array.from({ length: CLASSES }, () => bitsFor(T));
  if (T > TERM_MASK + 1 || CLASSES > 1 << (32 - CLS_SHIFT))
    throw new Error(`index build: ${T} terms or ${CLASSES} classes do not fit an entry's u32`);
  renumber(entT, remap, cLo, cHi, held);
  yield;
  const cGapLo = new Uint32Array(CLASSES),
    cGapHi = new Uint32Array(CLASSES);
  let slots = 0;
  for (let c = 0; c < CLASSES; c++) {
    if (cLo[c] >= cHi[c]) cLo[c] = cHi[c] = 0;
    [cGapLo[c], cGapHi[c]] = longestGap(held[c], cLo[c], cHi[c]);
    cBase[c] = slots;
    slots += cHi[c] - cLo[c] - (cGapHi[c] - cGapLo[c]);
  }
  held.length = 0;
  const gaps = { cLo, cBase, cGapLo, cGapHi };
  const postOff = new Uint32Array(slots + 1);
  // One walk, twice: the first pass counts each slot's postings, the second writes them where the
  // counts' running sums put them. A slot's state is two neighbours, so an entry touches one cache
  // line, not two (entries meet their slots at random): the last ordinal posted + 1 (to deduplicate),
  // then the count, then where the next posting goes.
  const state = new Int32Array(2 * slots);
  let post = new Uint32Array(0);
  for (let pass = 0; pass < 2; pass++) {
    for (let o = 0; o < n; o += 4 * STEP) {
      postingsPass(
        gaps,
        entOff,
        entT,
        state,
        o,
        Math.min(n, o + 4 * STEP),
        pass === 0 ? undefined : post,
      );
      if (o + 4 * STEP <= n) yield;
    }
    if (pass === 0) {
      for (let s = 0; s < slots; s++) {
        postOff[s + 1] = postOff[s] + state[2 * s + 1];
        state[2 * s] = 0;
        state[2 * s + 1] = postOff[s];
      }
      post = new Uint32Array(postOff[slots]);
    }
  }
  // The offsets kept as a length a slot (table/lengths.ts): a byte and a quarter, not four.
  const offsets = Lengths.between(postOff);
  yield;
  // The heads of the prefixes typed first: 1–2 letters of a word, 1–4 digits of a phone.
  const dict = {
    T,
    termAt: (i: number) => terms.termAt(i),
    lowerBound: (s: string) => terms.lowerBound(s),
    post,
    postOff: offsets,
    cLo,
    cHi,
    cBase,
    cGapLo,
    cGapHi,
  };
  const heads = prefixHeads(dict, '', [1, 2]);
  prefixHeads(dict, PHONE_NS, [1, 2, 3, 4], heads);
  yield;
  table.trim(); // the build grew its arrays by halves; a write regrows only what it needs
  // The swap: one synchronous step, so a search sees the old index or the new one, never a mix.
  swapIn({
    table,
    alive,
    byId,
    base: {
      n,
      T,
      terms,
      cLo,
      cHi,
      cBase,
      cGapLo,
      cGapHi,
      postOff: offsets,
      post,
      heads,
      entOff,
      entTerm: entT,
      entSteps,
      posCapped,
      spanOff,
      spans,
    },
  });
  // Rank now what date filters, ranges and sorts would rank on first use (a million timestamps or
  // ids: about a second each), so no request pays for it. Not a segment's: its rows are staged
  // into the index's own dictionaries (index/segment.ts), whose ranks are the ones used.
  if (ranks)
    for (const col of table.columns) {
      if (col.field.type === 'Date' || col.field.name === 'ContactId') {
        ranksOf(col.dict, 'raw');
        yield;
      }
    }
}

/** The entries of the loaded rows `order` (ordinal o's at entOff[o]); whether a position was capped. */
function putEntries(
  lf: IndexLoader['fwd'],
  order: Uint32Array,
  entOff: Uint32Array,
  et: Uint32Array,
  entSteps: Uint8Array,
): boolean {
  const { off, term, steps, cappedRows } = lf;
  let capped = false;
  for (let o = 0; o < order.length; o++) {
    const r = order[o];
    if (cappedRows.size > 0 && cappedRows.has(r)) capped = true;
    for (let i = off[r], e = entOff[o]; e < entOff[o + 1]; i++, e++) {
      et[e] = term[i];
      entSteps[e >>> 2] |= ((steps[i >>> 2] >>> ((i & 3) << 1)) & 3) << ((e & 3) << 1);
    }
  }
  return capped;
}

/**
 * The entries' loaded term ids renumbered (`remap`), each kept with its class in the top bits
 * (base.ts, as the loader gives them), noting the term ids each class holds: [cLo, cHi) and `held`.
 */
function renumber(
  entT: Uint32Array,
  remap: Uint32Array,
  cLo: Uint32Array,
  cHi: Uint32Array,
  held: Uint32Array[],
): void {
  for (let i = 0; i < entT.length; i++) {
    const c = entT[i] >>> CLS_SHIFT,
      t = remap[entT[i] & TERM_MASK];
    entT[i] = t | (c << CLS_SHIFT);
    if (t < cLo[c]) cLo[c] = t;
    if (t + 1 > cHi[c]) cHi[c] = t + 1;
    setBit(held[c], t);
  }
}

/** Ordinals [from, to)'s postings: counted into `state` (no `post`), or written into `post`. */
function postingsPass(
  gaps: Parameters<typeof slotOf>[0],
  entOff: Uint32Array,
  entT: Uint32Array,
  state: Int32Array,
  from: number,
  to: number,
  post: Uint32Array | undefined,
): void {
  for (let o = from; o < to; o++) {
    for (let i = entOff[o]; i < entOff[o + 1]; i++) {
      const k = slotOf(gaps, entT[i] >>> CLS_SHIFT, entT[i] & TERM_MASK) << 1;
      if (state[k] === o + 1) continue;
      state[k] = o + 1;
      if (post === undefined) state[k + 1]++;
      else post[state[k + 1]++] = o;
    }
  }
}

/**
 * The live rows in final tie-break order (ordinal o is row order[o]), a step per STEP rows. The
 * keys are unique (they end with the ContactId), so any sort of them gives the one order; two
 * trailing code units carry the row, as the tie-break of last resort. They are freed on return.
 */
function* ordinalOrder(src: ContactTable, rows: Uint32Array): Generator<void, Uint32Array> {
  const keys = new StringRun(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    keys.write(sortKeyOf(src.value(r, 'DisplayName') ?? '', src.value(r, 'ContactId') ?? ''));
    keys.unit(0);
    keys.unit(r >>> 16);
    keys.unit(r & 0xffff);
    keys.end();
    if (i % STEP === STEP - 1) yield;
  }
  const byKey = sortedStrings(keys);
  yield;
  const order = new Uint32Array(rows.length);
  for (let o = 0; o < rows.length; o++) order[o] = rows[byKey[o]];
  return order;
}

/** The longest run [lo, hi) of ids in [from, to) without a bit in `held` ([from, from) when none). */
function longestGap(held: Uint32Array, from: number, to: number): [number, number] {
  let best: [number, number] = [from, from];
  for (let t = from; t < to;) {
    if (hasBit(held, t)) {
      t++;
      continue;
    }
    const start = t;
    while (t < to && !hasBit(held, t)) t++;
    if (t - start > best[1] - best[0]) best = [start, t];
  }
  return best;
}
