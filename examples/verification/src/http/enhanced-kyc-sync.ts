/** POST /v3/enhanced_kyc/sync: the result inline; an unavailable ID authority is a 424 (the job exists: poll it). */
import type { Submission } from './accept-job.ts'
import type { ApiController } from './api-controller.ts'
import { apiError } from './errors.ts'
import { answer, syncAnswer } from './sync-answer.ts'

export async function answerEnhancedKycSync(c: ApiController, submission: Submission) {
  const sync = await syncAnswer(c, submission)
  if (sync.result.status === 'error' && sync.result.reason === 'service_unavailable') {
    throw apiError(424, 'Unable to verify ID — ID authority unavailable.', {
      'SmileID-Job-ID': sync.headers['SmileID-Job-ID']!,
    })
  }
  return answer(c, sync)
}
