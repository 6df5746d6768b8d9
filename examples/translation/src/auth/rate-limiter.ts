/**
 * Per-key request rate limit: a token bucket of `requests` tokens refilled over `windowSeconds`. In memory, per
 * process. `take` answers how long to wait when the bucket is empty (the 429's `Retry-After`).
 */
export interface RateLimit {
  requests: number
  windowSeconds: number
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updated: number }>()

  constructor(private readonly limit: RateLimit | undefined, private readonly now: () => number = () => Date.now()) {}

  /** Takes one token for `key`; returns 0 when allowed, else the whole seconds to wait. */
  take(key: string): number {
    if (!this.limit) return 0
    const { requests, windowSeconds } = this.limit
    const perMs = requests / (windowSeconds * 1000)
    const t = this.now()
    const bucket = this.buckets.get(key) ?? { tokens: requests, updated: t }
    bucket.tokens = Math.min(requests, bucket.tokens + (t - bucket.updated) * perMs)
    bucket.updated = t
    this.buckets.set(key, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return 0
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000))
  }
}
