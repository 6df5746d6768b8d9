/** The Voice API's languages, as the official OpenAPI enumerates them (`VoiceSourceLanguage`, `VoiceTargetLanguages`, `VoiceTargetMediaLanguages`). */

export const VOICE_SOURCE_LANGUAGES: readonly string[] =
  'ar bg bn cs da de el en es et fi fr ga he hr hu id it ja ko lt lv mt nb nl pl pt ro ru sk sl sv th tl tr uk vi zh'.split(
    ' ',
  )

export const VOICE_TARGET_LANGUAGES: readonly string[] = [
  ...VOICE_SOURCE_LANGUAGES,
  'en-GB',
  'en-US',
  'pt-BR',
  'pt-PT',
  'zh-HANS',
  'zh-HANT',
].sort()

/** Targets that may have synthesised speech (`target_media_languages`). */
export const VOICE_TTS_LANGUAGES: readonly string[] = [
  'ar',
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'en-GB',
  'en-US',
  'es',
  'fi',
  'fr',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'nb',
  'nl',
  'pl',
  'pt',
  'pt-BR',
  'pt-PT',
  'ro',
  'ru',
  'sk',
  'sv',
  'tr',
  'uk',
  'vi',
  'zh',
  'zh-HANS',
  'zh-HANT',
]

/** English names of the voice languages the text catalogue does not list. */
export const EXTRA_LANGUAGE_NAMES: Record<string, string> = {
  bn: 'Bengali',
  ga: 'Irish',
  hr: 'Croatian',
  mt: 'Maltese',
  tl: 'Tagalog',
}

/** The voice target code matching `code` case-insensitively (`en-us` → `en-US`), or undefined. */
export function voiceTarget(code: string): string | undefined {
  const lower = code.trim().toLowerCase()
  return VOICE_TARGET_LANGUAGES.find((t) => t.toLowerCase() === lower)
}

export function voiceSource(code: string): string | undefined {
  const lower = code.trim().toLowerCase()
  return VOICE_SOURCE_LANGUAGES.find((t) => t === lower)
}
