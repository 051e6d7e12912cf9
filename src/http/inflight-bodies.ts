/**
 * One budget of request-body bytes held at once across all requests (issue 27: 48–100 concurrent
 * 60 MiB bodies took RSS to 2.3 GB and every client's latency to 10 s). A request holds its bytes
 * from the moment they arrive until its answer is written; a request that would go over waits, in
 * arrival order, up to `waitMs` for others to finish, else it is answered 503 (server.ts).
 * The first FREE_BYTES of every body are not counted: ordinary requests never wait behind large ones.
 */

export const FREE_BYTES = 64 * 1024;

interface Waiter {
  bytes: number;
  grant: (taken: boolean) => void;
}

export class InflightBodies {
  private used = 0;
  private readonly queue: Waiter[] = [];

  constructor(
    readonly capacity: number,
    private readonly waitMs: number,
  ) {}

  get bytesHeld(): number {
    return this.used;
  }

  /** Takes `bytes` now, or after others release them; false when that did not happen within waitMs (or never can). */
  take(bytes: number): Promise<boolean> {
    if (bytes > this.capacity) return Promise.resolve(false);
    if (this.queue.length === 0 && this.used + bytes <= this.capacity) {
      this.used += bytes;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = { bytes, grant: resolve };
      const timer = setTimeout(() => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        resolve(false);
        this.grantWaiting(); // the one given up on may have held up smaller ones behind it
      }, this.waitMs);
      waiter.grant = (taken) => {
        clearTimeout(timer);
        resolve(taken);
      };
      this.queue.push(waiter);
    });
  }

  release(bytes: number): void {
    this.used -= bytes;
    this.grantWaiting();
  }

  private grantWaiting(): void {
    while (this.queue.length > 0 && this.used + this.queue[0].bytes <= this.capacity) {
      const next = this.queue.shift()!;
      this.used += next.bytes;
      next.grant(true);
    }
  }
}
