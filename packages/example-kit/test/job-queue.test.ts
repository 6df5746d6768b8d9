/**
 * The shared job queue: claims, leases renewed by a heartbeat, fenced completion, retries with back-off, LISTEN/NOTIFY
 * wake-ups — on SQLite (one instance) and on PostgreSQL with several queues, one of them in another process that is
 * killed or stalled mid-job.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../src/database.ts'
import { JobQueue, type ClaimedJob } from '../src/job-queue.ts'
import { createTestDatabase, postgresAvailable } from '../src/testing.ts'
import { migrations, type TestDb } from './_queue-fixtures.ts'

const pg = await postgresAvailable()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function until<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > end) throw new Error('timed out')
    await sleep(20)
  }
}

function record(by: string) {
  return (job: ClaimedJob) =>
    job
      .complete((trx) =>
        trx
          .insertInto('effects')
          .values({ ref: job.ref, by })
          .execute()
          .then(() => {}),
      )
      .then(() => {})
}

async function effects(database: Database<TestDb>) {
  return database.db.selectFrom('effects').selectAll().orderBy('ref').execute()
}

async function jobRow(database: Database<TestDb>, ref: string) {
  return database.db.selectFrom('background_jobs').selectAll().where('ref', '=', ref).executeTakeFirstOrThrow()
}

function queueOf(database: Database<TestDb>, options: ConstructorParameters<typeof JobQueue>[1] = {}) {
  const queue = new JobQueue(database, { pollMs: 50, log: () => {}, ...options })
  cleanups.push(() => queue.stop())
  return queue
}

describe('job queue on SQLite', () => {
  let dir: string
  let database: Database<TestDb>
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'job-queue-'))
    database = await openDatabase<TestDb>({ dataDir: dir, migrations })
  })
  afterAll(async () => {
    await database.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('runs each job once, delayed ones when due', async () => {
    const queue = queueOf(database).handle('work', record('a'))
    await queue.start()
    const started = Date.now()
    await queue.enqueue({ kind: 'work', ref: 's1' })
    await queue.enqueue({ kind: 'work', ref: 's2', delayMs: 300 })
    await until(async () => (await effects(database)).length === 2)
    expect(Date.now() - started).toBeGreaterThanOrEqual(300)
    expect((await effects(database)).map((e) => e.ref)).toEqual(['s1', 's2'])
    expect((await jobRow(database, 's2')).state).toBe('done')
  })

  it('retries a failing handler with doubling back-off, then gives up (fenced) when the attempts run out', async () => {
    const times: number[] = []
    const gaveUp: string[] = []
    const queue = queueOf(database, { backoffMs: 100 }).handle(
      'flaky',
      async (job) => {
        times.push(Date.now())
        if (job.ref === 'f1' && job.attempt < 3) throw new Error(`attempt ${job.attempt} failed`)
        if (job.ref === 'f2') throw new Error('always fails')
        await record('a')(job)
      },
      {
        maxAttempts: 3,
        giveUp: async (job, error, trx) =>
          void (gaveUp.push(`${job.ref}: ${error}`),
          await trx.insertInto('effects').values({ ref: job.ref, by: 'giveUp' }).execute()),
      },
    )
    await queue.start()
    await queue.enqueue({ kind: 'flaky', ref: 'f1' })
    await until(async () => (await jobRow(database, 'f1')).state === 'done')
    expect(times).toHaveLength(3)
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(100)
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(200)
    await queue.enqueue({ kind: 'flaky', ref: 'f2' })
    await until(async () => (await jobRow(database, 'f2')).state === 'failed')
    expect(gaveUp).toEqual(['f2: always fails'])
    expect(await jobRow(database, 'f2')).toMatchObject({ attempts: 3, last_error: 'always fails' })
    expect((await effects(database)).filter((e) => e.ref.startsWith('f'))).toEqual([
      { ref: 'f1', by: 'a' },
      { ref: 'f2', by: 'giveUp' },
    ])
  })
})

describe.runIf(pg)('job queue on PostgreSQL, several instances', () => {
  let db: { url: string; drop: () => Promise<void> }
  let database: Database<TestDb>
  beforeAll(async () => {
    db = await createTestDatabase('job_queue')
    database = await openDatabase<TestDb>({ databaseUrl: db.url, migrations })
  })
  afterAll(async () => {
    await database?.close()
    await db?.drop()
  })

  async function instance(name: string, options: ConstructorParameters<typeof JobQueue>[1] = {}) {
    const own = await openDatabase<TestDb>({ databaseUrl: db.url, migrations })
    cleanups.push(() => own.close())
    return queueOf(own, { instance: name, ...options })
  }

  it('two instances share the work: 40 jobs, each done exactly once', async () => {
    const seen: string[] = []
    const slow = (by: string) => async (job: ClaimedJob) => {
      seen.push(job.ref)
      await sleep(5)
      await record(by)(job)
    }
    const a = (await instance('a', { concurrency: 3 })).handle('share', slow('a'))
    const b = (await instance('b', { concurrency: 3 })).handle('share', slow('b'))
    await Promise.all([a.start(), b.start()])
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).enqueue({ kind: 'share', ref: `p${String(i).padStart(2, '0')}` }),
      ),
    )
    await until(async () => (await effects(database)).filter((e) => e.ref.startsWith('p')).length >= 40)
    await sleep(100)
    const done = (await effects(database)).filter((e) => e.ref.startsWith('p'))
    expect(done).toHaveLength(40)
    expect(new Set(done.map((e) => e.ref)).size).toBe(40)
    expect(seen).toHaveLength(40)
    expect(new Set(done.map((e) => e.by))).toEqual(new Set(['a', 'b']))
  })

  it('wakes another instance by NOTIFY, long before its next poll', async () => {
    const listener = (await instance('listener', { pollMs: 60_000 })).handle('notify', record('listener'))
    await listener.start()
    await sleep(100) // its first look is over; the next poll is a minute away
    const producer = await instance('producer')
    const sent = Date.now()
    await producer.enqueue({ kind: 'notify', ref: 'n1' })
    await until(async () => (await effects(database)).some((e) => e.ref === 'n1'), 5000)
    expect(Date.now() - sent).toBeLessThan(2000)
  })

  it('listens again after losing its LISTEN connection', async () => {
    const listener = (await instance('relisten', { pollMs: 60_000 })).handle('notify2', record('listener'))
    await listener.start()
    const admin = await openDatabase<TestDb>({ databaseUrl: db.url, migrations })
    cleanups.push(() => admin.close())
    const { rows } = await sql<{
      n: number
    }>`SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`.execute(
      admin.db,
    )
    expect(rows[0]!.n).toBe(1)
    await sleep(1500)
    const sent = Date.now()
    await (await instance('producer2')).enqueue({ kind: 'notify2', ref: 'n2' })
    await until(async () => (await effects(database)).some((e) => e.ref === 'n2'), 5000)
    expect(Date.now() - sent).toBeLessThan(2000)
  })

  /** A queue in another process that claims the job and holds it until told to go on. */
  async function child(leaseMs: number): Promise<{ process: ChildProcess; next: (key: string) => Promise<any> }> {
    const worker = fork(fileURLToPath(new URL('./_queue-worker.ts', import.meta.url)), [db.url, String(leaseMs)], {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    })
    cleanups.push(() => {
      worker.kill('SIGKILL')
    })
    const messages: any[] = []
    const waiters: Array<() => void> = []
    worker.on('message', (m) => {
      messages.push(m)
      waiters.splice(0).forEach((w) => w())
    })
    const next = async (key: string) => {
      const end = Date.now() + 20_000
      for (;;) {
        const i = messages.findIndex((m) => key in m)
        if (i >= 0) return messages.splice(i, 1)[0]
        if (Date.now() > end || worker.exitCode !== null) throw new Error(`no "${key}" from the worker`)
        await new Promise<void>((r) => {
          waiters.push(r)
          setTimeout(r, 100)
        })
      }
    }
    await next('ready')
    return { process: worker, next }
  }

  it('an instance killed mid-job: its lease expires, another instance finishes the job, exactly once', async () => {
    const c = await child(1500)
    const producer = await instance('producer')
    await producer.enqueue({ kind: 'work', ref: 'k1' })
    expect(await c.next('claimed')).toEqual({ claimed: 'k1' })
    const b = (await instance('b', { leaseMs: 1500 })).handle('work', record('b'))
    await b.start()
    await sleep(2500) // longer than the lease, but the child is alive: its heartbeat keeps the lease, b cannot take the job
    expect(await effects(database).then((e) => e.filter((x) => x.ref === 'k1'))).toEqual([])
    expect((await jobRow(database, 'k1')).owner).toMatch(/^child\//)
    c.process.kill('SIGKILL')
    await until(async () => (await jobRow(database, 'k1')).state === 'done')
    expect((await effects(database)).filter((e) => e.ref === 'k1')).toEqual([{ ref: 'k1', by: 'b' }])
    expect((await jobRow(database, 'k1')).attempts).toBe(2)
  })

  it('a worker stalled past its lease: the other instance finishes the job; the late completion is dropped', async () => {
    const c = await child(500)
    const producer = await instance('producer')
    await producer.enqueue({ kind: 'work', ref: 't1' })
    expect(await c.next('claimed')).toEqual({ claimed: 't1' })
    c.process.kill('SIGSTOP') // a real stall: no heartbeat, no progress
    const b = (await instance('b', { leaseMs: 500 })).handle('work', record('b'))
    await b.start()
    await until(async () => (await jobRow(database, 't1')).state === 'done')
    c.process.kill('SIGCONT')
    c.process.send('go')
    expect(await c.next('completed')).toMatchObject({ completed: 't1', won: false })
    expect((await effects(database)).filter((e) => e.ref === 't1')).toEqual([{ ref: 't1', by: 'b' }])
    expect((await jobRow(database, 't1')).owner).toMatch(/^b\//)
  })
})
