/**
 * One real-time voice connection: audio chunks in, transcript and translation updates out, in the messages of
 * DeepL's Voice WebSocket (source_transcript_update, target_transcript_update, end_of_source_transcript,
 * end_of_target_transcript, end_of_stream, error). Work for the socket runs one step at a time, so messages leave
 * in order; a tentative update is skipped while chunks wait behind it. The session ends on `end_of_source_media`
 * (everything is concluded, then the end messages, then close 1000), at its time limit (the same, with the reason
 * "Session time limit reached"), after `idleMs` without a message, or on an error (an `error` message, then a
 * close frame with the reason) — but a speech engine that ends because the instance is stopping (`EngineStopped`)
 * is the server going away: close 1001 "Server shutting down", as the server's own drain closes the socket, and the
 * client reconnects on another instance. The audio received is billed once, however it ends; a closed session's
 * engine runs are aborted.
 */
import type { MessageProblem, Socket } from 'routeless'
import { AudioFormatError, createDecoder, type AudioDecoder } from '../speech/audio-format.ts'
import { SPEECH_RATE } from '../speech/pcm.ts'
import { EngineStopped, withTimeout, type SpeechEngine, type SpeechSynthesizer } from '../speech/speech-engine.ts'
import { Segmenter, type Utterance } from './segmenter.ts'
import { refusal, type VoiceClientMessage, type VoiceServerMessage } from './voice-messages.ts'
import type { VoiceSessionConfig } from './voice-sessions.ts'

export const MAX_CHUNK_BYTES = 100 * 1024
/**
 * Back-pressure: audio received but not yet processed. A client streaming in real time never comes near it; one that
 * sends faster than recognition keeps up is stopped (an error, close 1008) instead of filling the server's memory.
 */
export const MAX_PENDING_BYTES = 2 * 1024 * 1024
/** The close of a session whose instance is stopping (the server's own drain closes with the same). */
export const GOING_AWAY = { code: 1001, reason: 'Server shutting down' } as const

export interface RealtimeLimits {
  /** Longest session, in audio milliseconds and in wall-clock time (whichever comes first). */
  maxMs: number
  /** Longest wait for a message. */
  idleMs: number
  engineTimeoutMs: number
  /** How often a growing utterance is recognised as tentative. */
  partialMs: number
}

export interface RealtimeDeps {
  speech: SpeechEngine
  synthesizer: SpeechSynthesizer | undefined
  /** Translates one text (source: lower-case code or undefined) to a voice target. */
  translate(text: string, source: string | undefined, target: string): Promise<string>
  /** Bills milliseconds of audio (called once). */
  bill(milliseconds: number): Promise<void>
  onError(error: unknown): void
}

type Segment = { text: string; start_time: number; end_time: number }

export class RealtimeSession {
  private readonly decoder: AudioDecoder
  private readonly segmenter: Segmenter
  private work: Promise<void> = Promise.resolve()
  /** Chunks waiting to be decoded, and their bytes. */
  private queued = 0
  private pendingBytes = 0
  private samples = 0
  private ending = false
  private closed = false
  private billed = false
  private idleTimer: NodeJS.Timeout | undefined
  /** Aborted when the socket closes: the engine runs in progress are no longer needed. */
  private readonly abort = new AbortController()
  private readonly limitTimer: NodeJS.Timeout
  private readonly maxMs: number

  constructor(
    private readonly socket: Socket<VoiceServerMessage>,
    private readonly config: VoiceSessionConfig,
    private readonly deps: RealtimeDeps,
    private readonly limits: RealtimeLimits,
  ) {
    this.decoder = createDecoder(config.sourceMediaContentType)
    this.segmenter = new Segmenter({ partialMs: limits.partialMs })
    this.maxMs = limits.maxMs
    this.limitTimer = setTimeout(() => this.finish('Session time limit reached'), Math.max(0, limits.maxMs))
    this.touch()
  }

