/** Picks the engine named by the configuration (`ENGINE`, `ENGINE_URL`, `ENGINE_API_KEY`, `ENGINE_MODEL`). */
import type { EngineConfig } from '../config.ts'
import { DEEPL_API_URL, DeepLEngine } from './deepl-engine.ts'
import type { TranslationEngine } from './engine.ts'
import { LibreTranslateEngine } from './libretranslate-engine.ts'
import { OpenAiEngine } from './openai-engine.ts'
import { PhraseTableEngine } from './phrase-table-engine.ts'
import { ProtonBeamEngine } from './proton-beam-engine.ts'

export const ENGINE_NAMES = ['phrase-table', 'libretranslate', 'openai', 'deepl'] as const

export function createEngine(config: EngineConfig): TranslationEngine {
  switch (config.kind) {
    case 'phrase-table':
      return new PhraseTableEngine()
    case 'proton-beam': // deepl-mock's engine; readConfig allows it only in TEST_MODE=deepl-mock
      return new ProtonBeamEngine()
    case 'libretranslate':
      return new LibreTranslateEngine(
        required(config.url, 'ENGINE_URL', 'the LibreTranslate server, e.g. http://127.0.0.1:5000'),
        config.apiKey,
      )
    case 'openai':
      return new OpenAiEngine(
        required(config.url, 'ENGINE_URL', 'the OpenAI-compatible API base, e.g. http://127.0.0.1:11434/v1'),
        required(config.model, 'ENGINE_MODEL', 'the model name, e.g. llama3.1'),
        config.apiKey,
      )
    case 'deepl':
      return new DeepLEngine(
        config.url ?? DEEPL_API_URL,
        required(config.apiKey, 'ENGINE_API_KEY', "the operator's DeepL key"),
      )
    default:
      throw new Error(`Unknown ENGINE "${config.kind}": use one of ${ENGINE_NAMES.join(', ')}`)
  }
}

function required(value: string | undefined, name: string, what: string): string {
  if (!value) throw new Error(`${name} is required for this ENGINE: ${what}`)
  return value
}
