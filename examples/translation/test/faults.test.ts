/**
 * Faults: two instances of the API on one PostgreSQL and one Redis — the test's own (example-kit private-servers.ts),
 * never the shared cluster — under steady traffic (translations, and document jobs on the shared queue). PostgreSQL is
 * restarted, then Redis stopped and started: every instance recovers by itself, `/readyz` answers 503 naming the
 * dependency while it is down, requests meanwhile get a clear 503 (never a 500, never a hang), and every document job
 * accepted is done once — billed once, whichever instance ran it and however often its work was redone.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  PG_BIN,
  type PrivatePostgres,
  type PrivateRedis,
  startPrivatePostgres,
  startPrivateRedis,
} from '@routeless/example-kit/testing'
import { serve } from 'routeless/node'
import { describe, expect, it } from 'vitest'
import { redisAvailable } from '../../../test/_redis.ts'
import { createTranslationApp, type TranslationApp } from '../src/app.ts'
import { readConfig } from '../src/config.ts'
import { ADMIN_KEY, API_KEY } from './_server.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const DB_DOWN = 'Service temporarily unavailable: the database cannot be reached.'
const LIMITER_DOWN = 'Service temporarily unavailable: the rate limiter cannot be reached.'

interface Instance {
  url: string
  app: TranslationApp
  stop(): Promise<void>
}

interface Call {
  what: string
  status: number
  message?: string
  ms: number
  error?: string
}

async function startInstance(databaseUrl: string, redisUrl: string, dirs: string[]): Promise<Instance> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'translation-faults-'))
  dirs.push(dataDir)
  const config = readConfig({
    ADMIN_KEY,
    API_KEY,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    RATE_LIMIT_REQUESTS: '100000',
    JOB_LEASE_MS: '1500',
    JOB_POLL_MS: '100',
  })
  const app = await createTranslationApp(config)
  const server = await serve(app, { port: 0 })
  return {
    url: server.url,
    app,
    stop: async () => {
      await server.close()
      await app.close()
    },
  }
}

/** One request with a key; its status, its message when it is not a 200, and how long it took. */
async function call(calls: Call[], url: string, key: string, what: string, body: FormData | URLSearchParams) {
  const started = Date.now()
  try {
    const res = await fetch(`${url}${what}`, {
      method: 'POST',
      headers: { authorization: `DeepL-Auth-Key ${key}` },
      body,
      signal: AbortSignal.timeout(15_000),
    })
    const json = (await res.json()) as Record<string, unknown>
    const entry: Call = { what, status: res.status, ms: Date.now() - started }
    if (res.status !== 200) entry.message = String(json.message)
    calls.push(entry)
    return res.status === 200 ? json : undefined
  } catch (error) {
    calls.push({ what, status: 0, ms: Date.now() - started, error: String(error) })
    return undefined
  }
}

async function readiness(instance: Instance): Promise<[number, { status: string; down: string[] }]> {
  const res = await fetch(`${instance.url}/readyz`, { signal: AbortSignal.timeout(5000) })
  return [res.status, (await res.json()) as { status: string; down: string[] }]
}

/** Polls until every instance's /readyz says `status`; resolves with what they said last. */
async function until(instances: Instance[], status: number, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs
  for (;;) {
    const said = await Promise.all(instances.map(readiness))
    if (said.every(([s]) => s === status)) return said
    if (Date.now() > end) throw new Error(`readiness still ${JSON.stringify(said)}`)
    await sleep(100)
  }
}

