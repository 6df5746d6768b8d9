/**
 * DeepL itself with the operator's key (gateway mode): this server keeps key management, limits and metering; the
 * units go to DeepL's `/v2/translate` in one JSON request, inline markup as XML.
 */
import { EngineError, type EngineRequest, type EngineResponse, type TranslationEngine } from './engine.ts'
import { endpoint, postJson } from './post-json.ts'

export const DEEPL_API_URL = 'https://api.deepl.com'

interface DeepLAnswer {
  translations?: Array<{ text?: unknown; detected_source_language?: unknown; model_type_used?: unknown }>
}

export class DeepLEngine implements TranslationEngine {
  readonly name = 'deepl'

  constructor(
    private readonly url: string,
    private readonly authKey: string,
  ) {}

  async translate(request: EngineRequest): Promise<EngineResponse> {
    const body: Record<string, unknown> = { text: request.units.map((u) => u.text), target_lang: request.targetLang }
    if (request.sourceLang) body.source_lang = request.sourceLang
    if (request.formality !== 'default') body.formality = request.formality
    if (request.preserveFormatting) body.preserve_formatting = true
    if (request.context) body.context = request.context
    if (request.modelType) body.model_type = request.modelType
    if (request.customInstructions.length > 0) body.custom_instructions = request.customInstructions
    if (request.tagHandling) body.tag_handling = 'xml'
    // Units are sentences already: DeepL should not split them again.
    body.split_sentences = request.tagHandling ? 'nonewlines' : '0'
    const answer = (await postJson(this.name, endpoint(this.url, 'v2/translate'), body, {
      headers: { Authorization: `DeepL-Auth-Key ${this.authKey}` },
      signal: request.signal,
    })) as DeepLAnswer
    const items = answer?.translations
    if (
      !Array.isArray(items) ||
      items.length !== request.units.length ||
      !items.every((t) => typeof t?.text === 'string')
    ) {
      throw new EngineError(503, `The translation engine (${this.name}) answered without one translation per text.`)
    }
    return {
      results: items.map((t) =>
        typeof t.detected_source_language === 'string' && t.detected_source_language
          ? { text: t.text as string, detectedSourceLang: t.detected_source_language }
          : { text: t.text as string },
      ),
      modelTypeUsed: typeof items[0]?.model_type_used === 'string' ? items[0].model_type_used : 'quality_optimized',
    }
  }
}
