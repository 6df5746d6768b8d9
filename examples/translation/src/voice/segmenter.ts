/**
 * Cuts a stream of 16 kHz samples into utterances by energy: speech starts at the first 20 ms frame louder than the
 * threshold and ends after `silenceMs` of quieter frames (or at `maxSegmentMs`). Each utterance is recognised once
 * as a whole (a concluded segment); while one grows, its audio so far is offered every `partialMs` (a tentative one).
 */
import { SPEECH_RATE } from '../speech/pcm.ts'

const FRAME = SPEECH_RATE / 50 // 20 ms

export interface Utterance {
  samples: Int16Array
  startMs: number
  endMs: number
}

export interface SegmenterOptions {
  /** RMS level (of 32767) above which a frame is speech. */
  threshold?: number
  silenceMs?: number
  maxSegmentMs?: number
  partialMs?: number
}

export class Segmenter {
  private readonly threshold: number
  private readonly silenceFrames: number
  private readonly maxFrames: number
  private readonly partialFrames: number
  /** Samples not yet a whole frame. */
  private pending: number[] = []
  /** Frames heard so far. */
  private frame = 0
  private speech: Int16Array[] = []
  private speechStart = 0
  private quiet = 0
  private sincePartial = 0

  constructor(options: SegmenterOptions = {}) {
    this.threshold = options.threshold ?? 400
    this.silenceFrames = Math.max(1, Math.round((options.silenceMs ?? 500) / 20))
    this.maxFrames = Math.max(1, Math.round((options.maxSegmentMs ?? 15_000) / 20))
    this.partialFrames = Math.max(1, Math.round((options.partialMs ?? 1_000) / 20))
  }

  /** Milliseconds of audio heard. */
  get heardMs(): number {
    return Math.floor(((this.frame * FRAME + this.pending.length) * 1000) / SPEECH_RATE)
  }

  /** Feeds samples; returns the utterances that ended and, when due, the one in progress (partial). */
  push(samples: Int16Array): { concluded: Utterance[]; partial: Utterance | undefined } {
    const concluded: Utterance[] = []
    let partial: Utterance | undefined
    for (const s of samples) this.pending.push(s)
    let offset = 0
    while (this.pending.length - offset >= FRAME) {
      const frame = Int16Array.from(this.pending.slice(offset, offset + FRAME))
      offset += FRAME
      const ended = this.frameIn(frame)
      if (ended) concluded.push(ended)
      else if (this.speech.length > 0 && this.sincePartial >= this.partialFrames) {
        this.sincePartial = 0
        partial = this.current()
      }
    }
    this.pending = this.pending.slice(offset)
    if (concluded.length > 0 && this.speech.length === 0) partial = undefined
    return { concluded, partial }
  }

  /** The end of the stream: what is left of an utterance, concluded. */
  flush(): Utterance | undefined {
    if (this.pending.length > 0) {
      const rest = Int16Array.from(this.pending)
      this.pending = []
      if (this.speech.length > 0) this.speech.push(rest)
      this.frame += rest.length / FRAME
    }
    return this.speech.length > 0 ? this.close() : undefined
  }

  private frameIn(frame: Int16Array): Utterance | undefined {
    this.frame++
    let sum = 0
    for (const s of frame) sum += s * s
    const loud = Math.sqrt(sum / frame.length) > this.threshold
    if (this.speech.length === 0) {
      if (!loud) return undefined
      this.speechStart = this.frame - 1
      this.quiet = 0
      this.sincePartial = 0
    }
    this.speech.push(frame)
    this.sincePartial++
    this.quiet = loud ? 0 : this.quiet + 1
    if (this.quiet >= this.silenceFrames || this.speech.length >= this.maxFrames) return this.close()
    return undefined
  }

  private current(): Utterance {
    const length = this.speech.reduce((n, f) => n + f.length, 0)
    const samples = new Int16Array(length)
    let at = 0
    for (const f of this.speech) {
      samples.set(f, at)
      at += f.length
    }
    const startMs = Math.round((this.speechStart * FRAME * 1000) / SPEECH_RATE)
    return { samples, startMs, endMs: startMs + Math.round((length * 1000) / SPEECH_RATE) }
  }

  private close(): Utterance {
    const utterance = this.current()
    this.speech = []
    this.quiet = 0
    return utterance
  }
}
