/**
 * Per-key rate limiting (CONTRACT.md §7–8): a token bucket per API key id, refilled continuously.
 * Applies when API keys are configured; `take` answers how many seconds to wait (0 = go).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perSecond: number, private readonly burst: number) {}

  take(id: string, now = Date.now()): number {
    const b = this.buckets.get(id) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    this.buckets.set(id, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / this.perSecond);
  }
}
