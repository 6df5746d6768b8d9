/**
 * Translating what was said: one recognised text through the text pipeline (engine, glossary, formality) without
 * metering characters — speech is billed as milliseconds of audio instead.
 */
import type { ApiKeyRecord } from '../keys/api-key.ts'
import { canonicalTarget, isSourceLanguage } from '../languages/catalogue.ts'
import type { TranslateParams } from '../translate/translate-params.ts'
import type { TranslationService } from '../translate/translation-service.ts'

export type VoiceFormality = 'default' | 'formal' | 'more' | 'informal' | 'less'

const FORMALITY = {
  default: 'default',
  formal: 'prefer_more',
  more: 'prefer_more',
  informal: 'prefer_less',
  less: 'prefer_less',
} as const

export async function translateSpoken(
  translation: TranslationService,
  key: ApiKeyRecord,
  text: string,
  source: string | undefined,
  target: string,
  options: { formality?: VoiceFormality; glossaryId?: string } = {},
): Promise<string> {
  const sourceLang = source && isSourceLanguage(source) ? source.toUpperCase() : undefined
  const glossaryIds = options.glossaryId && sourceLang ? [options.glossaryId] : []
  const params: TranslateParams = {
    texts: [text],
    sourceLang,
    targetLang: canonicalTarget(target) ?? target.toUpperCase(),
    context: undefined,
    showBilledCharacters: false,
    splitSentences: '1',
    preserveFormatting: false,
    formality: FORMALITY[options.formality ?? 'default'],
    modelType: undefined,
    glossaryIds,
    styleId: undefined,
    translationMemoryId: undefined,
    translationMemoryThreshold: 75,
    customInstructions: [],
    tagHandling: undefined,
    tagHandlingVersion: 'v1',
    outlineDetection: true,
    nonSplittingTags: [],
    splittingTags: [],
    ignoreTags: [],
  }
  const [item] = await translation.translate(params, key, '', { meter: false })
  return item!.text
}
