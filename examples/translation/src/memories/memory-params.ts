/**
 * Inputs of the translation-memory endpoints (JSON or form) as the handlers' types, and the rules a type cannot say:
 * DeepL's language sets, trimmed texts, segments in the memory's own languages.
 */
import { HttpError } from 'routeless'
import { notSpecified, notSupported } from '../http/params.ts'
import type { SegmentInput } from './memory-store.ts'

export const TM_SOURCES = new Set(['de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'zh'])
export const TM_TARGETS = new Set([...TM_SOURCES, 'en-gb', 'en-us', 'es-419', 'zh-hans'])
export const MAX_SEGMENT_CHARACTERS = 10_000

/** One source text and its translation into one of the memory's target languages. */
export interface Segment {
  source_text: string
  target_language: string
  target_text: string
}

/** POST /v3/translation_memories. */
export interface NewMemory {
  name: string
  source_language: string
  /** Target languages: a JSON array, repeated form fields, or a comma-separated list. */
  target_languages: string[]
  segments?: Segment[] | null
  [extra: string]: unknown
}

/** POST /v3/translation_memories/{id}/segments. */
export interface NewSegments {
  segments: Segment[]
  [extra: string]: unknown
}

/**
 * Segments per page.
 * @integer
 * @minimum 1
 * @maximum 100
 */
export type SegmentPageSize = number

/**
 * Where the next page starts (the `next_page_cursor` of the last one).
 * @integer
 * @minimum 0
 */
export type PageCursor = number

/** GET /v3/translation_memories/{id}/segments. */
export interface SegmentPage {
  page_size?: SegmentPageSize | null
  page_cursor?: PageCursor | null
  [extra: string]: unknown
}

/** The memory's name and languages, checked against DeepL's language sets. */
export function memoryParams(request: NewMemory) {
  const name = request.name.trim() === '' ? undefined : request.name
  if (name === undefined) throw notSpecified('name')
  const source = request.source_language.trim().toLowerCase()
  if (source === '') throw notSpecified('source_language')
  if (!TM_SOURCES.has(source)) throw notSupported('source_language')
  const targets = request.target_languages
    .flatMap((t) => t.split(','))
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean)
  if (targets.length === 0) throw notSpecified('target_languages')
  if (!targets.every((t) => TM_TARGETS.has(t) && t.split('-')[0] !== source)) throw notSupported('target_languages')
  return { name, source, targets: [...new Set(targets)] }
}

/** Segments for a memory of languages `targets`: texts trimmed and not empty, at most 10,000 characters. */
export function segmentInputs(segments: Segment[], targets: string[]): SegmentInput[] {
  return segments.map((s, i) => {
    const sourceText = s.source_text.trim()
    const targetText = s.target_text.trim()
    const targetLanguage = s.target_language.trim().toLowerCase()
    if (!sourceText || !targetText)
      throw new HttpError(400, `Segment ${i} needs a non-empty source_text and target_text.`)
    if ([...sourceText].length > MAX_SEGMENT_CHARACTERS || [...targetText].length > MAX_SEGMENT_CHARACTERS)
      throw new HttpError(400, `Segment ${i} is longer than ${MAX_SEGMENT_CHARACTERS} characters.`)
    if (!targets.includes(targetLanguage))
      throw new HttpError(
        400,
        `Segment ${i}: target_language '${targetLanguage}' is not a target language of this translation memory.`,
      )
    return { sourceText, targetLanguage, targetText }
  })
}
