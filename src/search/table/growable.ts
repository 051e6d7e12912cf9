/** An append-only typed array: builds never hold tens of millions of JS numbers. */
export type Typed = Uint32Array | Uint16Array | Uint8Array | Int32Array;

export class Growable<A extends Typed> {
  n = 0;
  constructor(public a: A) {}
  push(v: number): void {
    if (this.n === this.a.length) this.grow(this.n + 1);
    this.a[this.n++] = v;
  }
  /** Makes room for `size` elements in total. */
  grow(size: number): void {
    if (size <= this.a.length) return;
    const b = new (this.a.constructor as new (n: number) => A)(Math.max(size, Math.ceil(this.a.length * 1.5), 16));
    b.set(this.a);
    this.a = b;
  }
  done(): A { return this.a.slice(0, this.n) as A; }
  /** Drops the spare capacity. */
  trim(): void { if (this.a.length > this.n) this.a = this.done(); }
}
