/** The `/v2/translate` request: every parameter of the DeepL table, read from a JSON or form body and validated. */
import { HttpError, type Kwargs } from 'routeless'
import { canonicalTarget, isSourceLanguage, normalizeCode, supportsCustomInstructions, supportsFormality } from '../languages/catalogue.ts'
import { commaList, notSpecified, notSupported, optionalBoolean, optionalEnum, optionalInteger, optionalString, requiredString, stringArray } from '../http/params.ts'

export const FORMALITIES = ['default', 'more', 'less', 'prefer_more', 'prefer_less'] as const
export const MODEL_TYPES = ['quality_optimized', 'prefer_quality_optimized', 'latency_optimized'] as const
export const SPLIT_SENTENCES = ['0', '1', 'nonewlines'] as const
export const TAG_HANDLINGS = ['xml', 'html'] as const
export const TAG_HANDLING_VERSIONS = ['v1', 'v2'] as const

export type Formality = (typeof FORMALITIES)[number]
export type ModelType = (typeof MODEL_TYPES)[number]
export type SplitSentences = (typeof SPLIT_SENTENCES)[number]
export type TagHandling = (typeof TAG_HANDLINGS)[number]

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

const XML_NAME = /^[A-Za-z_][\w.:-]*$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Validates the keyword arguments of a translate request, from either body encoding: every parameter, `style_id`
 * included, is read the same from a form (as deepl-node sends it) and from JSON.
 */
export function readTranslateParams(kwargs: Kwargs): TranslateParams {
  const texts = readTexts(kwargs)
  const targetLang = canonicalTarget(requiredString(kwargs, 'target_lang'))
  if (targetLang === undefined) throw notSupported('target_lang')
  const source = optionalString(kwargs, 'source_lang')
  if (source !== undefined && !isSourceLanguage(source)) throw notSupported('source_lang')
  const sourceLang = source === undefined ? undefined : normalizeCode(source)

  const formality = optionalEnum(kwargs, 'formality', FORMALITIES) ?? 'default'
  if ((formality === 'more' || formality === 'less') && !supportsFormality(targetLang)) {
    throw new HttpError(400, `Target language '${targetLang}' doesn't support formality. Use 'prefer_more' or 'prefer_less' to fall back silently.`)
  }

  const tagHandling = optionalEnum(kwargs, 'tag_handling', TAG_HANDLINGS)
  const splitSentences = optionalEnum(kwargs, 'split_sentences', SPLIT_SENTENCES) ?? (tagHandling === 'html' ? 'nonewlines' : '1')

  const glossaryIds = readGlossaryIds(kwargs)
  if (glossaryIds.length > 0 && sourceLang === undefined) {
    throw new HttpError(400, 'Use of a glossary requires the source_lang parameter to be specified')
  }

  const styleId = optionalString(kwargs, 'style_id')

  const translationMemoryId = optionalString(kwargs, 'translation_memory_id')
  if (translationMemoryId !== undefined && !UUID.test(translationMemoryId)) throw notSupported('translation_memory_id')
  const threshold = readThreshold(kwargs)

  const customInstructions = readCustomInstructions(kwargs, targetLang)

  const tagLists = {
    nonSplittingTags: readTagList(kwargs, 'non_splitting_tags'),
    splittingTags: readTagList(kwargs, 'splitting_tags'),
    ignoreTags: readTagList(kwargs, 'ignore_tags'),
  }

  return {
    texts,
    sourceLang,
    targetLang,
    context: optionalString(kwargs, 'context'),
    showBilledCharacters: optionalBoolean(kwargs, 'show_billed_characters', false),
    splitSentences,
    preserveFormatting: optionalBoolean(kwargs, 'preserve_formatting', false),
    formality,
    modelType: optionalEnum(kwargs, 'model_type', MODEL_TYPES),
    glossaryIds,
    styleId,
    translationMemoryId,
    translationMemoryThreshold: threshold,
    customInstructions,
    tagHandling,
    tagHandlingVersion: optionalEnum(kwargs, 'tag_handling_version', TAG_HANDLING_VERSIONS) ?? 'v1',
    outlineDetection: optionalBoolean(kwargs, 'outline_detection', true),
    ...tagLists,
  }
}

function readTexts(kwargs: Kwargs): string[] {
  const texts = stringArray(kwargs, 'text')
  if (texts === undefined || texts.length === 0) throw notSpecified('text')
  return texts
}

/** `glossary_id` (one) or `glossary_ids` (up to five, comma-separated or repeated); not both. */
function readGlossaryIds(kwargs: Kwargs): string[] {
  const single = optionalString(kwargs, 'glossary_id')
  const many = commaList(kwargs, 'glossary_ids')
  if (single !== undefined && many.length > 0) throw new HttpError(400, "Parameters 'glossary_id' and 'glossary_ids' cannot be combined.")
  if (many.length > MAX_GLOSSARY_IDS) throw new HttpError(400, `Parameter 'glossary_ids' accepts at most ${MAX_GLOSSARY_IDS} glossaries.`)
  return single !== undefined ? [single.trim()] : many
}

function readThreshold(kwargs: Kwargs): number {
  let value: number | undefined
  try {
    value = optionalInteger(kwargs, 'translation_memory_threshold')
  } catch {
    value = NaN
  }
  if (value === undefined) return 75
  if (!Number.isInteger(value) || value < 0 || value > 100) {
    throw new HttpError(400, 'Parameter "translation_memory_threshold" must be an integer between 0 and 100')
  }
  return value
}

function readCustomInstructions(kwargs: Kwargs, targetLang: string): string[] {
  const list = stringArray(kwargs, 'custom_instructions') ?? []
  const instructions = list.filter((s) => s.trim() !== '')
  if (instructions.length === 0) return []
  if (instructions.length > MAX_CUSTOM_INSTRUCTIONS) {
    throw new HttpError(400, `Parameter 'custom_instructions' accepts at most ${MAX_CUSTOM_INSTRUCTIONS} instructions.`)
  }
  if (instructions.some((s) => [...s].length > MAX_CUSTOM_INSTRUCTION_LENGTH)) {
    throw new HttpError(400, `Each of 'custom_instructions' may have at most ${MAX_CUSTOM_INSTRUCTION_LENGTH} characters.`)
  }
  if (!supportsCustomInstructions(targetLang)) {
    throw new HttpError(400, `Target language '${targetLang}' doesn't support custom_instructions (supported: DE, EN, ES, FR, IT, JA, KO, ZH and their variants).`)
  }
  return instructions
}

function readTagList(kwargs: Kwargs, name: string): string[] {
  const tags = commaList(kwargs, name)
  if (!tags.every((t) => XML_NAME.test(t))) throw notSupported(name)
  return tags
}
