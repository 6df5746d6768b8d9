/** The public catalogue: bank codes, supported ID types and supported documents, filtered by query parameters. */
import { BANK_CODES } from './bank-codes.ts'
import { ID_TYPES } from './id-types.ts'
import { supportedDocuments, type Continent, type Locale } from './supported-documents.ts'

/**
 * ISO 3166-1 alpha-2 country code (two upper-case letters); empty: every country.
 * @pattern ^([A-Z]{2})?$
 * @errorMessage Country Code must be a valid ISO 3166-1 alpha-2 country code consisting of exactly two uppercase letters.
 */
export type CountryFilter = string

/** The query of `/v3/services/bank_codes` and `/v3/services/supported_id_types`. */
export interface CountryQuery {
  country?: CountryFilter
}

/** The query of `/v3/services/supported_documents`. */
export interface SupportedDocumentsQuery {
  /** @errorMessage continent must be one of: AFRICA, ASIA, EUROPE, NORTH AMERICA, OCEANIA, SOUTH AMERICA */
  continent?: Continent
  /**
   * Language of the country names (default en-GB)
   * @errorMessage locale must be one of: en-GB, fr-FR, ar-EG
   */
  locale?: Locale
  country_code?: CountryFilter
}

export function bankCodes(country: string | undefined) {
  const c = country || undefined
  return { bank_codes: BANK_CODES.filter((b) => !c || b.country === c) }
}

/** One ID type of a country, as `/v3/services/supported_id_types` lists it. */
export interface SupportedIdType {
  country: string
  type: string
  label: string
  regex: string
  required_fields: string[]
  /** BANK_ACCOUNT only: the bank this entry is for (one entry per bank). */
  bank_code?: string
}

/** One entry per type; BANK_ACCOUNT once per bank, with its `bank_code`. */
export function supportedIdTypes(country: string | undefined): { id_types: SupportedIdType[] } {
  const c = country || undefined
  const id_types = ID_TYPES.filter((t) => (!c || t.country === c) && t.products.length > 0).flatMap((t) => {
    const entry: SupportedIdType = {
      country: t.country,
      type: t.id_type,
      label: t.label,
      regex: t.regex,
      required_fields: t.required_fields,
    }
    if (t.id_type !== 'BANK_ACCOUNT') return [entry]
    return BANK_CODES.filter((b) => b.country === t.country).map((b) => ({
      ...entry,
      label: `${t.label} (${b.name})`,
      bank_code: b.code,
    }))
  })
  return { id_types }
}

export function supportedDocumentList({ continent, country_code, locale }: SupportedDocumentsQuery) {
  return {
    valid_documents: supportedDocuments({
      continent,
      countryCode: country_code || undefined,
      locale: locale ?? 'en-GB',
    }),
  }
}
