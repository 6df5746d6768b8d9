/** POST /v3/address: an address checked against records held for an ID number (ZA) or a utility account (NG). */
import { requiredText, text } from '../forms/fields.ts'
import type { Form } from '../forms/multipart.ts'
import type { Submission } from '../http/accept-job.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError, required } from '../http/errors.ts'
import { resolveUserId } from '../http/user-id.ts'
import { findIdType, matchesIdNumber } from '../reference/id-types.ts'
import { checkTokenProduct, readCallbackUrl, readCommonFields } from './common-fields.ts'
import { INVALID_ID_NUMBER } from './id-info.ts'

export const UTILITY_TYPES = ['PrePaid', 'PostPaid']

export async function readAddress(c: ApiController, form: Form): Promise<Submission> {
  checkTokenProduct(c, 'address_verification')
  const address = requiredText(form, 'address')
  if (address.length > 512) throw required('address')
  const country = text(form, 'country')?.trim()
  if (country !== 'NG' && country !== 'ZA') throw apiError(400, "Field 'country' must be one of NG, ZA.")
  const common = readCommonFields(c, form)
  const idNumber = text(form, 'id_number')?.trim()
  const utilityNumber = text(form, 'utility_number')?.trim()
  if (!idNumber && !utilityNumber) throw apiError(400, "Either 'id_number' or 'utility_number' is required.")
  let identifier: Record<string, string>
  if (country === 'ZA') {
    if (!idNumber) throw required('id_number')
    if (!matchesIdNumber(findIdType('ZA', 'NATIONAL_ID')!, idNumber)) throw apiError(400, INVALID_ID_NUMBER)
    identifier = { id_type: 'NATIONAL_ID', id_number: idNumber }
  } else {
    if (!utilityNumber || !/^[A-Za-z0-9-]{4,32}$/.test(utilityNumber)) throw required('utility_number')
    const utility_provider = requiredText(form, 'utility_provider').toUpperCase()
    if (!/^[A-Z0-9_-]{2,32}$/.test(utility_provider)) throw required('utility_provider')
    const utility_type = text(form, 'utility_type')?.trim()
    if (!utility_type || !UTILITY_TYPES.includes(utility_type)) throw apiError(400, "Field 'utility_type' must be one of PrePaid, PostPaid.")
    identifier = { utility_number: utilityNumber, utility_provider, utility_type }
  }
  const callbackUrl = await readCallbackUrl(c, form, { required: true })
  const userId = resolveUserId(c.auth, c.request, text(form, 'user_id'))
  return { product: 'address_verification', userId, request: { ...common, address, country, ...identifier }, callbackUrl }
}