describe.runIf(PG_BIN && redisAvailable())('two instances while PostgreSQL restarts and Redis stops', () => {
  it('recover by themselves: 503 while a dependency is down (never a 500 or a hang), every job done once', {
    timeout: 110_000,
  }, async () => {
    const dirs: string[] = []
    let pg: PrivatePostgres | undefined
    let redis: PrivateRedis | undefined
    const instances: Instance[] = []
    let traffic = true
    try {
      pg = await startPrivatePostgres()
      redis = await startPrivateRedis()
      instances.push(await startInstance(pg.url, redis.url, dirs))
      instances.push(await startInstance(pg.url, redis.url, dirs))
      const [a, b] = instances as [Instance, Instance]
      expect(await until(instances, 200)).toEqual([
        [200, { status: 'ready', down: [], checks: { database: 'up', redis: 'up' } }],
        [200, { status: 'ready', down: [], checks: { database: 'up', redis: 'up' } }],
      ])
      // Documents bill their own key, so that its usage is what the jobs settled.
      const docKey = await a.app.services.keys.create({ admin: false })

      const calls: Call[] = []
      const accepted: { id: string; key: string; text: string }[] = []
      const translations = (async () => {
        for (let n = 0; traffic; n++) {
          const form = new URLSearchParams({ text: 'Hello', target_lang: 'de' })
          await call(calls, (n % 2 ? a : b).url, API_KEY, '/v2/translate', form)
          await sleep(20)
        }
      })()
      const uploads = (async () => {
        for (let n = 0; traffic; n++) {
          const text = ['Good night', 'Thank you', 'Welcome'][n % 3]!
          const form = new FormData()
          form.append('target_lang', 'de')
          form.append('file', new Blob([text]), `d${n}.txt`)
          const doc = await call(calls, (n % 2 ? b : a).url, docKey.secret, '/v2/document', form)
          if (doc) accepted.push({ id: String(doc.document_id), key: String(doc.document_key), text })
          await sleep(50)
        }
      })()

      await sleep(1000)
      // 1. PostgreSQL restarts (a fast shutdown: every connection is cut).
      await pg.stop()
      const dbDown = await until(instances, 503)
      for (const [, report] of dbDown) expect(report).toMatchObject({ status: 'not ready', down: ['database'] })
      await sleep(1500)
      const duringDb = calls.length
      await pg.start()
      await until(instances, 200)
      await sleep(1000)
      // 2. Redis stops, then starts (empty: nothing is saved).
      await redis.stop()
      const redisDown = await until(instances, 503)
      for (const [, report] of redisDown) expect(report).toMatchObject({ status: 'not ready', down: ['redis'] })
      await sleep(1500)
      await redis.start()
      await until(instances, 200)
      await sleep(1000)
      traffic = false
      await Promise.all([translations, uploads])

      // Every answer a 200 or a clear 503, none slow; the outages were seen, and the traffic recovered after each.
      const odd = calls.filter((c) => c.status !== 200 && c.status !== 503)
      expect(odd).toEqual([])
      const unavailable = calls.filter((c) => c.status === 503)
      expect(new Set(unavailable.map((c) => c.message))).toEqual(new Set([DB_DOWN, LIMITER_DOWN]))
      expect(Math.max(...calls.map((c) => c.ms))).toBeLessThan(5000)
      expect(calls.slice(duringDb).some((c) => c.status === 200)).toBe(true)
      expect(calls.slice(-4).every((c) => c.status === 200)).toBe(true)

      // Every accepted document is translated, its job done once, its characters billed once.
      expect(accepted.length).toBeGreaterThan(4)
      const db = a.app.database.db
      const end = Date.now() + 30_000
      for (;;) {
        const waiting = await db
          .selectFrom('documents')
          .select('document_id')
          .where('status', 'in', ['queued', 'translating'])
          .execute()
        if (waiting.length === 0) break
        if (Date.now() > end) throw new Error(`${waiting.length} documents still waiting`)
        await sleep(100)
      }
      const docs = await db
        .selectFrom('documents')
        .select(['document_id', 'status', 'billed_characters'])
        .where(
          'document_id',
          'in',
          accepted.map((d) => d.id),
        )
        .execute()
      expect(docs.map((d) => d.status)).toEqual(accepted.map(() => 'done'))
      const jobs = await db
        .selectFrom('background_jobs')
        .select(['ref', 'state'])
        .where(
          'ref',
          'in',
          accepted.map((d) => d.id),
        )
        .execute()
      expect(jobs.map((j) => j.state).sort()).toEqual(accepted.map(() => 'done'))
      expect(new Set(jobs.map((j) => j.ref)).size).toBe(accepted.length)
      const billed = accepted.reduce((n, d) => n + d.text.length, 0)
      const usage = (await (
        await fetch(`${b.url}/v2/usage`, { headers: { authorization: `DeepL-Auth-Key ${docKey.secret}` } })
      ).json()) as { character_count: number }
      expect(usage.character_count).toBe(billed)
    } finally {
      traffic = false
      for (const i of instances) await i.stop().catch(() => {})
      await redis?.destroy()
      await pg?.destroy()
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    }
  })
})
