/** ISO 3166-1 alpha-2 countries (data/countries.json, names from Unicode CLDR as shipped with Node's ICU). */
import { readDataFile } from './data-file.ts'

const COUNTRIES = readDataFile<Array<{ code: string; name: string }>>('countries.json')
const BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c.name]))
const BY_NAME = new Map(COUNTRIES.map((c) => [normalise(c.name), c.code]))

function normalise(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim()
}

export function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && BY_CODE.has(value)
}

/** An ISO-2 code (any case) or an English country name → the upper-case ISO-2 code. */
export function resolveCountry(value: string): string | undefined {
  const trimmed = value.trim()
  if (/^[A-Za-z]{2}$/.test(trimmed) && BY_CODE.has(trimmed.toUpperCase())) return trimmed.toUpperCase()
  return BY_NAME.get(normalise(trimmed))
}

/** The country's name in `locale` (falls back to English). */
export function countryName(code: string, locale = 'en-GB'): string {
  try {
    return new Intl.DisplayNames([locale, 'en'], { type: 'region' }).of(code) ?? BY_CODE.get(code) ?? code
  } catch {
    return BY_CODE.get(code) ?? code
  }
}
