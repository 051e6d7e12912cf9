/**
 * The doorkeeper of the caches of repeated requests (service/result-cache.ts, protocol/wire.ts
 * `memoized`): something is kept only when it is asked for a second time, while its first time is
 * still remembered. Distinct traffic (each keystroke of each user a new prefix) otherwise fills those
 * caches with answers nobody asks for again, each held until evicted, promoted to the old generation
 * and collected by a full GC: with both caches on, a distinct type-ahead request cost the server
 * 226–241 µs of CPU at 10k against 179–183 µs with them off (bench:http, docs/perf-log/2026-11-27-admission.md).
 *
 * One 32-bit fingerprint per slot of a direct-mapped table four times the cache's entries: a newer
 * text takes an older one's slot, so "still remembered" means among roughly the last 4× entries texts
 * asked. Two texts with one fingerprint only make one of them kept a time early.
 */
export class SeenBefore {
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(entries: number) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(16, entries * 4)));
    this.slots = new Int32Array(size);
    this.mask = size - 1;
  }

  /** Whether `text` was asked since its slot was last taken; remembers it either way. */
  again(text: string): boolean {
    let h = 0x811c9dc5; // FNV-1a
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    h |= 1; // 0 is an empty slot
    const i = (h ^ (h >>> 15)) & this.mask;
    if (this.slots[i] === h) return true;
    this.slots[i] = h;
    return false;
  }
}
