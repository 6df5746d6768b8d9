/** POST /v3/registration, /v3/authentication and /v3/compare: SmartSelfie enrollment, re-verification and comparison. */
import type { FilePart } from '../forms/field-types.ts'
import { readImage } from '../forms/images.ts'
import type { Submission } from '../http/accept-job.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError, required } from '../http/errors.ts'
import { resolveUserId } from '../http/user-id.ts'
import { readCallbackUrl, readCommonFields, type CommonForm } from './common-fields.ts'
import { fileOf, readLiveness, readSelfie, type SelfieParts } from './images.ts'
import { sandboxResultOf, type SandboxResultPart } from './sandbox-result.ts'

export const COMPARISON_IMAGE_TYPES = ['DOCUMENT', 'ID_PHOTO', 'PORTRAIT'] as const

export interface RegistrationForm extends SelfieParts, SandboxResultPart, CommonForm {
  /**
   * Replace an earlier enrollment of the user
   * @errorMessage Field 'allow_new_enroll' is invalid.
   */
  allow_new_enroll?: boolean
}

export interface AuthenticationForm extends SandboxResultPart, CommonForm {
  /** An enrolled user */
  user_id: string
  /** JPEG, checked by content; unless use_enrolled_image */
  selfie_image?: FilePart
  /**
   * 6 to 8 repeated parts (JPEG); unless use_enrolled_image
   * @minItems 6
   * @maxItems 8
   * @errorMessage Field 'liveness_images' must contain between 6 and 8 images.
   */
  liveness_images?: FilePart[]
  /**
   * Compare with the enrolled selfie instead of new images
   * @errorMessage Field 'use_enrolled_image' is invalid.
   */
  use_enrolled_image?: boolean
}

export interface CompareForm extends SandboxResultPart, CommonForm {
  /** JPEG, checked by content */
  selfie_image: FilePart
  /**
   * 6 to 8 repeated parts (JPEG), optional
   * @minItems 6
   * @maxItems 8
   * @errorMessage Field 'liveness_images' must contain between 6 and 8 images.
   */
  liveness_images?: FilePart[]
  /** JPEG, checked by content */
  comparison_image: FilePart
  /** @errorMessage Field 'comparison_image_type' must be either DOCUMENT, ID_PHOTO, or PORTRAIT. */
  comparison_image_type: (typeof COMPARISON_IMAGE_TYPES)[number]
  /**
   * Enroll the named user even when already enrolled
   * @errorMessage Field 'allow_new_enroll' is invalid.
   */
  allow_new_enroll?: boolean
}

export async function readRegistration(c: ApiController, form: RegistrationForm): Promise<Submission> {
  const max = c.context.config.imageMaxBytes
  const images = [await readSelfie(form.selfie_image, max), ...(await readLiveness(form.liveness_images, max))]
  const common = readCommonFields(c, form)
  const allow_new_enroll = form.allow_new_enroll ?? false
  const callbackUrl = await readCallbackUrl(c, form, { required: true })
  const userId = resolveUserId(c.auth, c.headers, form.user_id)
  return {
    product: 'smart_selfie_registration',
    userId,
    request: { ...common, images, allow_new_enroll, ...sandboxResultOf(form) },
    callbackUrl,
  }
}

export async function readAuthentication(c: ApiController, form: AuthenticationForm): Promise<Submission> {
  const bodyUserId = form.user_id.trim()
  if (!bodyUserId) throw required('user_id')
  const userId = resolveUserId(c.auth, c.headers, bodyUserId)
  const use_enrolled_image = form.use_enrolled_image ?? false
  const max = c.context.config.imageMaxBytes
  const images = use_enrolled_image
    ? []
    : [
        await readSelfie(requiredPart(form.selfie_image, 'selfie_image'), max),
        ...(await readLiveness(requiredPart(form.liveness_images, 'liveness_images'), max)),
      ]
  const common = readCommonFields(c, form)
  const callbackUrl = await readCallbackUrl(c, form, { required: true })
  if (!(await c.context.enrollments.isEnrolled(c.auth.partnerId, userId))) throw apiError(404, 'User not found')
  return {
    product: 'smart_selfie_authentication',
    userId,
    request: { ...common, images, use_enrolled_image, ...sandboxResultOf(form) },
    callbackUrl,
  }
}

export async function readCompare(c: ApiController, form: CompareForm): Promise<Submission> {
  const max = c.context.config.imageMaxBytes
  const selfie = await readSelfie(form.selfie_image, max)
  const comparison = await readImage(fileOf(form.comparison_image, 'comparison_image'), 'comparison_image', {
    formats: ['jpeg'],
    maxBytes: max,
  })
  const comparison_image_type = form.comparison_image_type
  const liveness = await readLiveness(form.liveness_images, max)
  const common = readCommonFields(c, form)
  const allow_new_enroll = form.allow_new_enroll ?? false
  const callbackUrl = await readCallbackUrl(c, form, { required: true })
  const bodyUserId = form.user_id?.trim() || undefined
  const userId = resolveUserId(c.auth, c.headers, bodyUserId)
  // A named user is enrolled by a passing comparison, unless already enrolled and replacing is not allowed.
  const enroll =
    bodyUserId !== undefined &&
    (allow_new_enroll || !(await c.context.enrollments.isEnrolled(c.auth.partnerId, userId)))
  const request = {
    ...common,
    images: [selfie, comparison, ...liveness],
    comparison_image_type,
    allow_new_enroll,
    enroll,
    ...sandboxResultOf(form),
  }
  return { product: 'smart_selfie_compare', userId, request, callbackUrl }
}

/** A part the type leaves optional that this request needs (authentication without `use_enrolled_image`). */
function requiredPart<T>(part: T | undefined, field: string): T {
  if (part === undefined) throw required(field)
  return part
}