  /** Milliseconds of audio received (what is billed). */
  get audioMs(): number {
    return Math.ceil((this.samples * 1000) / SPEECH_RATE)
  }

  /** A client message, parsed and checked against its type by routeless. */
  message(message: VoiceClientMessage): void {
    if (this.ending || this.closed) return
    this.touch()
    if ('end_of_source_media' in message) return this.finish('End of stream')
    const data = new Uint8Array(Buffer.from(message.source_media_chunk.data, 'base64'))
    if (data.length > MAX_CHUNK_BYTES)
      return this.fail(
        'source_media_chunk',
        413,
        4130000,
        `A source_media_chunk may carry at most ${MAX_CHUNK_BYTES} bytes.`,
        1009,
      )
    if (this.pendingBytes + data.length > MAX_PENDING_BYTES) {
      return this.fail(
        'source_media_chunk',
        429,
        4290000,
        `Audio is arriving faster than it can be processed (over ${MAX_PENDING_BYTES} bytes waiting): send it in real time.`,
        1008,
      )
    }
    this.queued++
    this.pendingBytes += data.length
    this.step(async () => {
      this.queued--
      this.pendingBytes -= data.length
      let samples
      try {
        samples = await this.decoder.push(data)
      } catch (error) {
        if (error instanceof AudioFormatError) return this.fail('source_media_chunk', 400, 4000403, error.message, 1003)
        throw error
      }
      await this.process(samples)
    })
  }

  /** A frame that is no client message (routeless's checks refused it): an `error`, then close 1003. */
  refuse(problem: MessageProblem): void {
    if (this.ending || this.closed) return
    this.fail('unknown', 400, 4000400, refusal(problem, this.config.messageFormat), 1003)
  }

  /** The client went away: bill what was received, stop. */
  closedByClient(): void {
    if (this.closed) return
    this.closed = true
    this.stopTimers()
    this.abort.abort()
    void this.billOnce()
    this.decoder.free()
  }

  /** Counts, segments and recognises decoded samples (up to the session's limit). */
  private async process(samples: Int16Array): Promise<void> {
    const room = Math.floor((this.maxMs * SPEECH_RATE) / 1000) - this.samples
    const kept = samples.length > room ? samples.subarray(0, Math.max(0, room)) : samples
    this.samples += kept.length
    const { concluded, partial } = this.segmenter.push(kept)
    for (const u of concluded) await this.conclude(u)
    // Tentative results only while recognition keeps up (no chunk waiting behind this one).
    if (partial && this.queued === 0 && !this.ending) await this.tentative(partial)
    if (kept.length < samples.length) this.finish('Session time limit reached')
  }

  /** Concludes what is left, sends the end messages, bills and closes. */
  private finish(reason: string): void {
    if (this.ending || this.closed) return
    this.ending = true
    clearTimeout(this.limitTimer)
    this.step(async () => {
      await this.process(await this.decoder.end())
      const last = this.segmenter.flush()
      if (last) await this.conclude(last)
      this.send({ end_of_source_transcript: {} })
      for (const language of this.config.targetLanguages) this.send({ end_of_target_transcript: { language } })
      this.send({ end_of_stream: {} })
      await this.billOnce()
      this.close(1000, reason)
    })
  }

  private async conclude(u: Utterance): Promise<void> {
    const result = await this.recognise(u)
    if (!result.text) return
    const segment = { text: result.text, start_time: u.startMs, end_time: u.endMs }
    this.send({ source_transcript_update: { concluded: [{ language: result.language, ...segment }], tentative: [] } })
    for (const target of this.config.targetLanguages) {
      const text = await this.deps.translate(result.text, result.language, target)
      const translated: Segment = { ...segment, text }
      this.send({ target_transcript_update: { language: target, concluded: [translated], tentative: [] } })
      if (this.deps.synthesizer && this.config.targetMediaLanguages.includes(target)) await this.speak(text, target)
    }
  }

