/** Inputs of the translation-memory endpoints (JSON or form), with DeepL's language sets and messages. */
import { HttpError, type Kwargs } from 'routeless'
import { notSpecified, notSupported, optionalInteger, requiredString } from '../http/params.ts'
import type { SegmentInput } from './memory-store.ts'

export const TM_SOURCES = new Set(['de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'zh'])
export const TM_TARGETS = new Set([...TM_SOURCES, 'en-gb', 'en-us', 'es-419', 'zh-hans'])
export const MAX_SEGMENT_CHARACTERS = 10_000

export function readMemory(kwargs: Kwargs) {
  const name = requiredString(kwargs, 'name')
  const source = requiredString(kwargs, 'source_language').trim().toLowerCase()
  if (!TM_SOURCES.has(source)) throw notSupported('source_language')
  const raw = kwargs.target_languages
  const targets = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : []).map((t) => String(t).trim().toLowerCase()).filter(Boolean)
  if (targets.length === 0) throw notSpecified('target_languages')
  if (!targets.every((t) => TM_TARGETS.has(t) && t.split('-')[0] !== source)) throw notSupported('target_languages')
  return { name, source, targets: [...new Set(targets)] }
}

/** `segments`: a JSON array of `{source_text, target_language, target_text}` for languages of the memory. */
export function readSegments(kwargs: Kwargs, targets: string[], required: boolean): SegmentInput[] {
  const raw = kwargs.segments
  if (raw === undefined || raw === null) {
    if (required) throw notSpecified('segments')
    return []
  }
  if (!Array.isArray(raw)) throw notSupported('segments')
  return raw.map((item, i) => {
    const s = item as Kwargs
    if (typeof s !== 'object' || s === null) throw notSupported('segments')
    const sourceText = typeof s.source_text === 'string' ? s.source_text.trim() : ''
    const targetText = typeof s.target_text === 'string' ? s.target_text.trim() : ''
    const targetLanguage = typeof s.target_language === 'string' ? s.target_language.trim().toLowerCase() : ''
    if (!sourceText || !targetText) throw new HttpError(400, `Segment ${i} needs a non-empty source_text and target_text.`)
    if ([...sourceText].length > MAX_SEGMENT_CHARACTERS || [...targetText].length > MAX_SEGMENT_CHARACTERS) throw new HttpError(400, `Segment ${i} is longer than ${MAX_SEGMENT_CHARACTERS} characters.`)
    if (!targets.includes(targetLanguage)) throw new HttpError(400, `Segment ${i}: target_language '${targetLanguage}' is not a target language of this translation memory.`)
    return { sourceText, targetLanguage, targetText }
  })
}

export function readPage(kwargs: Kwargs, name: string, fallback: number, min: number, max: number): number {
  const n = optionalInteger(kwargs, name) ?? fallback
  if (n < min || n > max) throw notSupported(name)
  return n
}
