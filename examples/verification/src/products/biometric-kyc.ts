/** POST /v3/biometric_kyc: a selfie with liveness frames, matched against the ID authority's photo. */
import type { Submission } from '../http/accept-job.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError } from '../http/errors.ts'
import { resolveUserId } from '../http/user-id.ts'
import { isInvalidFormatTestNumber } from '../sandbox/decide.ts'
import { readCallbackUrl, readCommonFields, type CommonForm } from './common-fields.ts'
import { INVALID_ID_NUMBER, readIdInfo, type IdInfoParts } from './id-info.ts'
import { readLiveness, readSelfie, type SelfieParts } from './images.ts'
import { sandboxResultOf, type SandboxResultPart } from './sandbox-result.ts'

export interface BiometricKycForm extends IdInfoParts, SelfieParts, SandboxResultPart, CommonForm {}

export async function readBiometricKyc(c: ApiController, form: BiometricKycForm): Promise<Submission> {
  const max = c.context.config.imageMaxBytes
  const selfie = await readSelfie(form.selfie_image, max)
  const liveness = await readLiveness(form.liveness_images, max)
  const common = readCommonFields(c, form)
  const { type: _type, ...id } = readIdInfo(form, 'biometric_kyc')
  const callbackUrl = await readCallbackUrl(c, form, { required: true })
  const userId = resolveUserId(c.auth, c.headers, form.user_id)
  const request = { ...common, ...id, images: [selfie, ...liveness], ...sandboxResultOf(form) }
  if (isInvalidFormatTestNumber('biometric_kyc', request)) throw apiError(400, INVALID_ID_NUMBER)
  return { product: 'biometric_kyc', userId, request, callbackUrl }
}
