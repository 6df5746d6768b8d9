/**
 * The per-key request rate limit, on routeless's `rateLimit` guard: the key function reads the authenticated key
 * (`controller.principal`), and the store is a token bucket of `requests` tokens refilled evenly over
 * `windowSeconds` — in memory (per process), or in Redis when REDIS_URL is set (shared by every instance, see
 * `redis-token-bucket.ts`) — so `Retry-After` is the time until the next token, not the end of a
 * fixed window. Over the limit: 429 `{"message":"Too many requests"}`.
 */
import { rateLimit, type Controller, type Guard, type RateLimitStore } from 'routeless'
import type { ApiKeyRecord } from '../keys/api-key.ts'

export interface RateLimit {
  requests: number
  windowSeconds: number
}

export const TOO_MANY_REQUESTS = 'Too many requests'

/** A guard limiting each authenticated key; a no-op when no limit is configured or nobody is authenticated. */
export function keyRateLimit(
  limit: RateLimit | undefined,
  now: () => number = () => Date.now(),
  store?: RateLimitStore,
): Guard {
  if (!limit) return () => {}
  return rateLimit({
    limit: limit.requests,
    windowMs: limit.windowSeconds * 1000,
    key: (controller: Controller<any>) => (controller.principal as ApiKeyRecord | undefined)?.keyId,
    store: store ?? new TokenBucketStore(limit.requests, now),
    message: TOO_MANY_REQUESTS,
  })
}

/**
 * `rateLimit`'s store contract (hits so far, ms until reset) answered by a token bucket: a hit that finds a token
 * counts as `limit - tokens left`, one that finds none as `limit + 1`, with the time until the next token.
 */
export class TokenBucketStore implements RateLimitStore {
  private readonly buckets = new Map<string, { tokens: number; updated: number }>()

  constructor(
    private readonly limit: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const perMs = this.limit / windowMs
    const t = this.now()
    const bucket = this.buckets.get(key) ?? { tokens: this.limit, updated: t }
    bucket.tokens = Math.min(this.limit, bucket.tokens + (t - bucket.updated) * perMs)
    bucket.updated = t
    this.buckets.set(key, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return { count: this.limit - Math.floor(bucket.tokens), resetMs: (this.limit - bucket.tokens) / perMs }
    }
    return { count: this.limit + 1, resetMs: (1 - bucket.tokens) / perMs }
  }
}
