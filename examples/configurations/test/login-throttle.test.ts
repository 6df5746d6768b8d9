/**
 * POST /login backs off after failed logins, per username and per client address, with 429 and Retry-After; the
 * counts live in the database, so two instances on one database (PostgreSQL, and one SQLite file) share them.
 */
import { createTestDatabase, postgresAvailable } from '@routeless/example-kit/testing'
import pg from 'pg'
import { serve } from 'routeless/node'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createConfigurationsApp } from '../src/app.ts'
import { delayAfter, LoginThrottle, USERNAME_LIMITS } from '../src/login-throttle.ts'
import { openServices, type ServiceOptions } from '../src/services.ts'
import { ALICE, BOB, Client, forEachDatabase, type TestDatabase } from './harness.ts'

const WRONG = { username: 'alice', password: 'wrong' }

interface Instance {
  client(): Client
  /** How many passwords this instance has checked (each a scrypt). */
  checked(): number
  db: Awaited<ReturnType<typeof openServices>>['db']
  close(): Promise<void>
}

/** One API process on a database that may already hold data (the users are saved again, which changes nothing). */
async function instance(options: ServiceOptions): Promise<Instance> {
  const opened = await openServices(options)
  await opened.services.users.save(ALICE.username, ALICE.password)
  await opened.services.users.save(BOB.username, BOB.password)
  let checked = 0
  const users = opened.services.users
  const authenticate = users.authenticate.bind(users)
  users.authenticate = (username, password) => {
    checked++
    return authenticate(username, password)
  }
  const server = await serve(await createConfigurationsApp(opened.services), { port: 0 })
  return {
    client: () => new Client(server.url),
    checked: () => checked,
    db: opened.db,
    async close() {
      await server.close()
      await opened.close()
    },
  }
}

describe('delayAfter', () => {
  it('is free for the first failures, then 1 s doubling up to the cap', () => {
    expect([5, 6, 7, 8, 9].map((n) => delayAfter(n, USERNAME_LIMITS))).toEqual([0, 1000, 2000, 4000, 8000])
    expect(delayAfter(100, USERNAME_LIMITS)).toBe(15 * 60_000)
    expect(delayAfter(1e9, USERNAME_LIMITS)).toBe(15 * 60_000)
  })
})

