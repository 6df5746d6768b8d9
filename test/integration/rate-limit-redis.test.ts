import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, rateLimit, RedisStore } from 'routeless'
import { redisAvailable, startRedis } from '../_redis.ts'

const available = redisAvailable()

describe.skipIf(!available)('Rate limits shared through Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>
  const clients: Redis[] = []
  beforeAll(async () => {
    redis = await startRedis()
  })
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit()))
    redis?.stop()
  })

  async function instance() {
    const client = new Redis(redis.url)
    clients.push(client)
    const store = new RedisStore(client, 'test:')
    return createApp({
      modules: {
        '': {
          Default: class {
            static auth = rateLimit({
              limit: 3,
              windowMs: 30_000,
              store,
              key: (c) => c.request.headers.get('x-client') ?? undefined,
            })
            GET() {
              return 'ok'
            }
          },
        },
      },
    })
  }

  it('counts hits across instances and answers 429 with Retry-After past the limit', async () => {
    const [a, b] = [await instance(), await instance()]
    const headers = { 'x-client': 'shared' }
    expect((await a.request('/', { headers })).status).toBe(200)
    expect((await b.request('/', { headers })).status).toBe(200)
    expect((await a.request('/', { headers })).status).toBe(200)
    const limited = await b.request('/', { headers })
    expect(limited.status).toBe(429)
    const retry = Number(limited.headers.get('retry-after'))
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(30)
    expect((await a.request('/', { headers: { 'x-client': 'someone-else' } })).status).toBe(200)
    expect(Number(await clients[0]!.pttl('test:shared'))).toBeGreaterThan(0)
  })
})
