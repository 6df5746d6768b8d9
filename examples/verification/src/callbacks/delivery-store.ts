/** Callback deliveries and their attempts: the delivery record of every callback and replay. */
import { randomUUID } from 'node:crypto'
import type { JobQueue } from '@routeless/example-kit'
import type { Kysely } from 'kysely'
import type { Database, DeliveryAttemptTable, DeliveryTable } from '../storage/schema.ts'
import { newTypeId } from '../typeid.ts'

export type Delivery = DeliveryTable
export type DeliveryAttempt = DeliveryAttemptTable

export class DeliveryStore {
  /** `queue` queues the sending of what `schedule` records (without one, the store only reads and records). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly queue?: JobQueue,
  ) {}

  /**
   * Records a delivery and queues its first attempt; in `trx` when given (it commits with the job's result, and the
   * worker completing that job looks for new work when it is done).
   */
  async schedule(
    jobId: string,
    partnerId: string,
    kind: 'callback' | 'replay',
    url: string,
    trx?: Kysely<Database>,
  ): Promise<string> {
    if (!trx) {
      const id = await this.db.transaction().execute((t) => this.schedule(jobId, partnerId, kind, url, t))
      this.queue?.wake()
      return id
    }
    const id = newTypeId('dlv')
    const now = new Date().toISOString()
    await trx
      .insertInto('deliveries')
      .values({
        id,
        job_id: jobId,
        partner_id: partnerId,
        kind,
        url,
        state: 'pending',
        attempts: 0,
        next_attempt_at: now,
        lease_until: null,
        last_status: null,
        last_error: null,
        created_at: now,
        finished_at: null,
      })
      .execute()
    if (!this.queue) throw new Error('DeliveryStore.schedule needs the job queue')
    await this.queue.enqueue({ kind: 'callback', ref: id }, trx)
    return id
  }

  async get(id: string): Promise<Delivery | undefined> {
    return this.db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst()
  }

  /** Records one attempt and moves the delivery on: delivered, retried at `retryAt`, or failed for good. */
  async recordAttempt(
    delivery: Delivery,
    attempt: Omit<DeliveryAttempt, 'id' | 'delivery_id' | 'attempt'>,
    retryAt: Date | undefined,
  ): Promise<void> {
    const attempts = Number(delivery.attempts) + 1
    const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300
    await this.db
      .insertInto('delivery_attempts')
      .values({ id: randomUUID(), delivery_id: delivery.id, attempt: attempts, ...attempt })
      .execute()
    const finished = ok || retryAt === undefined
    await this.db
      .updateTable('deliveries')
      .set({
        attempts,
        state: ok ? 'delivered' : finished ? 'failed' : 'pending',
        next_attempt_at: finished ? null : retryAt!.toISOString(),
        lease_until: null,
        last_status: attempt.status_code,
        last_error: attempt.error,
        finished_at: finished ? new Date().toISOString() : null,
      })
      .where('id', '=', delivery.id)
      .execute()
  }

  async listForJob(jobId: string): Promise<Array<Delivery & { attempt_log: DeliveryAttempt[] }>> {
    const deliveries = await this.db
      .selectFrom('deliveries')
      .selectAll()
      .where('job_id', '=', jobId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
    const ids = deliveries.map((d) => d.id)
    const attempts = ids.length
      ? await this.db
          .selectFrom('delivery_attempts')
          .selectAll()
          .where('delivery_id', 'in', ids)
          .orderBy('attempt')
          .execute()
      : []
    return deliveries.map((d) => ({
      ...d,
      attempts: Number(d.attempts),
      attempt_log: attempts.filter((a) => a.delivery_id === d.id),
    }))
  }
}