forEachDatabase((database: TestDatabase) => {
  let clock = Date.now()
  let drop: () => Promise<void>
  let options: ServiceOptions
  let a: Instance
  let b: Instance

  beforeEach(async () => {
    clock = Date.now()
    const created = await database.create()
    drop = created.drop
    options = { ...created.options, now: () => clock }
    a = await instance(options)
    b = await instance(options)
  })
  afterEach(async () => {
    await a.close()
    await b.close()
    await drop()
  })

  it('gives a username five failures, then answers 429 with Retry-After, and doubles the wait', async () => {
    const client = a.client()
    for (let i = 0; i < 6; i++) expect((await client.post('/login', WRONG)).status).toBe(401)
    const blocked = await client.post('/login', ALICE) // even the right password waits
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('retry-after')).toBe('1')
    expect(blocked.body).toEqual({
      status: 429,
      error: 'Too Many Requests',
      message: 'Too many failed logins: try again in 1 s',
    })
    expect(blocked.headers.get('set-cookie')).toBeNull()
    clock += 1000
    expect((await client.post('/login', WRONG)).status).toBe(401)
    const longer = await client.post('/login', WRONG)
    expect(longer.status).toBe(429)
    expect(longer.headers.get('retry-after')).toBe('2')
    clock += 2000
    const ok = await client.post('/login', ALICE)
    expect(ok.status).toBe(200)
    // A success starts the username over: five free failures again.
    for (let i = 0; i < 6; i++) expect((await client.post('/login', WRONG)).status).toBe(401)
    expect((await client.post('/login', WRONG)).status).toBe(429)
  })

  it('holds across two instances on one database: failures on one block the other', async () => {
    for (let i = 0; i < 6; i++) expect((await a.client().post('/login', WRONG)).status).toBe(401)
    const other = await b.client().post('/login', ALICE)
    expect(other.status).toBe(429)
    expect(Number(other.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // Another username is not blocked (the client has 14 failures left).
    expect((await b.client().post('/login', BOB)).status).toBe(200)
    clock += 1000
    expect((await b.client().post('/login', ALICE)).status).toBe(200)
  })

  it('40 concurrent wrong passwords for one user, split over both instances: 6 are checked, 34 answer 429', async () => {
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).client().post('/login', { username: 'alice', password: `wrong-${i}` }),
      ),
    )
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(6)
    expect(statuses.filter((s) => s === 429)).toHaveLength(34)
    expect(a.checked() + b.checked()).toBe(6) // the refused ones cost no scrypt
    for (const reply of replies.filter((r) => r.status === 429)) {
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(reply.body).toMatchObject({ status: 429, error: 'Too Many Requests' })
    }
    const row = await a.db
      .selectFrom('login_failures')
      .select('failures')
      .where('subject', 'like', 'username:%')
      .executeTakeFirstOrThrow()
    expect(Number(row.failures)).toBe(6)
    expect((await a.client().post('/login', ALICE)).status).toBe(429)
    // Bob, from the same address, is not blocked: the client has 6 of its 20 failures.
    expect((await b.client().post('/login', BOB)).status).toBe(200)
  })

  it('40 concurrent wrong logins for 40 usernames from one client: 21 are checked, 19 answer 429', async () => {
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).client().post('/login', { username: `user${i}`, password: 'guess' }),
      ),
    )
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(21)
    expect(statuses.filter((s) => s === 429)).toHaveLength(19)
    expect(a.checked() + b.checked()).toBe(21)
    // The refused attempts charged no username either: each of them still has its five free failures.
    const usernames = await a.db
      .selectFrom('login_failures')
      .select('failures')
      .where('subject', 'like', 'username:%')
      .execute()
    expect(usernames).toHaveLength(21)
  })

  it('a successful login does not count against its client, nor keep a block it set', async () => {
    for (let i = 0; i < 19; i++) {
      expect((await a.client().post('/login', { username: `user${i}`, password: 'guess' })).status).toBe(401)
    }
    for (let i = 0; i < 10; i++) expect((await b.client().post('/login', BOB)).status).toBe(200)
    expect((await a.client().post('/login', { username: 'user19', password: 'guess' })).status).toBe(401)
    // The 21st attempt from the client earns it a block; as it succeeds, the block goes.
    expect((await b.client().post('/login', BOB)).status).toBe(200)
    expect((await b.client().post('/login', BOB)).status).toBe(200)
    expect((await a.client().post('/login', { username: 'user20', password: 'guess' })).status).toBe(401)
    expect((await b.client().post('/login', BOB)).status).toBe(429)
  })

  it('limits a client spraying many usernames, whichever instance it reaches', async () => {
    for (let i = 0; i < 20; i++) {
      const reply = await (i % 2 ? a : b).client().post('/login', { username: `user${i}`, password: 'guess' })
      expect(reply.status).toBe(401)
    }
    expect((await a.client().post('/login', { username: 'user99', password: 'guess' })).status).toBe(401)
    const blocked = await b.client().post('/login', BOB)
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('retry-after')).toBe('1')
  })

  it('100 wrong passwords in a row check at most six of them, and forget after 15 quiet minutes', async () => {
    const client = a.client()
    const statuses: number[] = []
    for (let i = 0; i < 100; i++) statuses.push((await client.post('/login', WRONG)).status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(6)
    expect(statuses.filter((s) => s === 429)).toHaveLength(94)
    clock += 15 * 60_000 + 1
    for (let i = 0; i < 5; i++) expect((await client.post('/login', WRONG)).status).toBe(401)
    expect((await client.post('/login', ALICE)).status).toBe(200)
  })
})

describe.skipIf(!(await postgresAvailable()))(
  'PostgreSQL: a success deletes the username row while an attempt waits on it',
  () => {
    it('charges the attempt afresh instead of failing with a 500', async () => {
      const { url, drop } = await createTestDatabase('throttle')
      const opened = await openServices({ databaseUrl: url })
      const holder = new pg.Client({ connectionString: url })
      const watcher = new pg.Client({ connectionString: url })
      try {
        await Promise.all([holder.connect(), watcher.connect()])
        const throttle = new LoginThrottle(opened.db)
        expect((await throttle.attempt('alice', '192.0.2.1')).waitMs).toBe(0)
        // Hold alice's row as a concurrent attempt's transaction would, so the next charge's UPDATE waits on it...
        await holder.query('BEGIN')
        await holder.query(`SELECT 1 FROM login_failures WHERE subject LIKE 'username:%' FOR UPDATE`)
        const waiting = throttle.attempt('alice', '192.0.2.1')
        for (let i = 0; ; i++) {
          const { rows } = await watcher.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
          if (rows[0].n > 0) break
          if (i > 500) throw new Error('the charge never waited on the row')
          await new Promise((resolve) => setTimeout(resolve, 10))
        }
        // ...then delete it, as a successful login of alice does, and let the UPDATE find nothing.
        await holder.query(`DELETE FROM login_failures WHERE subject LIKE 'username:%'`)
        await holder.query('COMMIT')
        expect((await waiting).waitMs).toBe(0)
        const { rows } = await watcher.query(`SELECT failures FROM login_failures WHERE subject LIKE 'username:%'`)
        expect(rows).toEqual([{ failures: 1 }])
      } finally {
        await Promise.allSettled([holder.end(), watcher.end()])
        await opened.close()
        await drop()
      }
    })
  },
)
