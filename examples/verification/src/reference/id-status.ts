/**
 * GET /v3/services/id_status: availability of an ID authority. The sandbox authorities are always up, so the answer
 * is "online" with 100% success rates, checked now; types that no KYC product can use have no status data.
 */
import { apiError } from '../http/errors.ts'
import { resolveCountry } from './countries.ts'
import { findIdType, idTypesOf } from './id-types.ts'

/** The query of `/v3/services/id_status`. */
export interface IdStatusQuery {
  /**
   * A country code or an English country name
   * @minLength 1
   */
  country: string
  /** @minLength 1 */
  id_type: string
}

export function idStatus({ country, id_type: idType }: IdStatusQuery) {
  const code = resolveCountry(country)
  if (!code || idTypesOf(code).length === 0) throw apiError(400, 'Invalid country')
  const type = findIdType(code, idType.trim().toUpperCase())
  if (!type) throw apiError(400, 'Invalid id_type for the given country')
  if (type.products.length === 0)
    throw apiError(400, `No data found. Check that ${code} and ${type.id_type} are valid inputs`)
  return {
    last_checked: new Date().toISOString(),
    last_check_status: 'success',
    last_hour_success_rate: '100%',
    last_known_status: 'online',
    last_check_success_rate: '100%',
  }
}
