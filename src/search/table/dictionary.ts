/**
 * The distinct values of one column. Id 0 is "absent". Few distinct values (names, cities, countries,
 * tags) stay JS strings with a lookup, so equal values share an id; once a column proves nearly
 * unique (ids, emails, phones, timestamps) its values move to one UTF-8 buffer outside the JS heap
 * and every new value gets a new id — a million small strings on the heap is what made the
 * collector slow and the process big (docs/SEARCH.md "Contacts in columns"). A nearly unique column
 * of timestamps as `toISOString` writes them (CreatedAt, UpdatedAt) moves to a Float64Array of their
 * milliseconds instead: 8 bytes a value, not 24 and an offset (38 MB less at 1M); the first value
 * written otherwise moves it to the buffer like any other.
 */
import { Growable } from './growable.ts';

/** Values a dictionary keeps as deduplicated JS strings before it moves to a buffer (tests lower it). */
export const TABLE_TUNING = { mappedMax: 65_536 };

export class Dictionary {
  private strings: string[] | undefined = [''];
  private lookup: Map<string, number> | undefined = new Map();
  private bytes = Buffer.allocUnsafe(0);
  private used = 0;
  /** Buffer mode: value id i is bytes[offs[i] .. offs[i + 1]). */
  private offs = new Growable(new Uint32Array(0));
  /** Time mode: value id i is the instant times[i] (ms), written back by toISOString. */
  private times: Growable<Float64Array> | undefined;
  private count = 1;

  constructor(private readonly mappedMax = TABLE_TUNING.mappedMax) {}

  get size(): number {
    return this.count;
  }
  /** true while equal values share one id. */
  get deduplicated(): boolean {
    return this.lookup !== undefined;
  }

  intern(s: string): number {
    if (this.lookup) {
      const id = this.lookup.get(s);
      if (id !== undefined) return id;
      if (this.lookup.size < this.mappedMax) {
        this.lookup.set(s, this.count);
        this.strings!.push(s);
        return this.count++;
      }
      this.toBuffer();
    }
    if (this.times) {
      const ms = isoMillis(s);
      if (ms !== undefined) {
        this.times.push(ms);
        return this.count++;
      }
      this.timesToBuffer();
    }
    const len = Buffer.byteLength(s, 'utf8');
    if (this.used + len > this.bytes.length) {
      const next = Buffer.allocUnsafe(
        Math.max(this.used + len, Math.ceil(this.bytes.length * 1.5), 1 << 16),
      );
      this.bytes.copy(next, 0, 0, this.used);
      this.bytes = next;
    }
    this.used += this.bytes.write(s, this.used, 'utf8');
    this.offs.push(this.used);
    return this.count++;
  }

  value(id: number): string {
    if (this.strings) return this.strings[id];
    if (this.times) return id === 0 ? '' : new Date(this.times.a[id]).toISOString();
    return id === 0 ? '' : this.bytes.toString('utf8', this.offs.a[id - 1], this.offs.a[id]);
  }

  /**
   * Buffer mode: the buffer and its offsets. String mode (at most mappedMax values): 40 bytes a
   * value, a JS string's header plus a short text and its lookup entry, not counted one by one.
   */
  approximateBytes(): number {
    if (this.times) return this.times.a.byteLength;
    return this.strings ? this.strings.length * 40 : this.bytes.length + this.offs.a.byteLength;
  }

  /** Drops spare capacity (after a build). */
  trim(): void {
    if (this.bytes.length > this.used) this.bytes = Buffer.from(this.bytes.subarray(0, this.used));
    this.offs.trim();
    this.times?.trim();
  }

  /**
   * The values as bytes (UTF-8, one after another) and where each ends (`ends[i - 1]` for id i): an
   * index image's form (index/image.ts). `mapped` says whether equal values share an id. Time
   * mode: `times` instead (value id i is times[i − 1]), bytes and ends empty.
   */
  parts(): DictionaryParts {
    if (this.times) {
      this.trim();
      return {
        mapped: false,
        bytes: new Uint8Array(0),
        ends: new Uint32Array(0),
        times: this.times.a.subarray(1, this.count),
      };
    }
    if (!this.strings) {
      this.trim();
      return { mapped: false, bytes: this.bytes, ends: this.offs.a.subarray(1, this.count) };
    }
    const ends = new Uint32Array(this.strings.length - 1);
    const text = this.strings.slice(1);
    let at = 0;
    for (let i = 0; i < text.length; i++) ends[i] = at += Buffer.byteLength(text[i], 'utf8');
    return { mapped: true, bytes: Buffer.from(text.join(''), 'utf8'), ends };
  }

  /** A dictionary from `parts()`: a buffer-mode one reads its values from `bytes` in place (no copy). */
  static fromParts(p: DictionaryParts): Dictionary {
    const d = new Dictionary();
    if (p.times) {
      d.strings = undefined;
      d.lookup = undefined;
      const times = new Float64Array(p.times.length + 1);
      times.set(p.times, 1);
      d.times = new Growable(times);
      d.times.n = times.length;
      d.count = times.length;
      return d;
    }
    const bytes = Buffer.from(
      p.bytes.buffer as ArrayBuffer,
      p.bytes.byteOffset,
      p.bytes.byteLength,
    );
    if (p.mapped) {
      let from = 0;
      for (let i = 0; i < p.ends.length; i++) {
        const s = bytes.toString('utf8', from, p.ends[i]);
        d.lookup!.set(s, d.count++);
        d.strings!.push(s);
        from = p.ends[i];
      }
      return d;
    }
    d.strings = undefined;
    d.lookup = undefined;
    d.bytes = bytes;
    d.used = bytes.length;
    const offs = new Uint32Array(p.ends.length + 1);
    offs.set(p.ends, 1);
    d.offs.a = offs;
    d.offs.n = offs.length;
    d.count = offs.length;
    return d;
  }

  private toBuffer(): void {
    const strings = this.strings!;
    this.strings = undefined;
    this.lookup = undefined;
    const ms = strings.map((v, i) => (i === 0 ? 0 : isoMillis(v)));
    if (ms.every((x) => x !== undefined)) {
      this.times = new Growable(Float64Array.from(ms as number[]));
      this.times.n = ms.length;
      return; // the same ids, as instants
    }
    this.offs.push(0); // offs[0]: where value 1 starts
    this.count = 1; // the same ids again, in the same order
    for (let i = 1; i < strings.length; i++) this.intern(strings[i]);
  }

  /** Time mode to buffer mode, the same ids (a value that is not a canonical timestamp arrived). */
  private timesToBuffer(): void {
    const times = this.times!;
    this.times = undefined;
    this.offs.push(0);
    this.count = 1;
    for (let i = 1; i < times.n; i++) this.intern(new Date(times.a[i]).toISOString());
  }
}

export interface DictionaryParts {
  mapped: boolean;
  bytes: Uint8Array;
  ends: Uint32Array;
  times?: Float64Array;
}

/** The milliseconds of `s` when it is exactly what toISOString writes for them, else undefined. */
function isoMillis(s: string): number | undefined {
  if (s.length !== 24 || s.charCodeAt(23) !== 90 /* Z */ || s.charCodeAt(10) !== 84 /* T */)
    return undefined;
  const ms = Date.parse(s);
  return Number.isNaN(ms) || new Date(ms).toISOString() !== s ? undefined : ms;
}
