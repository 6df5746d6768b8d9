/** Picks the speech engine named by the configuration (`SPEECH_ENGINE`, `SPEECH_ENGINE_URL`, `SPEECH_ENGINE_API_KEY`, `SPEECH_ENGINE_MODEL`). */
import type { VoiceConfig } from '../config.ts'
import type { EngineProcesses } from './engine-processes.ts'
import { OpenAiTranscriptionEngine } from './openai-transcription-engine.ts'
import { PocketsphinxEngine } from './pocketsphinx-engine.ts'
import type { SpeechEngine } from './speech-engine.ts'

export const SPEECH_ENGINE_NAMES = ['pocketsphinx', 'openai'] as const

export function createSpeechEngine(config: VoiceConfig, processes: EngineProcesses): SpeechEngine {
  switch (config.speechEngine) {
    case 'pocketsphinx':
      return new PocketsphinxEngine(processes)
    case 'openai':
      if (!config.speechEngineUrl)
        throw new Error(
          'SPEECH_ENGINE_URL is required for SPEECH_ENGINE=openai: the OpenAI-compatible API base, e.g. http://127.0.0.1:8080/v1',
        )
      return new OpenAiTranscriptionEngine(config.speechEngineUrl, config.speechEngineModel, config.speechEngineApiKey)
    default:
      throw new Error(`Unknown SPEECH_ENGINE "${config.speechEngine}": use one of ${SPEECH_ENGINE_NAMES.join(', ')}`)
  }
}
