/** An append-only typed array: builds never hold tens of millions of JS numbers. */
export type Typed = Uint32Array | Uint16Array | Uint8Array | Int32Array | Float64Array;

/** A copy of `a` with room for `size` elements (half as much again when that is more: few copies). */
export function grown<A extends Typed>(a: A, size: number): A {
  const b = new (a.constructor as new (n: number) => A)(
    Math.max(size, Math.ceil(a.length * 1.5), 16),
  );
  b.set(a);
  return b;
}

/**
 * Room an array was given past its end in its own buffer: the zeros an index image leaves after each
 * of its table's arrays (image-file.ts), mapped with it. A Growable of such an array grows into that
 * room instead of copying the array: the first contact written after a 1M snapshot's open copied every
 * column and dictionary, ~200 MB more of the process's own memory (2 GB at 10M) for one row; now a
 * write lands in the mapping's pages it touches (copy-on-write, a page each).
 */
const ROOM = new WeakMap<Typed, Typed>();

/** Records that `a`'s buffer holds `room` more elements of its type just past it (zeros), for `roomFor`. */
export function giveRoom<A extends Typed>(a: A, room: number): void {
  const fits = Math.floor((a.buffer.byteLength - a.byteOffset) / a.BYTES_PER_ELEMENT) - a.length;
  const n = Math.min(room, fits);
  if (n <= 0) return;
  // A Buffer (a dictionary's bytes) stays one, made by Buffer.from: `new Buffer(...)` is deprecated
  // (DEP0005, a warning in every server's log at its first write after a snapshot's open).
  const wide = Buffer.isBuffer(a)
    ? Buffer.from(a.buffer, a.byteOffset, a.length + n)
    : new (a.constructor as new (b: ArrayBufferLike, at: number, n: number) => A)(
        a.buffer,
        a.byteOffset,
        a.length + n,
      );
  ROOM.set(a, wide as A);
}

/** `a` seen with its room (giveRoom), when that holds `size` elements; else undefined. */
export function roomFor<A extends Typed>(a: A, size: number): A | undefined {
  const wide = ROOM.get(a) as A | undefined;
  return wide !== undefined && wide.length >= size ? wide : undefined;
}

export class Growable<A extends Typed> {
  n = 0;
  constructor(public a: A) {}
  push(v: number): void {
    if (this.n === this.a.length) this.grow(this.n + 1);
    this.a[this.n++] = v;
  }
  /** Appends `values` in one copy. */
  append(values: ArrayLike<number>): void {
    this.grow(this.n + values.length);
    this.a.set(values, this.n);
    this.n += values.length;
  }
  /** Makes room for `size` elements in total. */
  grow(size: number): void {
    if (size > this.a.length) this.a = roomFor(this.a, size) ?? grown(this.a, size);
  }
  done(): A {
    return this.a.slice(0, this.n) as A;
  }
  /** Drops the spare capacity. */
  trim(): void {
    if (this.a.length > this.n) this.a = this.done();
  }
}
