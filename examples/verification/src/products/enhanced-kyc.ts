/** POST /v3/enhanced_kyc and /v3/enhanced_kyc/sync: an ID number checked against the (sandbox) ID authority. */
import type { Submission } from '../http/accept-job.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError } from '../http/errors.ts'
import { resolveUserId } from '../http/user-id.ts'
import { isInvalidFormatTestNumber } from '../sandbox/decide.ts'
import { readCallbackUrl, readCommonFields, type CommonForm } from './common-fields.ts'
import { INVALID_ID_NUMBER, readIdInfo, type IdInfoParts } from './id-info.ts'

/** The form of both routes (the sync one answers inline and ignores `callback_url`). */
export interface EnhancedKycForm extends IdInfoParts, CommonForm {}

export async function readEnhancedKyc(
  c: ApiController,
  form: EnhancedKycForm,
  options: { sync: boolean },
): Promise<Submission> {
  const common = readCommonFields(c, form)
  const idNumberMessage = options.sync ? "Required field 'id_number' is missing or invalid." : INVALID_ID_NUMBER
  const { type: _type, ...id } = readIdInfo(form, 'enhanced_kyc', { idNumberMessage })
  const callbackUrl = options.sync ? null : await readCallbackUrl(c, form, { required: true })
  const userId = resolveUserId(c.auth, c.headers, form.user_id)
  const request = { ...common, ...id }
  if (isInvalidFormatTestNumber('enhanced_kyc', request)) throw apiError(400, idNumberMessage)
  return { product: 'enhanced_kyc', userId, request, callbackUrl }
}
