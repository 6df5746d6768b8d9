/** The bundled screening list (data/screening-list.json): fictional people on sanctions, PEP and news lists. */
import { readDataFile } from '../reference/data-file.ts'

export interface NewsArticle {
  news_category: string
  title: string
  body: string
  publisher: string
  publisher_country_code: string
  published_date: string
  url: string
}

export interface PoliticalPosition {
  position: string
  country?: string
  from?: string
  to?: string
}

export interface ScreeningEntry {
  ref: string
  name: string
  aliases: string[]
  dates_of_birth: string[]
  nationalities: string[]
  addresses: string[]
  associations: unknown[]
  sanctions: Array<{ list: string; listed_on?: string }>
  pep: { pep_level: number; political_positions: PoliticalPosition[]; sources: string[] } | null
  enforcement_actions: unknown[]
  news: NewsArticle[]
}

export const SCREENING_LIST: readonly ScreeningEntry[] = readDataFile<{ entries: ScreeningEntry[] }>(
  'screening-list.json',
).entries

export function findEntry(ref: string): ScreeningEntry | undefined {
  return SCREENING_LIST.find((e) => e.ref === ref)
}

export const NEWS_CATEGORIES = [
  'arms_trafficking',
  'credit_update',
  'environmental_crime',
  'financial_crime',
  'human_rights_violation',
  'leadership_change',
  'legal_risk',
  'location_change',
  'narcotics',
  'other',
  'other_crime',
  'ownership_change',
  'product_change',
  'regulatory',
  'sexual_crime',
  'technology_event',
  'terrorism',
  'violent_crime',
] as const
export type NewsCategory = (typeof NEWS_CATEGORIES)[number]

export function newsCategoryLabel(category: string): string {
  return category
    .split('_')
    .map((w, i) => (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ')
}
