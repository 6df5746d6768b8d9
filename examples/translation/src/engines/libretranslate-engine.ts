/**
 * LibreTranslate (the open-source MT server) over HTTP: `POST /translate` with all units as `q`, `format: html` when
 * tags are handled (LibreTranslate keeps them). It detects the source itself when none is given.
 */
import { baseLanguage } from '../languages/catalogue.ts'
import { EngineError, type EngineRequest, type EngineResponse, type TranslationEngine } from './engine.ts'
import { endpoint, postJson } from './post-json.ts'

interface LibreAnswer {
  translatedText?: string | string[]
  detectedLanguage?: { language?: string } | Array<{ language?: string }>
}

export class LibreTranslateEngine implements TranslationEngine {
  readonly name = 'libretranslate'

  constructor(
    private readonly url: string,
    private readonly apiKey?: string,
  ) {}

  async translate(request: EngineRequest): Promise<EngineResponse> {
    const body: Record<string, unknown> = {
      q: request.units.map((u) => u.text),
      source: request.sourceLang ? libreCode(request.sourceLang) : 'auto',
      target: libreCode(request.targetLang),
      format: request.tagHandling ? 'html' : 'text',
    }
    if (this.apiKey) body.api_key = this.apiKey
    const answer = (await postJson(this.name, endpoint(this.url, 'translate'), body, {
      signal: request.signal,
    })) as LibreAnswer
    const texts = Array.isArray(answer?.translatedText)
      ? answer.translatedText
      : typeof answer?.translatedText === 'string'
        ? [answer.translatedText]
        : undefined
    if (!texts || texts.length !== request.units.length || !texts.every((t) => typeof t === 'string')) {
      throw new EngineError(503, `The translation engine (${this.name}) answered without one translatedText per text.`)
    }
    const detected = Array.isArray(answer.detectedLanguage)
      ? answer.detectedLanguage
      : answer.detectedLanguage
        ? [answer.detectedLanguage]
        : []
    return {
      results: texts.map((text, i) => {
        const language = detected[i]?.language
        return language ? { text, detectedSourceLang: baseLanguage(language) } : { text }
      }),
      modelTypeUsed: 'quality_optimized',
    }
  }
}

/** DeepL codes → LibreTranslate's: base language in lower case; traditional Chinese is `zt`. */
export function libreCode(code: string): string {
  if (code.toUpperCase() === 'ZH-HANT') return 'zt'
  return baseLanguage(code).toLowerCase()
}
