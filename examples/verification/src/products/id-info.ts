/** `country`, `id_type`, `id_number` (and `bank_code`): checked against the per-country, per-type reference data. */
import { requiredText, text } from '../forms/fields.ts'
import type { Form } from '../forms/multipart.ts'
import { apiError, required } from '../http/errors.ts'
import { findBank } from '../reference/bank-codes.ts'
import { isCountryCode } from '../reference/countries.ts'
import { findIdType, matchesIdNumber, type IdType } from '../reference/id-types.ts'

export const INVALID_ID_NUMBER = 'Invalid ID number format for the specified country and ID type.'

export function readCountry(form: Form, field = 'country'): string {
  const country = text(form, field)?.trim()
  if (!country || !/^[A-Z]{2}$/.test(country) || !isCountryCode(country)) throw required(field)
  return country
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
export function readIdInfo(form: Form, product: string, options: { idNumberMessage?: string } = {}): IdInfo & { type: IdType } {
  const country = readCountry(form)
  const idType = requiredText(form, 'id_type').toUpperCase()
  const type = findIdType(country, idType)
  if (!type) throw required('id_type')
  if (!type.products.includes(product)) throw apiError(403, 'ID type not enabled for this partner.')
  const idNumber = text(form, 'id_number')?.trim()
  if (!idNumber) throw required('id_number')
  if (!matchesIdNumber(type, idNumber)) throw apiError(400, options.idNumberMessage ?? INVALID_ID_NUMBER)
  const info: IdInfo & { type: IdType } = { country, id_type: idType, id_number: idNumber, type }
  if (type.required_fields.includes('bank_code')) {
    const bankCode = text(form, 'bank_code')?.trim()
    if (!bankCode || !findBank(country, bankCode)) throw required('bank_code')
    info.bank_code = bankCode
  }
  const operator = text(form, 'operator')?.trim()
  if (operator) info.operator = operator.slice(0, 64)
  return info
}
