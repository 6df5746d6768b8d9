/** Picks the engine named by the configuration (`ENGINE`). */
import type { EngineConfig } from '../config.ts'
import type { TranslationEngine } from './engine.ts'
import { PhraseTableEngine } from './phrase-table-engine.ts'

export const ENGINE_NAMES = ['phrase-table'] as const

export function createEngine(config: EngineConfig): TranslationEngine {
  switch (config.kind) {
    case 'phrase-table':
      return new PhraseTableEngine()
    default:
      throw new Error(`Unknown ENGINE "${config.kind}": use one of ${ENGINE_NAMES.join(', ')}`)
  }
}
