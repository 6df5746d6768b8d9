/**
 * Background work for the examples, safe with any number of instances on one database.
 *
 * A job is a row of `background_jobs` naming a handler (`kind`) and the domain row it works on (`ref`). A worker
 * claims due jobs — `FOR UPDATE SKIP LOCKED` on PostgreSQL; one `UPDATE … RETURNING` on SQLite, whose single writer
 * makes it atomic — and holds each under a lease that a heartbeat renews while the handler runs. A claim has a
 * unique owner token: only the owner can complete the job, and completion runs the handler's side effects in the same
 * transaction as the fenced `UPDATE`, so a worker that stalled past its lease (and lost the job to another) has its
 * result and side effects dropped — `complete` answers false. A failed attempt is retried with doubling back-off;
 * when the attempts run out the kind's `giveUp` runs (fenced too). Instances are woken by LISTEN/NOTIFY on
 * PostgreSQL and by polling (plus in-process wake-ups) on SQLite. Nothing is "resumed" at start-up: a job whose
 * owner died is simply claimable once its lease has expired.
 *
 * Why not pg-boss or graphile-worker: both are PostgreSQL-only (the examples keep SQLite as their default), and
 * neither lets a handler write its results in the transaction that proves it still holds the job — the fence this
 * queue is built around.
 */
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { sql, type Kysely, type Transaction } from 'kysely'
import pg from 'pg'
import type { Database } from './database.ts'
import type { BackgroundJobsTable } from './job-table.ts'

export const JOB_CHANNEL = 'background_jobs'

type QueueDb = Kysely<{ background_jobs: BackgroundJobsTable }>
/** Side effects of a completion, run inside its fenced transaction. */
export type Effects = (trx: Transaction<any>) => Promise<void>

export interface NewJob {
  kind: string
  ref: string
  /** Run no earlier than this many ms from now (default 0). */
  delayMs?: number
  /** Attempts before `giveUp` (default: the kind's, else 5). */
  maxAttempts?: number
}

/** A job this worker holds. */
export interface ClaimedJob {
  id: string
  kind: string
  ref: string
  /** 1 on the first claim. */
  attempt: number
  /** Aborted when the heartbeat finds the lease lost (another worker may hold the job now). */
  signal: AbortSignal
  /** Marks the job done and runs `effects` in the same transaction — only if this worker still owns it. */
  complete(effects?: Effects): Promise<boolean>
  /**
   * Records a failed attempt (fenced like `complete`): the job is ready again after `delayMs` (default: the doubling
   * back-off), or failed — with the kind's `giveUp` — once its attempts are used up. `effects` run in that transaction.
   */
  retry(error: unknown, options?: { delayMs?: number; effects?: Effects }): Promise<boolean>
}

export interface KindOptions {
  maxAttempts?: number
  /** Runs (fenced, in the transaction that marks the job failed) when the attempts are used up. */
  giveUp?: (
    job: Pick<ClaimedJob, 'id' | 'kind' | 'ref' | 'attempt'>,
    error: string,
    trx: Transaction<any>,
  ) => Promise<void>
}

export interface JobQueueOptions {
  /** Name of this instance in `owner` (default host:pid). */
  instance?: string
  /** How long a claim holds a job without a heartbeat (default 30 s). */
  leaseMs?: number
  /** Heartbeat period (default a third of the lease). */
  heartbeatMs?: number
  /** Longest sleep between looks for due jobs (default 1 s; LISTEN/NOTIFY and timers usually wake sooner). */
  pollMs?: number
  /** Handlers running at the same time in this instance (default 4). */
  concurrency?: number
  /** First retry delay, doubled per attempt up to `maxBackoffMs` (defaults 1 s and 5 min). */
  backoffMs?: number
  maxBackoffMs?: number
  log?: (message: string, error?: unknown) => void
}

interface Claim {
  id: string
  kind: string
  ref: string
  attempts: number
  max_attempts: number
  /** This claim's token: the fence of every write about the job. */
  owner: string
}

interface Running {
  job: ClaimedJob
  owner: string
  abort: AbortController
}

export class JobQueue {
  private readonly handlers = new Map<string, { run: (job: ClaimedJob) => Promise<void>; options: KindOptions }>()
  private readonly running = new Map<string, Running>()
  private readonly tasks = new Set<Promise<void>>()
  private readonly db: QueueDb
  private readonly o: Required<Omit<JobQueueOptions, 'log'>> & Pick<JobQueueOptions, 'log'>
  private timer: NodeJS.Timeout | undefined
  private heartbeat: NodeJS.Timeout | undefined
  private listener: pg.Client | undefined
  private looking: Promise<void> | undefined
  private again = false
  private started = false
  private stopped = false

