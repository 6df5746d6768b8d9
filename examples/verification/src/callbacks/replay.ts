/**
 * POST /v3/replay/{job_id}: queues the job's stored result for delivery again (to the stored callback URL, or to the
 * `callback_url` of an optional multipart body). 409 while the job is still processing.
 */
import { text } from '../forms/fields.ts'
import { multipartForm } from '../forms/multipart.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError } from '../http/errors.ts'
import { isValidCallbackUrl } from '../validation/callback-url.ts'

const JOB_ID = /^job_[0-9a-z]{26}$/

export async function replayCallback(c: ApiController, jobId: string) {
  if (!JOB_ID.test(jobId)) throw apiError(400, `"job_id" must be a valid TypeID with prefix 'job_'`)
  const form = multipartForm(c, { optional: true })
  const override = text(form, 'callback_url')?.trim()
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
  c.response.status = 202
  return { status: 'accepted', job_id: job.id, user_id: job.userId, message: 'Callback replay queued successfully.' }
}
