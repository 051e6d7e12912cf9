/**
 * Rate limiting (CONTRACT.md §7–8): token buckets refilled continuously, one per API key when keys
 * are configured, else one per client address for non-loopback callers. `take` answers how many
 * seconds to wait (0 = go); the server turns a wait into 429 TooManyRequests with Retry-After.
 */
import type { Limits } from '../config.ts';

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  /** Kept in least-recently-used order (a take moves its bucket to the end), so eviction starts at the front. */
  private readonly buckets = new Map<string, Bucket>();
  /** After this long untouched a bucket is full again, i.e. the same as no bucket: it can go. */
  private readonly refillMs: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly maxBuckets = 100_000,
  ) {
    this.refillMs = (burst / perSecond) * 1000;
  }

  take(id: string, now = Date.now()): number {
    let b = this.buckets.get(id);
    if (b) this.buckets.delete(id);
    else b = { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    this.buckets.set(id, b);
    this.evict(now);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / this.perSecond);
  }

  /** Buckets held now (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  /**
   * Drops buckets idle long enough to be full (losing nothing), then, if a flood of distinct callers
   * still holds more than `maxBuckets`, the least recently used ones: memory stays bounded, and the
   * price is that an evicted caller starts over with a full burst. Amortised O(1): it stops at the
   * first bucket it keeps.
   */
  private evict(now: number): void {
    for (const [id, b] of this.buckets) {
      if (now - b.at < this.refillMs && this.buckets.size <= this.maxBuckets) break;
      this.buckets.delete(id);
    }
  }
}

/**
 * The bucket of a client address: IPv4 as is, IPv6 by its /64 network (one host usually holds a
 * whole /64, so per-address buckets would not limit it), IPv4-mapped IPv6 as IPv4.
 */
export function addressBucket(address: string): string {
  const a = address.replace(/%.*$/, ''); // zone id, e.g. fe80::1%eth0
  if (!a.includes(':')) return a;
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(a)) return a.slice(7);
  const [head, tail] = a.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? h
      : [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

/** Who is limited, by which bucket: the API key, else (no keys configured) the client address; loopback callers never. */
export class CallerRateLimits {
  private readonly byKey: RateLimiter;
  private readonly byAddress: RateLimiter;

  constructor(
    limits: Pick<
      Limits,
      'keyRequestsPerSecond' | 'keyBurst' | 'ipRequestsPerSecond' | 'ipBurst' | 'ipBuckets'
    >,
  ) {
    this.byKey = new RateLimiter(limits.keyRequestsPerSecond, limits.keyBurst);
    this.byAddress = new RateLimiter(limits.ipRequestsPerSecond, limits.ipBurst, limits.ipBuckets);
  }

  /** Seconds to wait (0 = go) and what is over its limit, for the message. */
  take(
    caller: { keyId?: string; address?: string; loopback: boolean },
    now = Date.now(),
  ): { wait: number; subject: string } {
    if (caller.keyId !== undefined)
      return { wait: this.byKey.take(caller.keyId, now), subject: `API key "${caller.keyId}"` };
    // Loopback callers are this machine's own tools and tests; an address we cannot read is a socket already gone.
    if (caller.loopback || !caller.address) return { wait: 0, subject: '' };
    return {
      wait: this.byAddress.take(addressBucket(caller.address), now),
      subject: 'This client address',
    };
  }

  /** Client-address buckets held now. */
  get addressBuckets(): number {
    return this.byAddress.size;
  }
}
