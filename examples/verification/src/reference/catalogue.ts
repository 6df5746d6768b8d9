/** The public catalogue: bank codes, supported ID types and supported documents, filtered by query parameters. */
import { HttpError } from 'routeless'
import { BANK_CODES } from './bank-codes.ts'
import { ID_TYPES } from './id-types.ts'
import { CONTINENTS, LOCALES, supportedDocuments } from './supported-documents.ts'

export const COUNTRY_MESSAGE = 'Country Code must be a valid ISO 3166-1 alpha-2 country code consisting of exactly two uppercase letters.'

function countryFilter(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined
  if (typeof value !== 'string' || !/^[A-Z]{2}$/.test(value)) throw new HttpError(400, COUNTRY_MESSAGE)
  return value
}

export function bankCodes(country: unknown) {
  const c = countryFilter(country)
  return { bank_codes: BANK_CODES.filter((b) => !c || b.country === c) }
}

/** One entry per type; BANK_ACCOUNT once per bank, with its `bank_code`. */
export function supportedIdTypes(country: unknown) {
  const c = countryFilter(country)
  const id_types = ID_TYPES.filter((t) => (!c || t.country === c) && t.products.length > 0).flatMap((t) => {
    const entry = { country: t.country, type: t.id_type, label: t.label, regex: t.regex, required_fields: t.required_fields }
    if (t.id_type !== 'BANK_ACCOUNT') return [entry]
    return BANK_CODES.filter((b) => b.country === t.country).map((b) => ({ ...entry, label: `${t.label} (${b.name})`, bank_code: b.code }))
  })
  return { id_types }
}

export function supportedDocumentList(query: Record<string, unknown>) {
  const { continent, country_code, locale } = query
  if (continent !== undefined && (typeof continent !== 'string' || !(CONTINENTS as readonly string[]).includes(continent))) {
    throw new HttpError(400, `continent must be one of: ${CONTINENTS.join(', ')}`)
  }
  if (locale !== undefined && (typeof locale !== 'string' || !(LOCALES as readonly string[]).includes(locale))) {
    throw new HttpError(400, `locale must be one of: ${LOCALES.join(', ')}`)
  }
  const countryCode = countryFilter(country_code)
  return { valid_documents: supportedDocuments({ continent: continent as string | undefined, countryCode, locale: (locale as string | undefined) ?? 'en-GB' }) }
}
