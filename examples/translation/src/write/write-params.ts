/**
 * The `/v2/write/rephrase` and `/v2/write/correct` requests: their types (the handlers' signatures, checked by
 * routeless), and the rules a type cannot say — which languages take a style or a tone, not both at once.
 */
import { HttpError } from 'routeless'
import { notSpecified, notSupported } from '../http/params.ts'

export type WritingStyle =
  | 'default'
  | 'academic'
  | 'business'
  | 'casual'
  | 'simple'
  | 'prefer_academic'
  | 'prefer_business'
  | 'prefer_casual'
  | 'prefer_simple'
export type Tone =
  | 'default'
  | 'confident'
  | 'diplomatic'
  | 'enthusiastic'
  | 'friendly'
  | 'prefer_confident'
  | 'prefer_diplomatic'
  | 'prefer_enthusiastic'
  | 'prefer_friendly'

/** POST /v2/write/correct. */
export interface CorrectRequest {
  /** The texts to improve (a repeated form field, or a JSON array). */
  text: string[]
  /** `de`, `en-GB`, `en-US` …; omitted: each text's own language. */
  target_lang?: string | null
  /** Extra parameters a client passes through are accepted and ignored. */
  [extra: string]: unknown
}

/** POST /v2/write/rephrase: a writing style or a tone, not both. */
export interface RephraseRequest extends CorrectRequest {
  writing_style?: WritingStyle | null
  tone?: Tone | null
}

/** Write languages and the BCP-47 code answered as `target_language`. */
export const WRITE_TARGETS: Record<string, string> = {
  de: 'de',
  en: 'en-US',
  'en-gb': 'en-GB',
  'en-us': 'en-US',
  es: 'es',
  fr: 'fr',
  it: 'it',
  ja: 'ja',
  ko: 'ko',
  pt: 'pt-PT',
  'pt-br': 'pt-BR',
  'pt-pt': 'pt-PT',
  zh: 'zh-Hans',
  'zh-hans': 'zh-Hans',
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

/** The write request as the service takes it, or DeepL's 400 for a rule a type cannot say. */
export function writeParams(request: RephraseRequest, rephrase: boolean): WriteParams {
  const texts = request.text
  if (texts.length === 0) throw notSpecified('text')
  const raw = request.target_lang?.trim().toLowerCase() || undefined
  const target = raw === undefined ? undefined : WRITE_TARGETS[raw]
  if (raw !== undefined && target === undefined) throw notSupported('target_lang')
  const style = request.writing_style ?? 'default'
  const tone = request.tone ?? 'default'
  if (!rephrase) {
    if (request.writing_style != null || request.tone != null)
      throw new HttpError(400, "Parameters 'writing_style' and 'tone' are only accepted by /v2/write/rephrase.")
    return { texts, target, style: 'default', tone: 'default' }
  }
  if (style !== 'default' && tone !== 'default') {
    throw new HttpError(
      400,
      'Bad request. Reason: Both writing_style and tone defined. Currently only style OR tone can be chosen for a single request.',
    )
  }
  const base = target?.split('-')[0]?.toLowerCase()
  if (base !== undefined && !STYLED.has(base)) {
    if (style !== 'default' && !style.startsWith('prefer_'))
      throw new HttpError(400, `Language ${base} does not support setting a writing style.`)
    if (tone !== 'default' && !tone.startsWith('prefer_'))
      throw new HttpError(400, `Language ${base} does not support setting a tone.`)
  }
  return { texts, target, style, tone }
}

export function styledLanguage(base: string): boolean {
  return STYLED.has(base)
}
