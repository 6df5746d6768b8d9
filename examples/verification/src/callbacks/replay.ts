/**
 * POST /v3/replay/{job_id}: queues the job's stored result for delivery again (to the stored callback URL, or to the
 * `callback_url` of an optional multipart body). 409 while the job is still processing.
 */
import { type Accepted, accepted } from 'routeless'
import type { V3Conflict, V3NotFound } from '../http/errors.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError } from '../http/errors.ts'
import { isValidCallbackUrl } from '../validation/callback-url.ts'

/**
 * The job to replay: a TypeID with prefix 'job_'.
 * @pattern ^job_[0-9a-z]{26}$
 * @errorMessage "job_id" must be a valid TypeID with prefix 'job_'
 */
export type ReplayJobId = string

/** The optional multipart body. */
export interface ReplayForm {
  /**
   * Send there instead of the job's callback URL
   * @errorMessage No valid callback URL available
   */
  callback_url?: string
}

/** What a queued replay answers. */
export interface ReplayQueued {
  status: 'accepted'
  job_id: string
  user_id: string
  message: string
}

/** Queues the callback again: 202; 404 for no such job; 409 while it runs. */
export async function replayCallback(
  c: ApiController,
  jobId: ReplayJobId,
  form: ReplayForm,
): Promise<Accepted<ReplayQueued> | V3NotFound | V3Conflict> {
  const override = form.callback_url?.trim() || undefined
  if (override !== undefined && !isValidCallbackUrl(override)) throw apiError(400, 'No valid callback URL available')
  const job = await c.context.jobs.find(c.auth.partnerId, jobId)
  if (!job) throw apiError(404, 'Job not found')
  if (job.status === 'processing' || !job.result) {
    throw apiError(409, 'Job is still processing. Callbacks can only be replayed for completed jobs.')
  }
  const partner = await c.context.partners.find(c.auth.partnerId)
  const url = override ?? job.callbackUrl ?? partner?.callbackUrl
  if (!url) throw apiError(400, 'No valid callback URL available')
  await c.context.deliveries.schedule(job.id, job.partnerId, 'replay', url)
  c.context.wake()
  return accepted({
    status: 'accepted' as const,
    job_id: job.id,
    user_id: job.userId,
    message: 'Callback replay queued successfully.',
  })
}
