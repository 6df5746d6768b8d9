/**
 * Jobs in the database: created `processing` together with the queue job that decides them when due (see worker.ts),
 * completed once.
 */
import { isUniqueViolation, type JobQueue } from '@routeless/example-kit'
import type { Kysely } from 'kysely'
import type { Database, JobTable } from '../storage/schema.ts'
import { newTypeId } from '../typeid.ts'
import type { JobRequest } from './job-request.ts'
import type { Product, Terminal } from './products.ts'

export interface Job {
  id: string
  partnerId: string
  userId: string
  product: Product
  status: 'processing' | Terminal
  request: JobRequest
  callbackUrl: string | null
  apiKeyId: string | null
  hostedLinkId: string | null
  result: Record<string, unknown> | null
  createdAt: string
  completedAt: string | null
}

export interface NewJob {
  partnerId: string
  userId: string
  product: Product
  request: JobRequest
  callbackUrl: string | null
  apiKeyId: string | null
  hostedLinkId?: string | null
  /** The hosted link may have only this one job: creating a second throws `LinkAlreadyUsed`. */
  singleUseLink?: boolean
  idempotencyKey?: string | null
  /** Decide after this many ms (the worker picks it up then). */
  delayMs: number
  /**
   * The caller decides the job itself (sync endpoints): the queue decides it only if it is still processing after this
   * many ms (the caller's instance died).
   */
  leaseMs?: number
}

/** A single-use hosted link already has its job (another submission won, on this instance or another). */
export class LinkAlreadyUsed extends Error {}

export class JobStore {
  /** `queue` queues each new job's decision (without one, the store only reads and completes). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly queue?: JobQueue,
  ) {}

  /** Inserts the job. With an idempotency key already used, returns the existing job instead (`created: false`). */
  async create(input: NewJob, id = newTypeId('job')): Promise<{ job: Job; created: boolean }> {
    const now = new Date()
    const row: JobTable = {
      id,
      partner_id: input.partnerId,
      user_id: input.userId,
      product: input.product,
      status: 'processing',
      request: JSON.stringify(input.request),
      callback_url: input.callbackUrl,
      api_key_id: input.apiKeyId,
      hosted_link_id: input.hostedLinkId ?? null,
      single_use_link: input.singleUseLink && input.hostedLinkId ? input.hostedLinkId : null,
      idempotency_key: input.idempotencyKey ?? null,
      result: null,
      created_at: now.toISOString(),
      due_at: new Date(now.getTime() + input.delayMs).toISOString(),
      lease_until: null,
      completed_at: null,
    }
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('jobs').values(row).execute()
        if (!this.queue) throw new Error('JobStore.create needs the job queue')
        await this.queue.enqueue({ kind: 'decision', ref: id, delayMs: input.leaseMs ?? input.delayMs }, trx)
      })
      this.queue?.wake()
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      if (
        row.single_use_link &&
        !(await this.db.selectFrom('jobs').select('id').where('id', '=', id).executeTakeFirst())
      ) {
        const other = await this.db
          .selectFrom('jobs')
          .select('id')
          .where('single_use_link', '=', row.single_use_link)
          .executeTakeFirst()
        if (other) throw new LinkAlreadyUsed()
      }
      if (!input.idempotencyKey) throw error
      const existing = await this.db
        .selectFrom('jobs')
        .selectAll()
        .where('partner_id', '=', input.partnerId)
        .where('idempotency_key', '=', input.idempotencyKey)
        .executeTakeFirstOrThrow()
      return { job: toJob(existing), created: false }
    }
    return { job: toJob(row), created: true }
  }

  /** The partner's job; another partner's job is not found. */
  async find(partnerId: string, id: string): Promise<Job | undefined> {
    const row = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .where('partner_id', '=', partnerId)
      .executeTakeFirst()
    return row ? toJob(row) : undefined
  }

  async get(id: string): Promise<Job | undefined> {
    const row = await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst()
    return row ? toJob(row) : undefined
  }

  /** Stores the result; false when the job was completed already. */
  async complete(id: string, status: Terminal, result: Record<string, unknown>, completedAt: string): Promise<boolean> {
    const r = await this.db
      .updateTable('jobs')
      .set({ status, result: JSON.stringify(result), completed_at: completedAt, lease_until: null })
      .where('id', '=', id)
      .where('status', '=', 'processing')
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  /** True when the partner has any job for this user. */
  async knowsUser(partnerId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('partner_id', '=', partnerId)
      .where('user_id', '=', userId)
      .limit(1)
      .executeTakeFirst()
    return row !== undefined
  }

  /** The user's latest cleared identity job (a prior KYC record with a name and a country), if any. */
  async latestKyc(partnerId: string, userId: string): Promise<Job | undefined> {
    const row = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('partner_id', '=', partnerId)
      .where('user_id', '=', userId)
      .where('status', 'in', ['clear', 'attention'])
      .where('product', 'in', [
        'enhanced_kyc',
        'biometric_kyc',
        'document_verification',
        'enhanced_document_verification',
      ])
      .orderBy('completed_at', 'desc')
      .limit(1)
      .executeTakeFirst()
    return row ? toJob(row) : undefined
  }

  async countByLink(refId: string): Promise<{ total: number; successful: number; failed: number }> {
    const rows = await this.db.selectFrom('jobs').select('status').where('hosted_link_id', '=', refId).execute()
    return {
      total: rows.length,
      successful: rows.filter((r) => r.status === 'clear' || r.status === 'attention').length,
      failed: rows.filter((r) => r.status === 'block' || r.status === 'error').length,
    }
  }
}

function toJob(row: JobTable): Job {
  return {
    id: row.id,
    partnerId: row.partner_id,
    userId: row.user_id,
    product: row.product as Product,
    status: row.status as Job['status'],
    request: JSON.parse(row.request) as JobRequest,
    callbackUrl: row.callback_url,
    apiKeyId: row.api_key_id,
    hostedLinkId: row.hosted_link_id,
    result: row.result ? JSON.parse(row.result) : null,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  }
}
