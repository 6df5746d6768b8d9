/**
 * Scale-out on PostgreSQL: two instances of the API on one database, requests spread over both (issue 14). Each
 * test reproduces one failure a multi-instance deployment had, and checks it no longer happens.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { postgresAvailable, startChildInstance } from '@routeless/example-kit/testing'
import { describe, expect, it } from 'vitest'
import { EngineError, type EngineRequest, type TranslationEngine } from '../src/engines/engine.ts'
import { PhraseTableEngine } from '../src/engines/phrase-table-engine.ts'
import { redisAvailable, startRedis } from '../../../test/_redis.ts'
import { fakeServer } from './_fake-engine-server.ts'
import { startCluster, type Instance } from './_cluster.ts'
import { ADMIN_KEY, API_KEY, api, startServer } from './_server.ts'

const pg = await postgresAvailable()
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function uploadTo(instance: { url: string }, name: string, content: string) {
  const form = new FormData()
  form.append('target_lang', 'de')
  form.append('file', new Blob([content]), name)
  return api(instance)('/v2/document', { method: 'POST', body: form })
}

async function statusOf(instance: { url: string }, doc: { document_id: string; document_key: string }) {
  return (await (
    await api(instance)(`/v2/document/${doc.document_id}`, { form: { document_key: doc.document_key } })
  ).json()) as any
}

async function waitDone(
  instance: { url: string },
  doc: { document_id: string; document_key: string },
  timeoutMs = 20_000,
) {
  const end = Date.now() + timeoutMs
  for (;;) {
    const status = await statusOf(instance, doc)
    if (status.status !== 'queued' && status.status !== 'translating') return status
    if (Date.now() > end) throw new Error(`document still ${status.status}`)
    await sleep(25)
  }
}

/** The phrase-table engine, counting the texts it was asked to translate (across every instance of the test). */
function countingEngine(delayMs = 0) {
  const phrases = new PhraseTableEngine()
  const seen: string[] = []
  const engine: TranslationEngine = {
    name: 'counting',
    translate: async (request: EngineRequest) => {
      seen.push(...request.units.map((u) => u.text))
      if (delayMs) await sleep(delayMs)
      return phrases.translate(request)
    },
  }
  return { engine, seen }
}

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
        expect(
          (await api(a!, key.secret)('/v2/translate', { form: { text: 'y'.repeat(30), target_lang: 'de' } })).status,
        ).toBe(200)
        const send = (instance: typeof a) =>
          api(instance!, key.secret)('/v2/translate', { form: { text, target_lang: 'de' } })
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
    const failing: TranslationEngine = {
      name: 'down',
      translate: async () => {
        throw new EngineError(503, 'engine down')
      },
    }
    const cluster = await startCluster(1)
    try {
      const a = cluster.instances[0]!
      const b = await cluster.start({ engine: failing })
      const key = await a.app.services.keys.create({ admin: false })
      await a.app.services.keys.setLimits(key.record.keyId, { characters: 100 })
      const send = (instance: typeof a, text: string) =>
        api(instance, key.secret)('/v2/translate', { form: { text, target_lang: 'de' } })
      const statuses = (
        await Promise.all([send(a, 'x'.repeat(40)), send(b, 'x'.repeat(50)), send(b, 'x'.repeat(10))])
      ).map((r) => r.status)
      expect(statuses).toEqual([200, 503, 503])
      expect((await send(a, 'x'.repeat(60))).status).toBe(200) // 40 + 60: the failed 60 were given back
      expect((await send(a, 'x')).status).toBe(456)
      const usage = (await (await api(a, key.secret)('/v2/usage')).json()) as any
      expect(usage.character_count).toBe(100)
    } finally {
      await cluster.close()
    }
  })

  it('a document uploaded on one instance downloads from the other (files live in the database), then is gone on both', async () => {
    const cluster = await startCluster(2)
    try {
      const [a, b] = cluster.instances as [Instance, Instance]
      const doc = (await (await uploadTo(a, 'a.txt', 'Good night')).json()) as any
      expect(await waitDone(b, doc)).toMatchObject({ status: 'done', billed_characters: 10 })
      const result = await api(b)(`/v2/document/${doc.document_id}/result`, {
        form: { document_key: doc.document_key },
      })
      expect([result.status, await result.text()]).toEqual([200, 'Gute Nacht'])
      for (const instance of [a, b]) {
        expect(
          (await api(instance)(`/v2/document/${doc.document_id}/result`, { form: { document_key: doc.document_key } }))
            .status,
        ).toBe(404)
      }
      const files = await a.app.database.db
        .selectFrom('document_files')
        .select('kind')
        .where('document_id', '=', doc.document_id)
        .execute()
      expect(files).toEqual([])
    } finally {
      await cluster.close()
    }
  })

  it("an instance joining leaves the others' work alone: 8 documents, each translated and billed exactly once", async () => {
    const { engine, seen } = countingEngine(400)
    const cluster = await startCluster(2, { engine, env: { DOCUMENT_CONCURRENCY: '1' } })
    try {
      const [a, b] = cluster.instances as [Instance, Instance]
      const texts = ['Hello', 'Good night', 'Thank you', 'Welcome', 'Good morning', 'Hello', 'Thank you', 'Good night']
      const docs = await Promise.all(
        texts.map(async (t, i) => (await (await uploadTo(i % 2 ? a : b, `d${i}.txt`, t)).json()) as any),
      )
      const waiting = async () =>
        (
          await a.app.database.db
            .selectFrom('documents')
            .select('status')
            .where('status', 'in', ['queued', 'translating'])
            .execute()
        ).length
      expect(await waiting()).toBeGreaterThan(2) // 8 documents, 400 ms each, one at a time per instance
      const joined = await cluster.start({ engine, env: { DOCUMENT_CONCURRENCY: '1' } }) // joins while documents wait
      const statuses = await Promise.all(docs.map((d) => waitDone(joined, d)))
      expect(statuses.map((s) => s.status)).toEqual(Array(8).fill('done'))
      expect(seen.sort()).toEqual([...texts].sort())
      const usage = (await (await api(a)('/v2/usage')).json()) as any
      expect(usage.character_count).toBe(texts.join('').length)
      const results = await Promise.all(
        docs.map(async (d, i) =>
          (
            await api([a, b, joined][i % 3]!)(`/v2/document/${d.document_id}/result`, {
              form: { document_key: d.document_key },
            })
          ).text(),
        ),
      )
      expect(results).toEqual([
        'Hallo',
        'Gute Nacht',
        'Danke',
        'Willkommen',
        'Guten Morgen',
        'Hallo',
        'Danke',
        'Gute Nacht',
      ])
    } finally {
      await cluster.close()
    }
  })

  it('an instance killed mid-document: the other takes the job over once the lease expires, and bills it once', async () => {
    const hanging = await fakeServer(() => 'hang') // the killed instance's engine: never answers
    const { engine, seen } = countingEngine()
    const cluster = await startCluster(1, { engine })
    const dataDir = mkdtempSync(path.join(tmpdir(), 'translation-child-'))
    const child = await startChildInstance(MAIN, {
      ADMIN_KEY,
      API_KEY,
      DATA_DIR: dataDir,
      DATABASE_URL: cluster.databaseUrl,
      ENGINE: 'libretranslate',
      ENGINE_URL: hanging.url,
      JOB_LEASE_MS: '800',
    })
    try {
      await cluster.instances[0]!.stop() // only the child instance runs for now
      const doc = (await (await uploadTo(child, 'a.txt', 'Thank you')).json()) as any
      for (let i = 0; i < 200 && hanging.requests.length === 0; i++) await sleep(25)
      expect(hanging.requests).toHaveLength(1) // the child holds the job, mid-translation
      await child.kill('SIGKILL')
      const b = await cluster.start({ engine })
      expect(await waitDone(b, doc)).toMatchObject({ status: 'done', billed_characters: 9 })
      expect(seen).toEqual(['Thank you'])
      const result = await api(b)(`/v2/document/${doc.document_id}/result`, {
        form: { document_key: doc.document_key },
      })
      expect(await result.text()).toBe('Danke')
      expect(((await (await api(b)('/v2/usage')).json()) as any).character_count).toBe(9)
    } finally {
      await child.kill()
      await cluster.close()
      await hanging.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe.runIf(pg && redisAvailable())('two instances on one PostgreSQL and one Redis', () => {
  it('share the rate limit: 60 per key, 150 requests spread over both instances → exactly 60 pass', async () => {
    const redis = await startRedis()
    const env = { REDIS_URL: redis.url, RATE_LIMIT_REQUESTS: '60', RATE_LIMIT_WINDOW_SECONDS: '3600' }
    const cluster = await startCluster(2, { env })
    try {
      const [a, b] = cluster.instances as [Instance, Instance]
      const responses = await Promise.all(Array.from({ length: 150 }, (_, i) => api(i % 2 ? a : b)('/v2/usage')))
      const statuses = responses.map((r) => r.status)
      expect(statuses.filter((s) => s === 200)).toHaveLength(60)
      expect(statuses.filter((s) => s === 429)).toHaveLength(90)
      const limited = responses.find((r) => r.status === 429)!
      // A token bucket of 60 per hour: the next token is about a minute away (the same answer as the in-memory store).
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(50)
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60)
      expect(await limited.json()).toEqual({ message: 'Too many requests' })
      // Another key has its own bucket.
      expect((await api(a, ADMIN_KEY)('/v2/admin/developer-keys')).status).toBe(200)
    } finally {
      await cluster.close()
      redis.stop()
    }
  })

  it('without REDIS_URL each instance counts alone (the single-instance default)', async () => {
    const cluster = await startCluster(2, { env: { RATE_LIMIT_REQUESTS: '5', RATE_LIMIT_WINDOW_SECONDS: '3600' } })
    try {
      const [a, b] = cluster.instances as [Instance, Instance]
      const statuses = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => (await api(i % 2 ? a : b)('/v2/usage')).status),
      )
      expect(statuses.filter((s) => s === 200)).toHaveLength(10)
    } finally {
      await cluster.close()
    }
  })
})

describe('rate limits with REDIS_URL while Redis is unreachable', () => {
  it('answer 503 (not 500, and not an unlimited pass); requests without a key are not affected', async () => {
    const server = await startServer({ env: { REDIS_URL: 'redis://127.0.0.1:9', RATE_LIMIT_REQUESTS: '5' } })
    try {
      const res = await api(server)('/v2/usage')
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({
        message: 'Service temporarily unavailable: the rate limiter cannot be reached.',
      })
      expect((await api(server, '')('/v2/usage')).status).toBe(403)
    } finally {
      await server.close()
    }
  })
})
