/**
 * Sends one due delivery: the job's stored result, byte for byte, signed with fresh `Response-Timestamp` and
 * `Response-Signature` headers. Failures are retried with doubling back-off until the attempts run out.
 */
import { signatureHeaders } from '../auth/sid-signature.ts'
import type { Services } from '../services.ts'
import { postCallback } from './post-callback.ts'

export async function deliver(s: Services, deliveryId: string): Promise<void> {
  const { callbackTimeoutMs, callbackAttempts, callbackBackoffMs } = s.config
  if (!(await s.deliveries.claim(deliveryId, callbackTimeoutMs + 5000))) return
  const delivery = (await s.deliveries.get(deliveryId))!
  const job = await s.jobs.get(delivery.job_id)
  const apiKey = job && (await s.partners.signingKey(job.partnerId, job.apiKeyId))
  const attempt = Number(delivery.attempts) + 1
  const retryAt = attempt < callbackAttempts ? new Date(Date.now() + callbackBackoffMs * 2 ** (attempt - 1)) : undefined
  const startedAt = new Date().toISOString()
  if (!job?.result || !apiKey) {
    const error = !job?.result ? 'job has no result' : 'partner has no active API key to sign with'
    await s.deliveries.recordAttempt(delivery, { started_at: startedAt, duration_ms: 0, status_code: null, error }, retryAt)
    return
  }
  const headers = {
    ...signatureHeaders(apiKey, job.partnerId),
    'SmileID-Job-ID': job.id,
    'User-Agent': 'routeless-verification-callbacks/0.1',
  }
  const outcome = await postCallback(delivery.url, JSON.stringify(job.result), headers, callbackTimeoutMs)
  await s.deliveries.recordAttempt(delivery, { started_at: startedAt, duration_ms: outcome.durationMs, status_code: outcome.statusCode, error: outcome.error }, retryAt)
}
