/**
 * The `/v2/translate` request as the engines take it: the typed request (translate-request.ts, checked by routeless
 * against the handler's signature) past the rules a type cannot say — the languages this server knows, formality
 * and custom instructions per target, glossary combinations — with DeepL's defaults filled in.
 */
import { HttpError } from 'routeless'
import {
  canonicalTarget,
  isSourceLanguage,
  normalizeCode,
  supportsCustomInstructions,
  supportsFormality,
} from '../languages/catalogue.ts'
import { notSpecified, notSupported } from '../http/params.ts'
import type { Flag, Formality, ModelType, SplitSentences, TagHandling, TranslateRequest } from './translate-request.ts'

export type { Formality, ModelType, SplitSentences, TagHandling } from './translate-request.ts'

export const MAX_CUSTOM_INSTRUCTIONS = 10
export const MAX_CUSTOM_INSTRUCTION_LENGTH = 300
export const MAX_GLOSSARY_IDS = 5

export interface TranslateParams {
  texts: string[]
  /** Base code, upper case (`EN`); undefined = detect. */
  sourceLang: string | undefined
  /** Canonical target (`EN-US`, `DE`). */
  targetLang: string
  context: string | undefined
  showBilledCharacters: boolean
  splitSentences: SplitSentences
  preserveFormatting: boolean
  formality: Formality
  modelType: ModelType | undefined
  glossaryIds: string[]
  styleId: string | undefined
  translationMemoryId: string | undefined
  translationMemoryThreshold: number
  customInstructions: string[]
  tagHandling: TagHandling | undefined
  tagHandlingVersion: 'v1' | 'v2'
  outlineDetection: boolean
  nonSplittingTags: string[]
  splittingTags: string[]
  ignoreTags: string[]
}

/** Absent, null and `''` are all "not given" (forms cannot send null). */
function given<T>(value: T | null | undefined | ''): T | undefined {
  return value === null || value === '' ? undefined : (value as T | undefined)
}

const flag = (value: Flag | null | undefined, fallback: boolean): boolean =>
  value === null || value === undefined ? fallback : value === true || value === 1

/** The translate parameters as the engines take them, or DeepL's 400 for a rule a type cannot say. */
export function translateParams(request: TranslateRequest): TranslateParams {
  const texts = request.text
  if (texts.length === 0) throw notSpecified('text')
  const target = given(request.target_lang)
  if (target === undefined) throw notSpecified('target_lang')
  const targetLang = canonicalTarget(target)
  if (targetLang === undefined) throw notSupported('target_lang')
  const source = given(request.source_lang)
  if (source !== undefined && !isSourceLanguage(source)) throw notSupported('source_lang')
  const sourceLang = source === undefined ? undefined : normalizeCode(source)

  const formality = given(request.formality) ?? 'default'
  if ((formality === 'more' || formality === 'less') && !supportsFormality(targetLang)) {
    throw new HttpError(
      400,
      `Target language '${targetLang}' doesn't support formality. Use 'prefer_more' or 'prefer_less' to fall back silently.`,
    )
  }
  const tagHandling = given(request.tag_handling)
  const split = given(request.split_sentences)
  const glossaryIds = glossaries(request)
  if (glossaryIds.length > 0 && sourceLang === undefined) {
    throw new HttpError(400, 'Use of a glossary requires the source_lang parameter to be specified')
  }
  return {
    texts,
    sourceLang,
    targetLang,
    context: given(request.context),
    showBilledCharacters: flag(request.show_billed_characters, false),
    splitSentences:
      split === undefined ? (tagHandling === 'html' ? 'nonewlines' : '1') : (String(split) as SplitSentences),
    preserveFormatting: flag(request.preserve_formatting, false),
    formality,
    modelType: given(request.model_type),
    glossaryIds,
    styleId: given(request.style_id),
    translationMemoryId: given(request.translation_memory_id),
    translationMemoryThreshold: given(request.translation_memory_threshold) ?? 75,
    customInstructions: customInstructions(request.custom_instructions ?? [], targetLang),
    tagHandling,
    tagHandlingVersion: given(request.tag_handling_version) ?? 'v1',
    outlineDetection: flag(request.outline_detection, true),
    nonSplittingTags: tagList(request.non_splitting_tags, 'non_splitting_tags'),
    splittingTags: tagList(request.splitting_tags, 'splitting_tags'),
    ignoreTags: tagList(request.ignore_tags, 'ignore_tags'),
  }
}

const XML_NAME = /^[A-Za-z_][\w.:-]*$/

/** XML element names, as a list, a comma-separated string (deepl-node), or both. */
function tagList(list: string[] | undefined, name: string): string[] {
  const tags = (list ?? [])
    .flatMap((item) => item.split(','))
    .map((s) => s.trim())
    .filter(Boolean)
  if (!tags.every((t) => XML_NAME.test(t))) throw notSupported(name)
  return tags
}

/** `glossary_id` (one) or `glossary_ids` (up to five; a JSON item may hold a comma list too); not both. */
function glossaries(request: TranslateRequest): string[] {
  const single = given(request.glossary_id)?.trim()
  const many = (request.glossary_ids ?? [])
    .flatMap((item) => item.split(','))
    .map((s) => s.trim())
    .filter(Boolean)
  if (single !== undefined && many.length > 0)
    throw new HttpError(400, "Parameters 'glossary_id' and 'glossary_ids' cannot be combined.")
  if (many.length > MAX_GLOSSARY_IDS)
    throw new HttpError(400, `Parameter 'glossary_ids' accepts at most ${MAX_GLOSSARY_IDS} glossaries.`)
  return single !== undefined ? [single] : many
}

/** Blank instructions are dropped; the rest need a target the instructions work for. */
function customInstructions(list: string[], targetLang: string): string[] {
  const instructions = list.filter((s) => s.trim() !== '')
  if (instructions.length > 0 && !supportsCustomInstructions(targetLang)) {
    throw new HttpError(
      400,
      `Target language '${targetLang}' doesn't support custom_instructions (supported: DE, EN, ES, FR, IT, JA, KO, ZH and their variants).`,
    )
  }
  return instructions
}