  private async tentative(u: Utterance): Promise<void> {
    if (this.ending) return
    const result = await this.recognise(u)
    if (!result.text || this.ending) return
    const segment = { text: result.text, start_time: u.startMs, end_time: u.endMs }
    this.send({ source_transcript_update: { concluded: [], tentative: [{ language: result.language, ...segment }] } })
    for (const target of this.config.targetLanguages) {
      this.send({
        target_transcript_update: {
          language: target,
          concluded: [],
          tentative: [{ ...segment, text: await this.deps.translate(result.text, result.language, target) }],
        },
      })
    }
  }

  private async recognise(u: Utterance): Promise<{ text: string; language: string }> {
    const hint = this.config.sourceLanguage
    const result = await withTimeout(
      this.deps.speech.name,
      this.limits.engineTimeoutMs,
      (signal) => this.deps.speech.transcribe(u.samples, hint, signal),
      this.abort.signal,
    )
    const language = this.config.sourceLanguageMode === 'fixed' && hint ? hint : (result.language ?? hint ?? 'en')
    return { text: result.text, language }
  }

  /** Synthesised speech of a concluded translation, as one `target_media_chunk` (PCM at the declared rate). */
  private async speak(text: string, language: string): Promise<void> {
    const type = this.config.targetMediaContentType!
    const rate = Number(/rate=(\d+)/.exec(type)![1])
    const synth = this.deps.synthesizer!
    const samples = await withTimeout(
      synth.name,
      this.limits.engineTimeoutMs,
      (signal) => synth.synthesize(text, language, this.config.targetMediaVoice, rate, signal),
      this.abort.signal,
    )
    const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64')
    this.send({ target_media_chunk: { language, content_type: type, data } })
  }

  private step(fn: () => Promise<void>): void {
    this.work = this.work.then(async () => {
      if (this.closed) return
      try {
        await fn()
      } catch (error) {
        if (this.closed) return // the socket ended while this step waited (an engine call it no longer needs)
        if (error instanceof EngineStopped) return this.goAway()
        this.deps.onError(error)
        const status = (error as { status?: unknown }).status
        const code = typeof status === 'number' && status >= 400 && status < 600 ? status : 500
        this.fail('source_media_chunk', code, code * 10_000, (error as Error).message, 1011)
      }
    })
  }

  private fail(requestType: string, errorCode: number, reasonCode: number, message: string, closeCode: number): void {
    if (this.closed) return
    this.send({
      error: { request_type: requestType, error_code: errorCode, reason_code: reasonCode, error_message: message },
    })
    this.ending = true
    void this.billOnce().finally(() => this.close(closeCode, message))
  }

  /** The instance is stopping: bill what was received, close 1001 (no `error` message: nothing failed). */
  private goAway(): void {
    this.ending = true
    void this.billOnce().finally(() => this.close(GOING_AWAY.code, GOING_AWAY.reason))
  }

  private send(message: VoiceServerMessage): void {
    if (this.closed) return
    this.socket.send(message)
  }

  private close(code: number, reason: string): void {
    if (this.closed) return
    this.closed = true
    this.stopTimers()
    this.abort.abort()
    this.decoder.free()
    // A close reason is at most 123 bytes.
    let short = reason
    while (Buffer.byteLength(short) > 123) short = `${short.slice(0, -2)}…`
    this.socket.close(code, short)
  }

  private async billOnce(): Promise<void> {
    if (this.billed) return
    this.billed = true
    try {
      await this.deps.bill(this.audioMs)
    } catch (error) {
      this.deps.onError(error)
    }
  }

  private touch(): void {
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => this.finish(`No message for ${this.limits.idleMs} ms`), this.limits.idleMs)
  }

  private stopTimers(): void {
    clearTimeout(this.idleTimer)
    clearTimeout(this.limitTimer)
  }
}
