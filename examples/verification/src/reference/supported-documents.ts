/** Documents accepted for document verification, per country (data/supported-documents.json). */
import { countryName } from './countries.ts'
import { readDataFile } from './data-file.ts'

export const CONTINENTS = ['AFRICA', 'ASIA', 'EUROPE', 'NORTH AMERICA', 'OCEANIA', 'SOUTH AMERICA'] as const
export const LOCALES = ['en-GB', 'fr-FR', 'ar-EG'] as const
export type Continent = (typeof CONTINENTS)[number]
export type Locale = (typeof LOCALES)[number]

interface DocumentRow {
  country: string
  continent: (typeof CONTINENTS)[number]
  id_types: Array<{ code: string; name: string; example: string[]; has_back: boolean }>
}

const DOCUMENTS = readDataFile<DocumentRow[]>('supported-documents.json')

export function supportedDocuments(filter: { continent?: string; countryCode?: string; locale?: string }) {
  return DOCUMENTS.filter(
    (d) =>
      (!filter.continent || d.continent === filter.continent) &&
      (!filter.countryCode || d.country === filter.countryCode),
  ).map((d) => ({
    country: { code: d.country, name: countryName(d.country, filter.locale), continent: d.continent },
    id_types: d.id_types,
  }))
}

export function documentTypesOf(country: string): string[] {
  return DOCUMENTS.find((d) => d.country === country)?.id_types.map((t) => t.code) ?? []
}
