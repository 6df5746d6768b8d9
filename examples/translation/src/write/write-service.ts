/**
 * `/v2/write/*` behind the controllers: each text's language is detected; a text in another language than
 * `target_lang` is first translated by the configured engine (billed like `/v2/translate`), then improved by the
 * rule-based writer. Improvements themselves are not billed (this server meters translation only).
 */
import { HttpError } from 'routeless'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import { translateParams } from '../translate/translate-params.ts'
import type { TranslationService } from '../translate/translation-service.ts'
import { correct, rephrase } from './rule-based-writer.ts'
import { PROTON_BEAM_ENGINE } from '../engines/proton-beam-engine.ts'
import { protonBeam } from '../engines/proton-beam.ts'
import { styledLanguage, WRITE_TARGETS, type WriteParams } from './write-params.ts'

export async function improve(
  params: WriteParams,
  mode: 'rephrase' | 'correct',
  translation: TranslationService,
  key: ApiKeyRecord,
) {
  const improvements = []
  for (const text of params.texts) {
    const detected = translation.detectLanguage(text).toLowerCase()
    const target = params.target ?? WRITE_TARGETS[detected]
    if (target === undefined)
      throw new HttpError(400, `Language ${detected} is not supported by the write API; set target_lang.`)
    const base = target.split('-')[0]!.toLowerCase()
    let source = text
    if (base !== detected && text.trim() !== '') {
      const [item] = await translation.translate(translateParams({ text: [text], target_lang: target }), key, '')
      source = item!.text
    }
    const style = styledLanguage(base) ? params.style : 'default'
    const tone = styledLanguage(base) ? params.tone : 'default'
    // deepl-mock's engine (TEST_MODE=deepl-mock) rephrases into its test phrase, as deepl-mock does.
    const improved =
      translation.engineName === PROTON_BEAM_ENGINE && mode === 'rephrase'
        ? protonBeam(target)
        : mode === 'rephrase'
          ? rephrase(source, base, style, tone)
          : correct(source, base)
    improvements.push({ text: improved, detected_source_language: detected, target_language: target })
  }
  return { improvements }
}
