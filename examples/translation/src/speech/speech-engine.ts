/**
 * The pluggable speech engines, like the text engines of src/engines: one interface for recognition (16 kHz mono
 * samples in, text out) and one for synthesis (text in, samples out).
 */

export interface Transcription {
  text: string
  /** Lower-case language code the engine recognised, when it says. */
  language?: string
}

export interface SpeechEngine {
  /** `pocketsphinx`, `openai`. */
  readonly name: string
  /** Source languages it can recognise (lower case), or undefined: any it is asked for. */
  readonly languages: readonly string[] | undefined
  transcribe(samples: Int16Array, language: string | undefined, signal: AbortSignal): Promise<Transcription>
}

export interface SpeechSynthesizer {
  readonly name: string
  /** Speech for `text` in `language` (lower case), as samples at `rate` Hz. */
  synthesize(
    text: string,
    language: string,
    voice: 'male' | 'female' | undefined,
    rate: number,
    signal: AbortSignal,
  ): Promise<Int16Array>
}

/** A speech engine that failed: 503 (unreachable, bad answer) or 504 (no answer in time). */
export class SpeechEngineError extends Error {
  constructor(
    readonly status: 503 | 504,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'SpeechEngineError'
  }
}

/**
 * A speech engine that ended because the server is going away (its instance stopping), not because it failed: a
 * voice session closes 1001 "Server shutting down" on it, as the server's own drain does, and the client reconnects
 * elsewhere.
 */
export class EngineStopped extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'EngineStopped'
  }
}

/**
 * Runs `fn` with a signal aborted after `timeoutMs`, or when `signal` (the caller's) aborts; a timeout becomes a 504
 * `SpeechEngineError`, any other failure a 503 one. `EngineStopped` passes as it is.
 */
export async function withTimeout<T>(
  engine: string,
  timeoutMs: number,
  fn: (signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  try {
    return await fn(signal ? AbortSignal.any([controller.signal, signal]) : controller.signal)
  } catch (error) {
    if (controller.signal.aborted)
      throw new SpeechEngineError(504, `The speech engine ${engine} did not answer within ${timeoutMs} ms.`, {
        cause: error,
      })
    if (error instanceof SpeechEngineError || error instanceof EngineStopped) throw error
    throw new SpeechEngineError(503, `The speech engine ${engine} failed: ${(error as Error).message}`, {
      cause: error,
    })
  } finally {
    clearTimeout(timer)
  }
}