  constructor(
    private readonly database: Database<any>,
    options: JobQueueOptions = {},
  ) {
    this.db = database.db as unknown as QueueDb
    const leaseMs = options.leaseMs ?? 30_000
    this.o = {
      instance: options.instance ?? `${hostname()}:${process.pid}`,
      leaseMs,
      heartbeatMs: options.heartbeatMs ?? Math.max(10, Math.floor(leaseMs / 3)),
      pollMs: options.pollMs ?? 1000,
      concurrency: options.concurrency ?? 4,
      backoffMs: options.backoffMs ?? 1000,
      maxBackoffMs: options.maxBackoffMs ?? 300_000,
      log: options.log,
    }
  }

  /** Registers the handler of a kind. A handler that throws is retried; one that returns must have completed. */
  handle(kind: string, run: (job: ClaimedJob) => Promise<void>, options: KindOptions = {}): this {
    this.handlers.set(kind, { run, options })
    return this
  }

  /**
   * Adds a job; pass the transaction that writes its domain row so both commit together (on PostgreSQL the NOTIFY
   * is sent at commit; call `wake()` after the commit to have this instance look at once). Returns the job id.
   */
  async enqueue(job: NewJob, trx: Kysely<any> = this.db): Promise<string> {
    const id = randomBytes(12).toString('hex')
    const now = Date.now()
    await (trx as unknown as QueueDb)
      .insertInto('background_jobs')
      .values({
        id,
        kind: job.kind,
        ref: job.ref,
        state: 'ready',
        run_at: now + (job.delayMs ?? 0),
        attempts: 0,
        max_attempts: job.maxAttempts ?? this.handlers.get(job.kind)?.options.maxAttempts ?? 5,
        owner: null,
        lease_until: null,
        last_error: null,
        created_at: now,
        finished_at: null,
      })
      .execute()
    if (this.database.dialect === 'postgres') await sql`SELECT pg_notify(${JOB_CHANNEL}, ${job.kind})`.execute(trx)
    if (trx === (this.db as unknown)) this.wake()
    return id
  }

  /** Starts claiming: LISTEN on PostgreSQL, then a first look for due jobs. */
  async start(): Promise<void> {
    if (this.started) return
    this.started = true
    if (this.database.dialect === 'postgres' && this.database.url) await this.listen(this.database.url)
    this.heartbeat = setInterval(() => void this.renewLeases(), this.o.heartbeatMs)
    this.heartbeat.unref?.()
    this.wake()
  }

  /** Looks for due jobs now (a wake-up; cheap when there are none). */
  wake(): void {
    if (!this.started || this.stopped) return
    if (this.looking) {
      this.again = true
      return
    }
    clearTimeout(this.timer)
    this.looking = this.look()
      .catch((error) => this.log('job queue: claiming failed', error))
      .finally(() => {
        this.looking = undefined
        if (this.again) {
          this.again = false
          this.wake()
        }
      })
  }

