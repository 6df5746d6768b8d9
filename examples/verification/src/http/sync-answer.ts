/**
 * Sync submissions: the job is created, decided inline and stored like any other; the answer is the webhook payload
 * with `Response-Signature`, `Response-Timestamp`, `SmileID-Job-ID` and `User-ID` headers.
 */
import { signatureHeaders } from '../auth/sid-signature.ts'
import { finishJob } from '../jobs/finish-job.ts'
import type { ApiController } from './api-controller.ts'
import { createJob, type Submission } from './accept-job.ts'
import { unauthorized } from './authenticate.ts'
import { apiError } from './errors.ts'

export interface SyncAnswer {
  result: Record<string, unknown>
  headers: Record<string, string>
}

/** With an idempotency key already used, the first job's stored result is answered again (no second decision). */
export async function syncAnswer(
  c: ApiController,
  submission: Submission,
  idempotencyKey?: string,
): Promise<SyncAnswer> {
  const s = c.context
  const job = await createJob(c, submission, 0, { leaseMs: 30_000, idempotencyKey })
  const apiKey = await s.partners.signingKey(c.auth.partnerId, c.auth.keyId)
  if (!apiKey) throw unauthorized('Invalid authentication credentials.')
  const headers = { ...signatureHeaders(apiKey, c.auth.partnerId), 'SmileID-Job-ID': job.id, 'User-ID': job.userId }
  const result =
    (job.created && (await finishJob(s, job, { sendCallback: false }))) || (await s.jobs.get(job.id))?.result
  if (!result) throw apiError(409, 'A job with this idempotency key is still processing.', headers)
  return { result, headers }
}

/** Sets the signed headers on the response and returns the payload. */
export function answer(c: ApiController, { result, headers }: SyncAnswer) {
  for (const [name, value] of Object.entries(headers)) c.response.headers.set(name, value)
  return result
}
