/**
 * Name screening against the bundled list. A strict match needs the same words as the entry's name or one of its
 * aliases (any order, accents and case ignored); a loose match (`strict_match: false`) also accepts the entry's
 * first and last word appearing among the searched words. A birth year excludes entries born in another year.
 */
import type { Outcome } from '../jobs/products.ts'
import { newsCategoryLabel, SCREENING_LIST, type PoliticalPosition, type ScreeningEntry } from './screening-list.ts'

export interface ScreeningQuery {
  full_name: string
  aliases?: string[]
  birth_year?: number
  strict_match: boolean
}

function words(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 1)
}

function nameMatches(searched: string, candidate: string, strict: boolean): boolean {
  const a = words(searched)
  const b = words(candidate)
  if (a.length === 0 || b.length === 0) return false
  const same = a.length === b.length && [...a].sort().join(' ') === [...b].sort().join(' ')
  if (same || strict) return same
  return b.length >= 2 && a.includes(b[0]!) && a.includes(b.at(-1)!)
}

export function screen(query: ScreeningQuery): ScreeningEntry[] {
  const names = [query.full_name, ...(query.aliases ?? [])]
  return SCREENING_LIST.filter((entry) => {
    if (
      query.birth_year &&
      entry.dates_of_birth.length &&
      !entry.dates_of_birth.some((d) => d.startsWith(String(query.birth_year)))
    )
      return false
    return names.some((n) => [entry.name, ...entry.aliases].some((c) => nameMatches(n, c, query.strict_match)))
  })
}

/**
 * A matched entry as it appears in `people[]` of an AML result, in the published AmlPersonMatch shape: the list's
 * plain strings become objects (`{name}`, `{address}`, `{date}`, `{country}`), and `pep` is always an object — with
 * `pep_level: null` and empty lists for a person who holds no political position.
 */
export function personOf(entry: ScreeningEntry) {
  const counts = new Map<string, number>()
  for (const article of entry.news) counts.set(article.news_category, (counts.get(article.news_category) ?? 0) + 1)
  return {
    ref: entry.ref,
    name: entry.name,
    addresses: entry.addresses.map((address) => ({ address })),
    news_summary: [...counts].map(([news_category, number_of_articles]) => ({
      news_category,
      news_category_label: newsCategoryLabel(news_category),
      number_of_articles,
    })),
    aliases: entry.aliases.map((name) => ({ name })),
    associations: entry.associations,
    dates_of_birth: entry.dates_of_birth.map((date) => ({ date })),
    enforcement_actions: entry.enforcement_actions,
    nationalities: entry.nationalities.map((country) => ({ country })),
    sanctions: entry.sanctions,
    pep: pepOf(entry.pep),
  }
}

/** `political_positions` are strings ("Minister of X (ZA, 2014–2019)") and `sources` objects (`{url}`), as published. */
function pepOf(pep: ScreeningEntry['pep']) {
  if (!pep) return { pep_level: null, political_positions: [], sources: [] }
  return {
    pep_level: pep.pep_level,
    political_positions: pep.political_positions.map(positionLabel),
    sources: pep.sources.map((url) => ({ url })),
  }
}

function positionLabel(p: PoliticalPosition): string {
  const where = [p.country, [p.from, p.to].filter(Boolean).join('–')].filter(Boolean).join(', ')
  return where ? `${p.position} (${where})` : p.position
}

/** Matches on sanctions, PEP or enforcement lists block; news alone asks for attention; nothing is clear. */
export function screeningOutcome(matches: ScreeningEntry[]): Outcome {
  if (matches.some((e) => e.sanctions.length || e.pep?.pep_level != null || e.enforcement_actions.length)) {
    return { status: 'block', reason: 'aml_match_found', message: 'Screening completed: potential matches identified.' }
  }
  if (matches.length)
    return {
      status: 'attention',
      reason: 'news_media_match',
      message: 'Screening completed: news media identified only.',
    }
  return { status: 'clear', reason: null, message: 'Screening completed: no matches found.' }
}
