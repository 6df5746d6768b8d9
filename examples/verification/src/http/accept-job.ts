/** Async submissions: store the job, wake the worker, answer 202 with the AcceptedResponse. */
import { accepted } from 'routeless'
import type { Job } from '../jobs/job-store.ts'
import type { Product } from '../jobs/products.ts'
import type { JobRequest } from '../jobs/job-request.ts'
import type { ApiController } from './api-controller.ts'

export interface Submission {
  product: Product
  userId: string
  request: JobRequest
  callbackUrl: string | null
}

/** The AcceptedResponse: `created_at` left out by the address and one-time AML routes. */
export interface AcceptedJob {
  status: 'accepted'
  message: string
  job_id: string
  user_id: string
  created_at?: string
}

/** `short` is the address/one-time AML shape: message `Job submitted successfully`, no `created_at`. */
export async function acceptJob(c: ApiController, submission: Submission, shape: 'standard' | 'short' = 'standard') {
  const job = await createJob(c, submission, c.context.config.sandboxDelayMs)
  c.context.wake()
  if (shape === 'short')
    return accepted({
      status: 'accepted' as const,
      message: 'Job submitted successfully',
      job_id: job.id,
      user_id: job.userId,
    } as AcceptedJob)
  return accepted({
    status: 'accepted' as const,
    message: 'Request accepted and queued for processing.',
    job_id: job.id,
    user_id: job.userId,
    created_at: job.createdAt,
  } as AcceptedJob)
}

export async function createJob(
  c: ApiController,
  sub: Submission,
  delayMs: number,
  extra: { idempotencyKey?: string; leaseMs?: number; id?: string } = {},
) {
  const { job, created } = await c.context.jobs.create(
    {
      partnerId: c.auth.partnerId,
      userId: sub.userId,
      product: sub.product,
      request: sub.request,
      callbackUrl: sub.callbackUrl,
      apiKeyId: c.auth.keyId,
      delayMs,
      idempotencyKey: extra.idempotencyKey,
      leaseMs: extra.leaseMs,
    },
    extra.id,
  )
  return Object.assign(job, { created }) as Job & { created: boolean }
}
