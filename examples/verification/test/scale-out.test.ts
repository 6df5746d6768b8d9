/**
 * Scale-out on PostgreSQL: two instances of the service on one database, requests spread over both (issue 14). Each
 * test reproduces one failure a multi-instance deployment had, and checks it no longer happens.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createTestDatabase, postgresAvailable, startChildInstance } from '@routeless/example-kit/testing'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { V3Client } from './helpers/client.ts'
import { ekyc } from './helpers/fixtures.ts'
import { startReceiver } from './helpers/receiver.ts'
import { API_KEY, PARTNER_ID, SERVER_SECRET, startServer, type TestServer } from './helpers/server.ts'

const hasPostgres = await postgresAvailable()
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url))

/** Two instances started together on a fresh database. */
async function twoInstances(
  config: Parameters<typeof startServer>[0] = {},
): Promise<{ a: TestServer; b: TestServer; close(): Promise<void> }> {
  const database = await createTestDatabase('verification_scale')
  const started = await Promise.allSettled([
    startServer({ ...config, databaseUrl: database.url }),
    startServer({ ...config, databaseUrl: database.url }),
  ])
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
  const close = async () => {
    await Promise.allSettled(servers.map((s) => s.close()))
    await database.drop()
  }
  const failed = started.find((s) => s.status === 'rejected')
  if (failed) {
    await close()
    throw (failed as PromiseRejectedResult).reason
  }
  return { a: servers[0]!, b: servers[1]!, close }
}

describe.runIf(hasPostgres)('two instances on one PostgreSQL', () => {
  it('start together: the configured partner key is registered once, without a duplicate-key crash', async () => {
    for (let round = 0; round < 3; round++) {
      const { a, b, close } = await twoInstances()
      try {
        const keys = await a.services.db
          .selectFrom('api_keys')
          .select('id')
          .where('partner_id', '=', PARTNER_ID)
          .execute()
        expect(keys).toHaveLength(1)
        for (const server of [a, b])
          expect((await new V3Client(server.url, PARTNER_ID, API_KEY).get('/v3/hosted_links')).status).toBe(200)
      } finally {
        await close()
      }
    }
  })

  it('a single-use hosted link submitted 6 times at once across both instances → exactly 1 job and 1 callback', async () => {
    const receiver = await startReceiver()
    const { a, b, close } = await twoInstances()
    try {
      const client = new V3Client(a.url, PARTNER_ID, API_KEY)
      const created = await client.post('/v3/hosted_links', {
        id_types: [{ country: 'NG', id_type: 'NIN', verification_method: 'biometric_kyc' }],
        name: 'Once',
        notice_privacy_policy_url: 'https://example.com/privacy',
        is_single_use: 'true',
        callback_url: receiver.url,
      })
      expect(created.status).toBe(201)
      const path = new URL(created.body.link).pathname
      const submit = (server: TestServer) => {
        const form = new FormData()
        for (const [k, v] of Object.entries({
          choice: '0',
          given_names: 'Amina',
          last_name: 'Clearwater',
          email: 'a@example.com',
          id_number: '12345678901',
          consent: 'granted',
        }))
          form.append(k, v)
        form.append('selfie_image', new Blob([fixture('selfie.jpg')], { type: 'image/jpeg' }), 'selfie.jpg')
        form.append('document', new Blob([fixture('document.png')], { type: 'image/png' }), 'document.png')
        return fetch(server.url + path, { method: 'POST', body: form, redirect: 'manual' })
      }
      const answers = await Promise.all([a, b, a, b, a, b].map(submit))
      const statuses = answers.map((r) => r.status).sort()
      expect(statuses).toEqual([303, 410, 410, 410, 410, 410])
      const jobs = await a.services.db
        .selectFrom('jobs')
        .select('id')
        .where('hosted_link_id', '=', created.body.ref_id)
        .execute()
      expect(jobs).toHaveLength(1)
      const [callback] = await receiver.waitFor(1)
      expect(JSON.parse(callback!.body)).toMatchObject({ job_id: jobs[0]!.id, hosted_link: created.body.ref_id })
      await new Promise((r) => setTimeout(r, 500))
      expect(receiver.received).toHaveLength(1)
    } finally {
      await close()
      await receiver.close()
    }
  })

  it('a worker stalled past its lease: the other instance decides the job; the result and callback of the stalled one are dropped', async () => {
    const receiver = await startReceiver()
    const database = await createTestDatabase('verification_stall')
    const b = await startServer({ databaseUrl: database.url, worker: false, config: { jobLeaseMs: 800 } })
    const locker = new pg.Client({ connectionString: database.url })
    let a: Awaited<ReturnType<typeof startChildInstance>> | undefined
    try {
      a = await startChildInstance(MAIN, {
        DATABASE_URL: database.url,
        PARTNER_ID,
        API_KEY,
        SERVER_SECRET,
        JOB_LEASE_MS: '800',
        SANDBOX_DELAY_MS: '0',
        WORKER_POLL_MS: '100',
      })
      // Deciding reads fraud_reports first: holding that table makes a worker that claimed the job wait right there.
      await locker.connect()
      await locker.query('BEGIN; LOCK TABLE fraud_reports IN ACCESS EXCLUSIVE MODE')
      const res = await new V3Client(a.url, PARTNER_ID, API_KEY).post(
        '/v3/enhanced_kyc',
        ekyc({ callback_url: receiver.url }),
        { 'User-ID': 'stalled-user' },
      )
      expect(res.status).toBe(202)
      const queued = () =>
        b.services.db
          .selectFrom('background_jobs')
          .selectAll()
          .where('ref', '=', res.body.job_id)
          .executeTakeFirstOrThrow()
      const end = Date.now() + 10_000
      while (!(await queued()).owner?.includes(`:${a.child.pid}/`)) {
        if (Date.now() > end) throw new Error('instance A did not claim the job')
        await sleep(20)
      }
      await sleep(100)
      a.child.kill('SIGSTOP') // A holds the job mid-decision and freezes: no heartbeat, no progress
      await b.service.worker.start()
      while (!(await queued()).owner?.includes(`:${process.pid}/`)) {
        if (Date.now() > end + 10_000) throw new Error('instance B did not take over the job')
        await sleep(20)
      }
      await locker.query('COMMIT')
      const [callback] = await receiver.waitFor(1)
      expect(JSON.parse(callback!.body)).toMatchObject({ job_id: res.body.job_id, user_id: 'stalled-user' })
      a.child.kill('SIGCONT') // A wakes up and finishes its (late) decision
      await sleep(1500)
      expect(receiver.received).toHaveLength(1)
      expect(await b.services.deliveries.listForJob(res.body.job_id)).toHaveLength(1)
      expect(await queued()).toMatchObject({ state: 'done', attempts: 2 })
    } finally {
      await locker.end().catch(() => {})
      await a?.kill()
      await b.close()
      await database.drop()
      await receiver.close()
    }
  })
})
