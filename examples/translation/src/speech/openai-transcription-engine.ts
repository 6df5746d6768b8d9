/**
 * An OpenAI-compatible transcription endpoint (`POST {base}/audio/transcriptions`, multipart: `file` as WAV,
 * `model`, `language`, `response_format=json`), as OpenAI, whisper.cpp's server, faster-whisper-server, LocalAI and
 * others speak it.
 */
import { wav } from './pcm.ts'
import { SpeechEngineError, type SpeechEngine, type Transcription } from './speech-engine.ts'

export class OpenAiTranscriptionEngine implements SpeechEngine {
  readonly name = 'openai'
  readonly languages = undefined

  constructor(
    private readonly baseUrl: string,
    private readonly model: string,
    private readonly apiKey: string | undefined,
  ) {}

  async transcribe(samples: Int16Array, language: string | undefined, signal: AbortSignal): Promise<Transcription> {
    if (samples.length === 0) return { text: '', language }
    const form = new FormData()
    form.set('file', new Blob([wav(samples) as Uint8Array<ArrayBuffer>], { type: 'audio/wav' }), 'audio.wav')
    form.set('model', this.model)
    form.set('response_format', 'json')
    if (language) form.set('language', language.split('-')[0]!.toLowerCase())
    const response = await fetch(`${this.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`, {
      method: 'POST',
      body: form,
      signal,
      headers: this.apiKey ? { Authorization: `Bearer ${this.apiKey}` } : {},
    })
    if (!response.ok) throw new SpeechEngineError(503, `The speech engine openai answered ${response.status}.`)
    const body = (await response.json().catch(() => undefined)) as { text?: unknown; language?: unknown } | undefined
    if (!body || typeof body.text !== 'string')
      throw new SpeechEngineError(503, 'The speech engine openai answered without a text.')
    return {
      text: body.text.trim(),
      language: typeof body.language === 'string' && body.language.length <= 3 ? body.language.toLowerCase() : language,
    }
  }
}
