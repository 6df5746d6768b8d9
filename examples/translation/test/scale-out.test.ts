/**
 * Scale-out on PostgreSQL: two instances of the API on one database, requests spread over both (issue 14). Each
 * test reproduces one failure a multi-instance deployment had, and checks it no longer happens.
 */
import { postgresAvailable } from '@routeless/example-kit/testing'
import { describe, expect, it } from 'vitest'
import { EngineError, type TranslationEngine } from '../src/engines/engine.ts'
import { startCluster } from './_cluster.ts'
import { ADMIN_KEY, API_KEY, api } from './_server.ts'

const pg = await postgresAvailable()

describe.runIf(pg)('two instances on one PostgreSQL', () => {
  it('start together: the configured keys are registered once, without a duplicate-key crash', async () => {
    for (let round = 0; round < 3; round++) {
      const cluster = await startCluster(2)
      try {
        const [a, b] = cluster.instances
        const keys = await a!.app.database.db.selectFrom('api_keys').select(['key_id', 'is_admin']).execute()
        expect(keys.map((k) => Number(k.is_admin)).sort()).toEqual([0, 1])
        expect((await api(a!)('/v2/usage')).status).toBe(200)
        expect((await api(b!, ADMIN_KEY)('/v2/admin/developer-keys')).status).toBe(200)
        expect((await api(b!, API_KEY)('/v2/usage')).status).toBe(200)
      } finally {
        await cluster.close()
      }
    }
  })

  it('share one quota: with 100 characters left, a 60-character request on each instance → one 200, one 456, 60 billed', async () => {
    const cluster = await startCluster(2)
    try {
      const [a, b] = cluster.instances
      const text = 'x'.repeat(60)
      for (let round = 0; round < 5; round++) {
        const key = await a!.app.services.keys.create({ admin: false })
        await a!.app.services.keys.setLimits(key.record.keyId, { characters: 130 })
        expect((await api(a!, key.secret)('/v2/translate', { form: { text: 'y'.repeat(30), target_lang: 'de' } })).status).toBe(200)
        const send = (instance: typeof a) => api(instance!, key.secret)('/v2/translate', { form: { text, target_lang: 'de' } })
        const statuses = (await Promise.all([send(a), send(b)])).map((r) => r.status).sort()
        expect(statuses).toEqual([200, 456])
        const usage = (await (await api(b!, key.secret)('/v2/usage')).json()) as any
        expect(usage).toMatchObject({ character_count: 90, character_limit: 130 })
      }
    } finally {
      await cluster.close()
    }
  })

  it('refund exactly what a failed engine reserved, on whichever instance it failed', async () => {
    const failing: TranslationEngine = { name: 'down', translate: async () => { throw new EngineError(503, 'engine down') } }
    const cluster = await startCluster(1)
    try {
      const a = cluster.instances[0]!
      const b = await cluster.start({ engine: failing })
      const key = await a.app.services.keys.create({ admin: false })
      await a.app.services.keys.setLimits(key.record.keyId, { characters: 100 })
      const send = (instance: typeof a, text: string) => api(instance, key.secret)('/v2/translate', { form: { text, target_lang: 'de' } })
      const statuses = (await Promise.all([send(a, 'x'.repeat(40)), send(b, 'x'.repeat(50)), send(b, 'x'.repeat(10))])).map((r) => r.status)
      expect(statuses).toEqual([200, 503, 503])
      expect((await send(a, 'x'.repeat(60))).status).toBe(200) // 40 + 60: the failed 60 were given back
      expect((await send(a, 'x')).status).toBe(456)
      const usage = (await (await api(a, key.secret)('/v2/usage')).json()) as any
      expect(usage.character_count).toBe(100)
    } finally {
      await cluster.close()
    }
  })
})
