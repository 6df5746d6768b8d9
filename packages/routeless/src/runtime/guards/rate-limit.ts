/**
 * Rate limiting as a guard: fixed windows counted in a store, 429 with `Retry-After` when a key is over its limit.
 * `MemoryStore` serves one process; `RedisStore` (any ioredis-compatible client) lets several instances share limits.
 * @module
 */
import type { Guard } from './auth.ts'
import type { Controller } from '../base/controller.ts'
import { HttpError } from '../base/errors.ts'
import { describeGuard } from './guard-info.ts'

/** Counts hits of a key in the current window. */
export interface RateLimitStore {
  /** Adds one hit; resolves to the hits so far in this window and the milliseconds until it resets. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>
}

/** In-process store; expired windows are swept as keys are hit. */
export class MemoryStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>()
  private lastSweep = 0

  /** `maxKeys` bounds memory: past it, the oldest windows are dropped (those keys start afresh). */
  constructor(private readonly maxKeys = 100_000) {}

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const now = Date.now()
    if (now - this.lastSweep > windowMs) this.sweep(now)
    let w = this.windows.get(key)
    if (!w || w.resetAt <= now) {
      if (w)
        this.windows.delete(key) // re-insert: Map order stays oldest first
      else if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!)
      this.windows.set(key, (w = { count: 0, resetAt: now + windowMs }))
    }
    w.count++
    return { count: w.count, resetMs: w.resetAt - now }
  }

  private sweep(now: number): void {
    this.lastSweep = now
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k)
  }
}

/** The part of an ioredis client the Redis store uses. */
export interface RedisLike {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>
}

const HIT_SCRIPT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`

/** Shared store in Redis: one atomic script per hit (INCR + PEXPIRE), so instances agree. */
export class RedisStore implements RateLimitStore {
  constructor(
    private readonly client: RedisLike,
    private readonly prefix = 'routeless:rl:',
  ) {}

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const [count, ttl] = (await this.client.eval(HIT_SCRIPT, 1, this.prefix + key, windowMs)) as [number, number]
    return { count: Number(count), resetMs: Number(ttl) }
  }
}

export interface RateLimitOptions {
  /** Requests allowed per window and key. */
  limit: number
  /** Window length in milliseconds (default 60 000). */
  windowMs?: number
  /** What is limited (default: the client address). Return undefined to skip limiting this request. */
  key?: (controller: Controller<any>) => string | undefined | Promise<string | undefined>
  store?: RateLimitStore
  /** Message of the 429 (default "Too many requests"). */
  message?: string
}

/** A guard answering 429 with `Retry-After` (seconds) once `key` passes `limit` hits in a window. */
export function rateLimit(options: RateLimitOptions): Guard {
  const windowMs = options.windowMs ?? 60_000
  const store = options.store ?? new MemoryStore()
  const keyOf = options.key ?? clientAddress
  const guard: Guard = async (controller) => {
    const key = await keyOf(controller)
    if (key === undefined) return
    const { count, resetMs } = await store.hit(key, windowMs)
    const reset = Math.max(1, Math.ceil(resetMs / 1000))
    const remaining = Math.max(0, options.limit - count)
    const headers = {
      'RateLimit-Limit': String(options.limit),
      'RateLimit-Remaining': String(remaining),
      'RateLimit-Reset': String(reset),
    }
    if (count > options.limit) {
      throw new HttpError(429, options.message ?? 'Too many requests', {
        headers: { ...headers, 'Retry-After': String(reset) },
      })
    }
    for (const [k, v] of Object.entries(headers)) controller.response.headers.set(k, v)
  }
  return describeGuard(guard, { refuses: [429], headers: { 429: ['Retry-After', ...RATE_LIMIT_HEADERS] } })
}

/** The headers of every answer of a rate-limited handler (and of its 429s, with `Retry-After`). */
export const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']

/** The client's address as the adapter reports it (`env.remoteAddress`), else 'unknown'. */
export function clientAddress(controller: Controller<any>): string {
  return String(controller.env?.remoteAddress ?? 'unknown')
}
