/** POST /v3/biometric_kyc: a selfie with liveness frames, matched against the ID authority's photo. */
import { text, wholeNumber } from '../forms/fields.ts'
import type { Form } from '../forms/multipart.ts'
import type { Submission } from '../http/accept-job.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError } from '../http/errors.ts'
import { resolveUserId } from '../http/user-id.ts'
import { isInvalidFormatTestNumber } from '../sandbox/decide.ts'
import { checkTokenProduct, readCallbackUrl, readCommonFields } from './common-fields.ts'
import { INVALID_ID_NUMBER, readIdInfo } from './id-info.ts'
import { readLiveness, readSelfie } from './images.ts'

export async function readBiometricKyc(c: ApiController, form: Form): Promise<Submission> {
  checkTokenProduct(c, 'biometric_kyc')
  const max = c.context.config.imageMaxBytes
  const selfie = await readSelfie(form, max)
  const liveness = await readLiveness(form, max)
  const common = readCommonFields(c, form)
  const { type: _type, ...id } = readIdInfo(form, 'biometric_kyc')
  const callbackUrl = await readCallbackUrl(c, form, { required: true })
  const userId = resolveUserId(c.auth, c.request, text(form, 'user_id'))
  const sandbox_result = wholeNumber(form, 'sandbox_result')
  const request = { ...common, ...id, images: [selfie, ...liveness], ...(sandbox_result !== undefined && { sandbox_result }) }
  if (isInvalidFormatTestNumber('biometric_kyc', request)) throw apiError(400, INVALID_ID_NUMBER)
  return { product: 'biometric_kyc', userId, request, callbackUrl }
}
