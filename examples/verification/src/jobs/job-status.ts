/**
 * GET /v3/status/{jobId}: 202 while processing, 200 when terminal, 404 (as data) for unknown or foreign jobs. A
 * malformed id is a 400 from the handler's type (`JobId`).
 */
import { accepted, notFound } from 'routeless'
import type { ApiController } from '../http/api-controller.ts'

export const API_VERSION = 'v3.0.0-routeless'

/**
 * A job id: a TypeID with prefix 'job_' (src/typeid.ts).
 * @pattern ^job_[0-9a-hjkmnp-tv-z]{26}$
 * @errorMessage "jobId" must be a valid TypeID with prefix 'job_'
 */
export type JobId = string

export async function jobStatus(c: ApiController, jobId: string) {
  const job = await c.context.jobs.find(c.auth.partnerId, jobId)
  const createdAt = new Date().toISOString()
  c.response.headers.set('api_version', API_VERSION)
  c.response.headers.set('job_id', jobId)
  if (!job) {
    c.response.headers.set('user_id', 'unknown')
    return notFound({
      status: 'not_found' as const,
      job_id: jobId,
      user_id: 'unknown',
      message: 'Job not found',
      created_at: createdAt,
    })
  }
  c.response.headers.set('user_id', job.userId)
  if (job.status === 'processing') {
    return accepted({
      status: 'processing' as const,
      job_id: job.id,
      user_id: job.userId,
      message: 'Job is still processing',
      created_at: createdAt,
    })
  }
  return { status: job.status, job_id: job.id, user_id: job.userId, message: 'Job completed', created_at: createdAt }
}
