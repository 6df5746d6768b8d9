/**
 * deepl-mock's engine (test mode only, `TEST_MODE=deepl-mock`): every non-blank line of a unit becomes "proton beam"
 * in the target language, whatever it said, unless the whole line is a glossary term (then the term's
 * translation). A line that is the phrase in some language is detected as that language, anything else as English.
 * Markup is kept; formality, context and instructions are accepted and change nothing — as in deepl-mock.
 */
import type { EngineRequest, EngineResponse, TranslationEngine } from './engine.ts'
import { protonBeam, protonBeamLanguage } from './proton-beam.ts'

export const PROTON_BEAM_ENGINE = 'proton-beam'

const TAG_SPLIT = /(<[^>]*>)/

export class ProtonBeamEngine implements TranslationEngine {
  readonly name = PROTON_BEAM_ENGINE

  async translate(request: EngineRequest): Promise<EngineResponse> {
    const phrase = protonBeam(request.targetLang)
    const results = request.units.map((unit) => {
      const pieces = request.tagHandling ? unit.text.split(TAG_SPLIT) : [unit.text]
      const text = pieces
        .map((piece) =>
          request.tagHandling && piece.startsWith('<') && piece.endsWith('>')
            ? piece
            : translateLines(piece, phrase, request.glossary),
        )
        .join('')
      const detected = unit.text
        .split('\n')
        .map((line) => protonBeamLanguage(line.replace(/<[^>]*>/g, '')))
        .find(Boolean)
      return { text, detectedSourceLang: request.sourceLang ?? detected ?? 'EN' }
    })
    return {
      results,
      modelTypeUsed: request.modelType === 'latency_optimized' ? 'latency_optimized' : 'quality_optimized',
    }
  }
}

function translateLines(text: string, phrase: string, glossary: ReadonlyMap<string, string> | undefined): string {
  return text
    .split('\n')
    .map((line) => {
      const content = line.trim()
      if (content === '') return line
      const lead = line.slice(0, line.indexOf(content))
      const trail = line.slice(line.indexOf(content) + content.length)
      return lead + (glossary?.get(content) ?? phrase) + trail
    })
    .join('\n')
}