  /** Stops claiming and waits for the handlers running (their leases are renewed until they end). */
  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    await this.looking
    await Promise.allSettled([...this.tasks])
    clearInterval(this.heartbeat)
    const listener = this.listener
    this.listener = undefined
    await listener?.end().catch(() => {})
  }

  /** Jobs this instance is running now (ids). */
  get active(): string[] {
    return [...this.running.keys()]
  }

  private async look(): Promise<void> {
    const free = this.o.concurrency - this.running.size
    if (free > 0 && this.handlers.size > 0) {
      const claimed = await this.claim(free)
      for (const job of claimed) this.run(job)
      if (claimed.length === free) this.again = true
    }
    await this.scheduleNext()
  }

  /** Sleeps until the next ready job is due, at most `pollMs` (expired leases and other instances' jobs). */
  private async scheduleNext(): Promise<void> {
    if (this.stopped || this.handlers.size === 0) return
    const next = await this.db
      .selectFrom('background_jobs')
      .select((eb) => eb.fn.min<number | string>('run_at').as('at'))
      .where('state', '=', 'ready')
      .where('kind', 'in', [...this.handlers.keys()])
      .executeTakeFirst()
    const dueIn = next?.at == null ? this.o.pollMs : Math.max(0, Number(next.at) - Date.now())
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.wake(), Math.min(this.o.pollMs, dueIn) + 1)
    this.timer.unref?.()
  }

  private async claim(limit: number): Promise<Claim[]> {
    const now = Date.now()
    const owner = `${this.o.instance.slice(0, 60)}/${randomBytes(6).toString('hex')}`
    const kinds = [...this.handlers.keys()]
    const lock = this.database.dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``
    const { rows } = await sql<Omit<Claim, 'owner'>>`
      UPDATE background_jobs SET state = 'running', owner = ${owner}, lease_until = ${now + this.o.leaseMs}, attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM background_jobs
        WHERE kind IN (${sql.join(kinds)}) AND ((state = 'ready' AND run_at <= ${now}) OR (state = 'running' AND lease_until < ${now}))
        ORDER BY run_at LIMIT ${limit} ${lock}
      )
      RETURNING id, kind, ref, attempts, max_attempts`.execute(this.db)
    return rows.map((r) => ({ ...r, attempts: Number(r.attempts), max_attempts: Number(r.max_attempts), owner }))
  }

  private run(row: Claim): void {
    const handler = this.handlers.get(row.kind)!
    const abort = new AbortController()
    let settled = false
    const job: ClaimedJob = {
      id: row.id,
      kind: row.kind,
      ref: row.ref,
      attempt: row.attempts,
      signal: abort.signal,
      complete: (effects) => {
        settled = true
        return this.finish(row.id, row.owner, { state: 'done', finished_at: Date.now(), last_error: null }, effects)
      },
      retry: (error, options) => {
        settled = true
        return this.retry(job, row, error, options)
      },
    }
    this.running.set(row.id, { job, owner: row.owner, abort })
    const task = (async () => {
      try {
        if (row.attempts > row.max_attempts) {
          // Only expired leases claim past the limit: its workers kept dying on it.
          await this.giveUp(job, row.owner, 'every worker that claimed the job stopped before finishing it')
          return
        }
        await handler.run(job)
        if (!settled) throw new Error('the handler returned without completing the job')
      } catch (error) {
        this.log(`job queue: ${row.kind} ${row.ref} attempt ${row.attempts} failed`, error)
        await this.retry(job, row, error).catch((e) => this.log('job queue: recording a failure failed', e))
      }
    })().finally(() => {
      this.running.delete(row.id)
      this.tasks.delete(task)
      this.wake()
    })
    this.tasks.add(task)
  }

  private async retry(
    job: ClaimedJob,
    claim: Claim,
    error: unknown,
    options: { delayMs?: number; effects?: Effects } = {},
  ): Promise<boolean> {
    const message = error instanceof Error ? error.message : String(error)
    if (job.attempt >= claim.max_attempts) return this.giveUp(job, claim.owner, message, options.effects)
    const delay = options.delayMs ?? Math.min(this.o.maxBackoffMs, this.o.backoffMs * 2 ** (job.attempt - 1))
    return this.finish(
      job.id,
      claim.owner,
      { state: 'ready', run_at: Date.now() + delay, owner: null, lease_until: null, last_error: message },
      options.effects,
    )
  }

  private async giveUp(job: ClaimedJob, owner: string, message: string, effects?: Effects): Promise<boolean> {
    const giveUp = this.handlers.get(job.kind)?.options.giveUp
    return this.finish(
      job.id,
      owner,
      { state: 'failed', finished_at: Date.now(), last_error: message },
      async (trx) => {
        if (effects) await effects(trx)
        if (giveUp) await giveUp(job, message, trx)
      },
    )
  }

  /** The fence: the row changes (and `effects` run) only while `owner` still holds the job. */
  private async finish(
    id: string,
    owner: string,
    set: Partial<BackgroundJobsTable>,
    effects?: Effects,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('background_jobs')
        .set({ lease_until: null, ...set })
        .where('id', '=', id)
        .where('owner', '=', owner)
        .where('state', '=', 'running')
        .executeTakeFirst()
      if (Number(r.numUpdatedRows) !== 1) return false
      if (effects) await effects(trx)
      return true
    })
  }

  private async renewLeases(): Promise<void> {
    const until = Date.now() + this.o.leaseMs
    for (const [id, r] of this.running) {
      try {
        const u = await this.db
          .updateTable('background_jobs')
          .set({ lease_until: until })
          .where('id', '=', id)
          .where('owner', '=', r.owner)
          .where('state', '=', 'running')
          .executeTakeFirst()
        if (Number(u.numUpdatedRows) !== 1 && this.running.get(id) === r) r.abort.abort(new Error('lease lost'))
      } catch (error) {
        this.log('job queue: heartbeat failed', error)
      }
    }
  }

  private async listen(url: string): Promise<void> {
    const client = new pg.Client({ connectionString: url })
    client.on('error', (error) => {
      if (this.listener !== client) return
      this.listener = undefined
      this.log('job queue: LISTEN connection lost; polling until it is back', error)
      client.end().catch(() => {})
      this.relisten(url)
    })
    client.on('notification', () => this.wake())
    await client.connect()
    await client.query(`LISTEN ${JOB_CHANNEL}`)
    if (this.stopped) return void (await client.end())
    this.listener = client
  }

  private relisten(url: string): void {
    if (this.stopped) return
    const timer = setTimeout(() => {
      this.listen(url).then(
        () => this.wake(),
        () => this.relisten(url),
      )
    }, 1000)
    timer.unref?.()
  }

  private log(message: string, error?: unknown): void {
    ;(this.o.log ?? console.error)(message, error)
  }
}
