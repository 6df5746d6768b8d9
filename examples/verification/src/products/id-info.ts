/** `country`, `id_type`, `id_number` (and `bank_code`): checked against the per-country, per-type reference data. */
import type { CountryCode } from '../forms/field-types.ts'
import { apiError, required } from '../http/errors.ts'
import { findBank } from '../reference/bank-codes.ts'
import { isCountryCode } from '../reference/countries.ts'
import { findIdType, matchesIdNumber, type IdType } from '../reference/id-types.ts'

export const INVALID_ID_NUMBER = 'Invalid ID number format for the specified country and ID type.'

/** A country the reference data knows (the type says it is two upper-case letters). */
export function readCountry(country: CountryCode, field = 'country'): string {
  if (!isCountryCode(country)) throw required(field)
  return country
}

/** The ID parts of EKYC and BKYC. Which types a country has, their number formats and bank codes are reference data. */
export interface IdInfoParts {
  country: CountryCode
  id_type: string
  id_number: string
  /** For BANK_ACCOUNT: a bank code of the country */
  bank_code?: string
  /** The mobile operator, where the ID type needs one */
  operator?: string
}

export interface IdInfo {
  country: string
  id_type: string
  id_number: string
  bank_code?: string
  operator?: string
}

/**
 * `product` is the reference data's product name the type must support (403 `ID type not enabled…` otherwise);
 * `idNumberMessage` replaces the format message (the EKYC sync endpoint words it differently).
 */
export function readIdInfo(
  form: IdInfoParts,
  product: string,
  options: { idNumberMessage?: string } = {},
): IdInfo & { type: IdType } {
  const country = readCountry(form.country)
  const idType = form.id_type.trim().toUpperCase()
  const type = findIdType(country, idType)
  if (!type) throw required('id_type')
  if (!type.products.includes(product)) throw apiError(403, 'ID type not enabled for this partner.')
  const idNumber = form.id_number.trim()
  if (!idNumber) throw required('id_number')
  if (!matchesIdNumber(type, idNumber)) throw apiError(400, options.idNumberMessage ?? INVALID_ID_NUMBER)
  const info: IdInfo & { type: IdType } = { country, id_type: idType, id_number: idNumber, type }
  if (type.required_fields.includes('bank_code')) {
    const bankCode = form.bank_code?.trim()
    if (!bankCode || !findBank(country, bankCode)) throw required('bank_code')
    info.bank_code = bankCode
  }
  const operator = form.operator?.trim()
  if (operator) info.operator = operator.slice(0, 64)
  return info
}
