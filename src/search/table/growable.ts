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
    if (size > this.a.length) this.a = grown(this.a, size);
  }
  done(): A {
    return this.a.slice(0, this.n) as A;
  }
  /** Drops the spare capacity. */
  trim(): void {
    if (this.a.length > this.n) this.a = this.done();
  }
}
