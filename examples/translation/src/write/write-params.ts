/** The `/v2/write/rephrase` and `/v2/write/correct` request: texts, target language, writing style or tone. */
import { HttpError, type Kwargs } from 'routeless'
import { notSpecified, notSupported, optionalEnum, optionalString, stringArray } from '../http/params.ts'

export const WRITING_STYLES = ['default', 'academic', 'business', 'casual', 'simple', 'prefer_academic', 'prefer_business', 'prefer_casual', 'prefer_simple'] as const
export const TONES = ['default', 'confident', 'diplomatic', 'enthusiastic', 'friendly', 'prefer_confident', 'prefer_diplomatic', 'prefer_enthusiastic', 'prefer_friendly'] as const
export type WritingStyle = (typeof WRITING_STYLES)[number]
export type Tone = (typeof TONES)[number]

/** Write languages and the BCP-47 code answered as `target_language`. */
export const WRITE_TARGETS: Record<string, string> = {
  de: 'de', en: 'en-US', 'en-gb': 'en-GB', 'en-us': 'en-US', es: 'es', fr: 'fr', it: 'it', ja: 'ja', ko: 'ko',
  pt: 'pt-PT', 'pt-br': 'pt-BR', 'pt-pt': 'pt-PT', zh: 'zh-Hans', 'zh-hans': 'zh-Hans',
}
/** Languages where styles and tones can be set (a `prefer_…` value falls back to default elsewhere). */
const STYLED = new Set(['de', 'en', 'es', 'fr', 'it', 'pt'])

export interface WriteParams {
  texts: string[]
  /** BCP-47 target (`en-US`), or undefined: the detected language of each text. */
  target: string | undefined
  style: WritingStyle
  tone: Tone
}

export function readWriteParams(kwargs: Kwargs, rephrase: boolean): WriteParams {
  const texts = stringArray(kwargs, 'text')
  if (!texts || texts.length === 0) throw notSpecified('text')
  const raw = optionalString(kwargs, 'target_lang')?.trim().toLowerCase()
  const target = raw === undefined ? undefined : WRITE_TARGETS[raw]
  if (raw !== undefined && target === undefined) throw notSupported('target_lang')
  let style: WritingStyle = 'default'
  let tone: Tone = 'default'
  if (rephrase) {
    style = optionalEnum(kwargs, 'writing_style', WRITING_STYLES) ?? 'default'
    tone = optionalEnum(kwargs, 'tone', TONES) ?? 'default'
    if (style !== 'default' && tone !== 'default') {
      throw new HttpError(400, 'Bad request. Reason: Both writing_style and tone defined. Currently only style OR tone can be chosen for a single request.')
    }
    const base = target?.split('-')[0]!.toLowerCase()
    if (base !== undefined && !STYLED.has(base)) {
      if (style !== 'default' && !style.startsWith('prefer_')) throw new HttpError(400, `Language ${base} does not support setting a writing style.`)
      if (tone !== 'default' && !tone.startsWith('prefer_')) throw new HttpError(400, `Language ${base} does not support setting a tone.`)
    }
  } else if (kwargs.writing_style !== undefined || kwargs.tone !== undefined) {
    throw new HttpError(400, "Parameters 'writing_style' and 'tone' are only accepted by /v2/write/rephrase.")
  }
  return { texts, target, style, tone }
}

export function styledLanguage(base: string): boolean {
  return STYLED.has(base)
}
