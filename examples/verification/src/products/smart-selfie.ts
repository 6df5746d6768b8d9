/** POST /v3/registration, /v3/authentication and /v3/compare: SmartSelfie enrollment, re-verification and comparison. */
import { bool, file, text, wholeNumber } from '../forms/fields.ts'
import { readImage } from '../forms/images.ts'
import type { Form } from '../forms/multipart.ts'
import type { Submission } from '../http/accept-job.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError, required } from '../http/errors.ts'
import { resolveUserId } from '../http/user-id.ts'
import { checkTokenProduct, readCallbackUrl, readCommonFields } from './common-fields.ts'
import { readLiveness, readSelfie } from './images.ts'

export const COMPARISON_IMAGE_TYPES = ['DOCUMENT', 'ID_PHOTO', 'PORTRAIT']

function optionalSandboxResult(form: Form) {
  const sandbox_result = wholeNumber(form, 'sandbox_result')
  return sandbox_result === undefined ? {} : { sandbox_result }
}

export async function readRegistration(c: ApiController, form: Form): Promise<Submission> {
  checkTokenProduct(c, 'smart_selfie_registration')
  const max = c.context.config.imageMaxBytes
  const images = [await readSelfie(form, max), ...(await readLiveness(form, max))]
  const common = readCommonFields(c, form)
  const allow_new_enroll = bool(form, 'allow_new_enroll') ?? false
  const callbackUrl = await readCallbackUrl(c, form, { required: true })
  const userId = resolveUserId(c.auth, c.request, text(form, 'user_id'))
  return { product: 'smart_selfie_registration', userId, request: { ...common, images, allow_new_enroll, ...optionalSandboxResult(form) }, callbackUrl }
}

export async function readAuthentication(c: ApiController, form: Form): Promise<Submission> {
  checkTokenProduct(c, 'smart_selfie_authentication')
  const bodyUserId = text(form, 'user_id')?.trim()
  if (!bodyUserId) throw required('user_id')
  const userId = resolveUserId(c.auth, c.request, bodyUserId)
  const use_enrolled_image = bool(form, 'use_enrolled_image') ?? false
  const max = c.context.config.imageMaxBytes
  const images = use_enrolled_image ? [] : [await readSelfie(form, max), ...(await readLiveness(form, max))]
  const common = readCommonFields(c, form)
  const callbackUrl = await readCallbackUrl(c, form, { required: true })
  if (!(await c.context.enrollments.isEnrolled(c.auth.partnerId, userId))) throw apiError(404, 'User not found')
  return { product: 'smart_selfie_authentication', userId, request: { ...common, images, use_enrolled_image, ...optionalSandboxResult(form) }, callbackUrl }
}

export async function readCompare(c: ApiController, form: Form): Promise<Submission> {
  checkTokenProduct(c, 'smart_selfie_compare')
  const max = c.context.config.imageMaxBytes
  const selfie = await readSelfie(form, max)
  const comparisonPart = file(form, 'comparison_image')
  if (!comparisonPart) throw required('comparison_image')
  const comparison = await readImage(comparisonPart, 'comparison_image', { formats: ['jpeg'], maxBytes: max })
  const comparison_image_type = text(form, 'comparison_image_type')?.trim().toUpperCase()
  if (!comparison_image_type || !COMPARISON_IMAGE_TYPES.includes(comparison_image_type)) {
    throw apiError(400, "Field 'comparison_image_type' must be either DOCUMENT, ID_PHOTO, or PORTRAIT.")
  }
  const liveness = await readLiveness(form, max, { optional: true })
  const common = readCommonFields(c, form)
  const allow_new_enroll = bool(form, 'allow_new_enroll') ?? false
  const callbackUrl = await readCallbackUrl(c, form, { required: true })
  const bodyUserId = text(form, 'user_id')?.trim()
  const userId = resolveUserId(c.auth, c.request, bodyUserId)
  // A named user is enrolled by a passing comparison, unless already enrolled and replacing is not allowed.
  const enroll = bodyUserId !== undefined && (allow_new_enroll || !(await c.context.enrollments.isEnrolled(c.auth.partnerId, userId)))
  const request = { ...common, images: [selfie, comparison, ...liveness], comparison_image_type, allow_new_enroll, enroll, ...optionalSandboxResult(form) }
  return { product: 'smart_selfie_compare', userId, request, callbackUrl }
}
