/**
 * ContactId → row, as an open-addressing table of typed arrays (a Map of a million string keys is a
 * million heap objects for the collector to walk). Keys are not stored: a probe compares the 32-bit
 * hash, then the id read back from the table.
 */
import { isMapped } from '../../io/file-map.ts';

const EMPTY = -1;
const GONE = -2;
/** Entries copied a step by `roomSteps` (4 MB of each array). */
const COPY_STEP = 1 << 20;
/**
 * Ids a change may set into a table still mapped from an image without copying it first: each
 * write faults in a page or two of the mapping (copy-on-write, microseconds), where the copy is 16 MB
 * of the process's own memory at 1M contacts (160 MB at 10M) for a one-contact write.
 */
const IN_PLACE_IDS = 64;

export function hashId(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class IdHash {
  private slots: Int32Array = new Int32Array(16).fill(EMPTY);
  private hashes: Uint32Array = new Uint32Array(16);
  private used = 0;
  private filled = 0;
  /** Changes made (set, delete): `roomSteps` keeps its copy only if none came meanwhile. */
  private writes = 0;

  constructor(private readonly idOf: (row: number) => string) {}

  get size(): number {
    return this.used;
  }
  get byteLength(): number {
    return this.slots.byteLength + this.hashes.byteLength;
  }

  /** The table's arrays and counts (an index image, index/image.ts). */
  parts(): { slots: Int32Array; hashes: Uint32Array; used: number; filled: number } {
    return { slots: this.slots, hashes: this.hashes, used: this.used, filled: this.filled };
  }

  /** Takes over the arrays of `parts()` (no copy): the rows they hold must be this table's. */
  restore(p: { slots: Int32Array; hashes: Uint32Array; used: number; filled: number }): this {
    this.slots = p.slots;
    this.hashes = p.hashes;
    this.used = p.used;
    this.filled = p.filled;
    return this;
  }

  get(id: string): number | undefined {
    const i = this.find(id, hashId(id));
    return i < 0 ? undefined : this.slots[i];
  }

  /** Sets id → row; returns the row it replaced, if any. */
  set(id: string, row: number): number | undefined {
    this.writes++;
    const h = hashId(id);
    const i = this.find(id, h);
    if (i >= 0) {
      const old = this.slots[i];
      this.slots[i] = row;
      return old;
    }
    if ((this.filled + 1) * 10 > this.slots.length * 7) this.resize(this.used + 1);
    const mask = this.slots.length - 1;
    let j = h & mask;
    while (this.slots[j] >= 0) j = (j + 1) & mask;
    if (this.slots[j] === EMPTY) this.filled++;
    this.slots[j] = row;
    this.hashes[j] = h;
    this.used++;
    return undefined;
  }

  /**
   * Room for `n` more ids, in steps: a resize (every id rehashed) when they would fill it, else the
   * arrays copied into memory of this process a slice a step when they are still an index image's
   * mapping, whose pages a write copies one fault at a time (1,000 ids set into a 1M table fresh from
   * its snapshot: ~50 ms of faults in one go) — unless they are a few (IN_PLACE_IDS). A change
   * meanwhile (`set`, `delete`) keeps the table as it is: the copy is dropped.
   */
  *roomSteps(n: number): Generator<void> {
    if ((this.filled + n) * 10 > this.slots.length * 7) {
      this.resize(this.used + n);
      yield;
      return;
    }
    if (n <= IN_PLACE_IDS || (!isMapped(this.slots) && !isMapped(this.hashes))) return;
    const writes = this.writes,
      from = this.slots,
      fromHashes = this.hashes;
    const slots = new Int32Array(from.length),
      hashes = new Uint32Array(fromHashes.length);
    for (let at = 0; at < from.length; at += COPY_STEP) {
      slots.set(from.subarray(at, at + COPY_STEP), at);
      hashes.set(fromHashes.subarray(at, at + COPY_STEP), at);
      yield;
    }
    if (this.writes !== writes || this.slots !== from) return;
    this.slots = slots;
    this.hashes = hashes;
  }

  delete(id: string): number | undefined {
    this.writes++;
    const i = this.find(id, hashId(id));
    if (i < 0) return undefined;
    const row = this.slots[i];
    this.slots[i] = GONE;
    this.used--;
    return row;
  }

  private find(id: string, h: number): number {
    const mask = this.slots.length - 1;
    for (let j = h & mask; ; j = (j + 1) & mask) {
      const r = this.slots[j];
      if (r === EMPTY) return -1;
      if (r >= 0 && this.hashes[j] === h && this.idOf(r) === id) return j;
    }
  }

  private resize(need: number): void {
    let cap = 16;
    // ≤ 50% full after a resize (grown again past 70%): at 1M ids 2M slots (16 MB), where ≤ 35% took 4M (32 MB).
    while (cap < need * 2) cap *= 2;
    const slots = this.slots,
      hashes = this.hashes;
    this.slots = new Int32Array(cap).fill(EMPTY);
    this.hashes = new Uint32Array(cap);
    this.filled = 0;
    const mask = cap - 1;
    for (let i = 0; i < slots.length; i++) {
      if (slots[i] < 0) continue;
      let j = hashes[i] & mask;
      while (this.slots[j] !== EMPTY) j = (j + 1) & mask;
      this.slots[j] = slots[i];
      this.hashes[j] = hashes[i];
      this.filled++;
    }
  }
}
