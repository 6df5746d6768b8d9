/** POST /v3/aml/sync: the screening result inline; `SmileID-Idempotency-Key` makes a repeat return the first result. */
import type { Submission } from './accept-job.ts'
import type { ApiController } from './api-controller.ts'
import { apiError } from './errors.ts'
import { answer, syncAnswer } from './sync-answer.ts'

export async function answerAmlSync(c: ApiController, submission: Submission) {
  const key = c.headers.get('smileid-idempotency-key') ?? undefined
  if (key !== undefined && !/^[A-Za-z0-9_-]{16,128}$/.test(key))
    throw apiError(400, "Header 'SmileID-Idempotency-Key' must be 16 to 128 characters of A-Z, a-z, 0-9, _ or -.")
  return answer(c, await syncAnswer(c, submission, key))
}
