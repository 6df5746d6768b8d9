import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createTestDatabase, postgresAvailable } from '@routeless/example-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../src/cli.ts'
import { V3Client } from './helpers/client.ts'
import { ekyc } from './helpers/fixtures.ts'
import { startReceiver } from './helpers/receiver.ts'
import { API_KEY, PARTNER_ID, SERVER_SECRET, startServer } from './helpers/server.ts'

const pg = await postgresAvailable()

/** The same storage checks on both databases. */
function storageSuite(name: string, target: () => { dataDir?: string; databaseUrl?: string }) {
  describe(`storage on ${name}`, () => {
    it('keeps pending jobs across a restart and finishes them with their callback', async () => {
      const receiver = await startReceiver()
      const first = await startServer({ ...target(), worker: false })
      const client = new V3Client(first.url, PARTNER_ID, API_KEY)
      const res = await client.post('/v3/enhanced_kyc', ekyc({ callback_url: receiver.url }), {
        'User-ID': 'restart-user',
      })
      expect(res.status).toBe(202)
      expect((await client.get(`/v3/status/${res.body.job_id}`)).status).toBe(202)
      await first.stop()

      const second = await startServer({ ...target() })
      try {
        const again = new V3Client(second.url, PARTNER_ID, API_KEY)
        again.token = client.token // tokens survive the restart: the signing key comes from the server secret
        const done = await again.waitUntilComplete(res.body.job_id)
        expect(done.status).toBe(200)
        expect(again.tokenFetches).toBe(0)
        const [callback] = await receiver.waitFor(1)
        expect(JSON.parse(callback!.body)).toMatchObject({
          job_id: res.body.job_id,
          user_id: 'restart-user',
          status: 'clear',
        })
        const replay = await again.post(`/v3/replay/${res.body.job_id}`, undefined)
        expect(replay.status).toBe(202)
        await receiver.waitFor(2)
      } finally {
        await second.stop()
        await receiver.close()
      }
    })

    it('registers the configured partner with a hashed key, and the CLI adds partners and keys', async () => {
      const server = await startServer({ ...target() })
      try {
        const row = await server.services.db
          .selectFrom('api_keys')
          .selectAll()
          .where('partner_id', '=', PARTNER_ID)
          .executeTakeFirstOrThrow()
        expect(row.hash).toMatch(/^scrypt\$/)
        expect(JSON.stringify(row)).not.toContain(API_KEY)
      } finally {
        await server.stop()
      }
      const lines: string[] = []
      const env = { DATA_DIR: target().dataDir, DATABASE_URL: target().databaseUrl, SERVER_SECRET }
      const saved = { ...process.env }
      Object.assign(process.env, Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)))
      try {
        expect(
          await runCli(
            ['partner', 'create', '0777', '--name', 'Acme', '--callback-url', 'https://acme.example/hook'],
            (l) => lines.push(l),
          ),
        ).toBe(0)
        expect(await runCli(['partner', 'create', 'abc'], (l) => lines.push(l))).toBe(1)
        expect(await runCli(['nonsense'], (l) => lines.push(l))).toBe(2)
      } finally {
        process.env = saved
      }
      const created = JSON.parse(lines[0]!)
      expect(created).toMatchObject({ partner_id: '777', key_id: expect.stringMatching(/^key_/) })
      expect(lines[1]).toMatch(/^error: partner id must be a positive number/)

      const server2 = await startServer({ ...target() })
      try {
        const acme = new V3Client(server2.url, '777', created.api_key)
        const res = await acme.post('/v3/enhanced_kyc', ekyc({ callback_url: undefined }))
        expect(res.status).toBe(202)
        expect((await server2.services.jobs.get(res.body.job_id))!.callbackUrl).toBe('https://acme.example/hook')
      } finally {
        await server2.stop()
      }
    })
  })
}

let dataDir: string
beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'verification-storage-'))
})
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
storageSuite('SQLite', () => ({ dataDir }))

let database: { url: string; drop: () => Promise<void> } | undefined
describe.runIf(pg)('PostgreSQL', () => {
  beforeAll(async () => {
    database = await createTestDatabase('verification')
  })
  afterAll(() => database?.drop())
  storageSuite('PostgreSQL', () => ({ databaseUrl: database!.url, dataDir }))
})
