/**
 * The change feed: every create, update and delete of a record is a row of `changes`, written in the transaction of the
 * write itself, so the feed holds exactly the writes that committed. Its id is the sequence a subscriber resumes from
 * (the event id, sent back as `Last-Event-ID`): nothing is lost or doubled across a reconnection, nor across a restart.
 *
 * On PostgreSQL, writes that record a change take one transaction-level advisory lock first, so ids are given in
 * commit order (a reader that saw id 7 can never later see a 6 commit), and NOTIFY wakes the subscribers of every
 * instance (each LISTENs on a connection of its own). On SQLite (one process) the store wakes them itself. A
 * subscriber also looks every `poll` ms, in case a notification was lost.
 */
import type { Dialect } from '@routeless/example-kit'
import { type Kysely, sql, type Transaction } from 'kysely'
import pg from 'pg'
import type { Sse } from 'routeless'
import type { Schema } from './schema.ts'
import type { Configuration } from './store.ts'

export const CHANGES_CHANNEL = 'configuration_changes'

/** Any 64-bit number of our own: the advisory lock that orders the writes that record a change. */
const CHANGES_LOCK = 4_101_202_611

/** Where the feed stands: the id to resume after (sent first, so that a client can resume before any change). */
export interface FeedPosition {
  seq: number
}

/** One event of the feed: the record as it is after the change (before it, for `delete`). */
export type ChangeEvent =
  | Sse<Configuration, 'create'>
  | Sse<Configuration, 'update'>
  | Sse<Configuration, 'delete'>
  | Sse<FeedPosition, 'ready'>

/** How many changes one read takes. */
const BATCH = 100

export class ChangeFeed {
  private waiters = new Set<() => void>()
  private listener: pg.Client | undefined
  private stopped = false

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly dialect: Dialect,
    private readonly poll = 1000,
  ) {}

  /** Starts listening for other instances' changes (PostgreSQL). */
  async start(url: string | undefined): Promise<void> {
    if (this.dialect !== 'postgres' || !url) return
    const client = new pg.Client({ connectionString: url })
    client.on('error', () => {
      // The subscribers go on polling; a new connection is not worth it in an example.
      if (this.listener === client) this.listener = undefined
    })
    client.on('notification', () => this.wake())
    await client.connect()
    await client.query(`LISTEN ${CHANGES_CHANNEL}`)
    if (this.stopped) return void (await client.end())
    this.listener = client
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.wake()
    await this.listener?.end().catch(() => {})
  }

  /** Records a change in the write's transaction (after taking the lock that orders them, on PostgreSQL). */
  async record(trx: Transaction<Schema>, op: 'create' | 'update' | 'delete', record: Configuration): Promise<void> {
    await trx
      .insertInto('changes')
      .values({ op, record: JSON.stringify(record) })
      .execute()
    if (this.dialect === 'postgres') await sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${op})`.execute(trx)
  }

  /** What a write that records a change runs first, in its transaction. */
  async lock(trx: Transaction<Schema>): Promise<void> {
    if (this.dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${CHANGES_LOCK})`.execute(trx)
  }

  /** Wakes the subscribers of this instance (after a write committed). */
  wake(): void {
    const waiters = [...this.waiters]
    this.waiters.clear()
    for (const wake of waiters) wake()
  }

  /** The id of the last change (0 when there is none). */
  async last(): Promise<number> {
    const row = await this.db
      .selectFrom('changes')
      .select((eb) => eb.fn.max('id').as('last'))
      .executeTakeFirst()
    return Number(row?.last ?? 0)
  }

  /**
   * The changes after `after` (undefined: after the last one now), as events, then each new one as it commits, until
   * the client leaves. The first event (`ready`) says where the feed stands.
   */
  async *events(after: number | undefined): AsyncGenerator<ChangeEvent> {
    let seq = after ?? (await this.last())
    yield { event: 'ready', id: String(seq), data: { seq } }
    while (!this.stopped) {
      const woken = this.next() // before the read: a change committed during it wakes the next wait
      const rows = await this.db
        .selectFrom('changes')
        .select(['id', 'op', 'record'])
        .where('id', '>', seq)
        .orderBy('id')
        .limit(BATCH)
        .execute()
      for (const row of rows) {
        seq = Number(row.id)
        yield { event: row.op, id: String(seq), data: JSON.parse(row.record) as Configuration }
      }
      if (rows.length < BATCH) await woken
    }
  }

  /** Resolves on the next wake, or after `poll` ms. */
  private next(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.poll)
      const waiters = this.waiters
      function done() {
        clearTimeout(timer)
        waiters.delete(done)
        resolve()
      }
      waiters.add(done)
    })
  }
}
