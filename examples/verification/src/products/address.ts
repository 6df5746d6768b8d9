/** POST /v3/address: an address checked against records held for an ID number (ZA) or a utility account (NG). */
import type { Submission } from '../http/accept-job.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError, required } from '../http/errors.ts'
import { resolveUserId } from '../http/user-id.ts'
import { findIdType, matchesIdNumber } from '../reference/id-types.ts'
import { readCallbackUrl, readCommonFields, type CommonForm } from './common-fields.ts'
import { INVALID_ID_NUMBER } from './id-info.ts'

export interface AddressForm extends CommonForm {
  /**
   * @maxLength 512
   * @pattern \S
   */
  address: string
  /** @errorMessage Field 'country' must be one of NG, ZA. */
  country: 'NG' | 'ZA'
  /** ZA: the South African ID number */
  id_number?: string
  /**
   * NG: the utility account
   * @pattern ^[A-Za-z0-9-]{4,32}$
   */
  utility_number?: string
  /**
   * NG: the utility company
   * @pattern ^[A-Za-z0-9_-]{2,32}$
   */
  utility_provider?: string
  /**
   * NG
   * @errorMessage Field 'utility_type' must be one of PrePaid, PostPaid.
   */
  utility_type?: 'PrePaid' | 'PostPaid'
}

/** The types say each part's shape; which identifier a country needs is here. */
export async function readAddress(c: ApiController, form: AddressForm): Promise<Submission> {
  const address = form.address.trim()
  const country = form.country
  const common = readCommonFields(c, form)
  const idNumber = form.id_number?.trim() || undefined
  const utilityNumber = form.utility_number || undefined
  if (!idNumber && !utilityNumber) throw apiError(400, "Either 'id_number' or 'utility_number' is required.")
  let identifier: Record<string, string>
  if (country === 'ZA') {
    if (!idNumber) throw required('id_number')
    if (!matchesIdNumber(findIdType('ZA', 'NATIONAL_ID')!, idNumber)) throw apiError(400, INVALID_ID_NUMBER)
    identifier = { id_type: 'NATIONAL_ID', id_number: idNumber }
  } else {
    if (!utilityNumber) throw required('utility_number')
    if (!form.utility_provider) throw required('utility_provider')
    if (!form.utility_type) throw apiError(400, "Field 'utility_type' must be one of PrePaid, PostPaid.")
    identifier = {
      utility_number: utilityNumber,
      utility_provider: form.utility_provider.toUpperCase(),
      utility_type: form.utility_type,
    }
  }
  const callbackUrl = await readCallbackUrl(c, form, { required: true })
  const userId = resolveUserId(c.auth, c.headers, form.user_id)
  return {
    product: 'address_verification',
    userId,
    request: { ...common, address, country, ...identifier },
    callbackUrl,
  }
}
