/**
 * The per-key token bucket of `key-rate-limit.ts`, kept in Redis so every instance draws from the same bucket: one Lua
 * script per hit (refill by elapsed time, take a token or not) runs atomically in Redis, on Redis's own clock, so
 * instances neither race nor disagree about time. Same answers as the in-memory `TokenBucketStore`.
 */
import { HttpError, type RateLimitStore, type RedisLike } from 'routeless'

export const LIMITER_UNAVAILABLE = 'Service temporarily unavailable: the rate limiter cannot be reached.'

// KEYS[1] bucket; ARGV limit, windowMs. Stored: tokens and the time of the last refill (ms). Idle buckets expire.
const TAKE = `local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[1], 'tokens', 'updated')
local tokens = tonumber(b[1]) or limit
local updated = tonumber(b[2]) or now
local perMs = limit / window
tokens = math.min(limit, tokens + math.max(0, now - updated) * perMs)
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'updated', now)
redis.call('PEXPIRE', KEYS[1], window)
return {ok, tostring(tokens)}`

export class RedisTokenBucketStore implements RateLimitStore {
  constructor(
    private readonly client: RedisLike,
    private readonly limit: number,
    private readonly prefix = 'translation:rl:',
  ) {}

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    let answer: [number, string]
    try {
      answer = (await this.client.eval(TAKE, 1, this.prefix + key, this.limit, windowMs)) as [number, string]
    } catch (error) {
      // Without Redis no instance can tell how much of the key's rate is left: refuse (503) rather than let it pass.
      throw new HttpError(503, LIMITER_UNAVAILABLE, { cause: error })
    }
    const [ok, left] = answer
    const tokens = Number(left)
    const perMs = this.limit / windowMs
    if (Number(ok) === 1) return { count: this.limit - Math.floor(tokens), resetMs: (this.limit - tokens) / perMs }
    return { count: this.limit + 1, resetMs: (1 - tokens) / perMs }
  }
}
