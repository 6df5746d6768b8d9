/**
 * The source audio formats of the Voice API this server decodes, and a streaming decoder for each: bytes in, 16 kHz
 * mono 16-bit samples out. PCM (s16le at 8, 16, 44.1, 48 kHz; G.711 µ-law and A-law at 8 kHz) is decoded here; Ogg/Opus
 * by `ogg-opus-decoder` (libopus compiled to WebAssembly). The other containers the spec lists (FLAC, MP3, WebM,
 * Matroska) are refused when the session is requested: this server has no decoder for them.
 */
import { OggOpusDecoder } from 'ogg-opus-decoder'
import { alawToLinear, Resampler, s16le, ulawToLinear } from './pcm.ts'

export const SOURCE_MEDIA_CONTENT_TYPES = [
  'audio/auto',
  'audio/flac',
  'audio/mpeg',
  'audio/ogg',
  'audio/webm',
  'audio/x-matroska',
  'audio/ogg;codecs=flac',
  'audio/ogg;codecs=opus',
  'audio/pcm;encoding=alaw;rate=8000',
  'audio/pcm;encoding=ulaw;rate=8000',
  'audio/pcm;encoding=s16le;rate=8000',
  'audio/pcm;encoding=s16le;rate=16000',
  'audio/pcm;encoding=s16le;rate=44100',
  'audio/pcm;encoding=s16le;rate=48000',
  'audio/webm;codecs=opus',
  'audio/x-matroska;codecs=aac',
  'audio/x-matroska;codecs=flac',
  'audio/x-matroska;codecs=mp3',
  'audio/x-matroska;codecs=opus',
] as const

/** Formats decoded here (`audio/ogg` and `audio/auto` are taken as Ogg/Opus, and checked on the first bytes). */
const DECODED = new Set([
  'audio/ogg',
  'audio/auto',
  'audio/ogg;codecs=opus',
  'audio/pcm;encoding=alaw;rate=8000',
  'audio/pcm;encoding=ulaw;rate=8000',
  'audio/pcm;encoding=s16le;rate=8000',
  'audio/pcm;encoding=s16le;rate=16000',
  'audio/pcm;encoding=s16le;rate=44100',
  'audio/pcm;encoding=s16le;rate=48000',
])

/** `audio/pcm; encoding=s16le; rate=16000` → `audio/pcm;encoding=s16le;rate=16000` (case and spaces ignored). */
export function normalizeContentType(type: string): string {
  return type
    .split(';')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean)
    .join(';')
}

export type FormatCheck = { ok: true; type: string } | { ok: false; message: string }

export function checkSourceFormat(raw: string): FormatCheck {
  const type = normalizeContentType(raw)
  if (!(SOURCE_MEDIA_CONTENT_TYPES as readonly string[]).includes(type))
    return { ok: false, message: "Value for 'source_media_content_type' not supported." }
  if (!DECODED.has(type))
    return {
      ok: false,
      message: `Source media content type '${type}' is not supported by this server: use audio/pcm or audio/ogg;codecs=opus.`,
    }
  return { ok: true, type }
}

/** Bytes in, 16 kHz mono samples out. Throws `AudioFormatError` when the bytes are not in the declared format. */
export interface AudioDecoder {
  push(bytes: Uint8Array): Promise<Int16Array>
  end(): Promise<Int16Array>
  free(): void
}

export class AudioFormatError extends Error {}

/** Magic numbers of containers, to tell "this is not raw PCM / not Ogg" from the first bytes. */
const MAGIC: Array<[string, number[]]> = [
  ['Ogg', [0x4f, 0x67, 0x67, 0x53]],
  ['WAV (RIFF)', [0x52, 0x49, 0x46, 0x46]],
  ['FLAC', [0x66, 0x4c, 0x61, 0x43]],
  ['MP3 (ID3)', [0x49, 0x44, 0x33]],
  ['WebM/Matroska', [0x1a, 0x45, 0xdf, 0xa3]],
]

export function containerOf(bytes: Uint8Array): string | undefined {
  return MAGIC.find(([, magic]) => magic.every((b, i) => bytes[i] === b))?.[0]
}

export function createDecoder(type: string): AudioDecoder {
  if (type.startsWith('audio/pcm;')) {
    const rate = Number(/rate=(\d+)/.exec(type)![1])
    const encoding = /encoding=(\w+)/.exec(type)![1]!
    return new PcmDecoder(encoding, rate, type)
  }
  return new OggOpus(type)
}

class PcmDecoder implements AudioDecoder {
  private readonly resampler: Resampler
  private first = true

  constructor(
    private readonly encoding: string,
    rate: number,
    private readonly type: string,
  ) {
    this.resampler = new Resampler(rate)
  }

  async push(bytes: Uint8Array): Promise<Int16Array> {
    if (this.first && bytes.length >= 4) {
      this.first = false
      const container = containerOf(bytes)
      if (container)
        throw new AudioFormatError(
          `Audio format not supported: received ${container} data, but the session declared ${this.type}.`,
        )
    }
    if (this.encoding === 's16le') {
      if (bytes.length % 2 !== 0) throw new AudioFormatError('Audio chunk is not a whole number of 16-bit samples.')
      return this.resampler.push(s16le(bytes))
    }
    const table = this.encoding === 'ulaw' ? ulawToLinear : alawToLinear
    return this.resampler.push(Array.from(bytes, table))
  }

  async end(): Promise<Int16Array> {
    return new Int16Array(0)
  }

  free(): void {}
}

class OggOpus implements AudioDecoder {
  private decoder: OggOpusDecoder | undefined
  private resampler: Resampler | undefined
  private first = true

  constructor(private readonly type: string) {}

  async push(bytes: Uint8Array): Promise<Int16Array> {
    if (this.first && bytes.length > 0) {
      this.first = false
      if (containerOf(bytes) !== 'Ogg')
        throw new AudioFormatError(
          `Audio format not supported: the session declared ${this.type}, and this is not an Ogg stream.`,
        )
    }
    if (!this.decoder) {
      this.decoder = new OggOpusDecoder()
      await this.decoder.ready
    }
    let decoded
    try {
      decoded = await this.decoder.decode(bytes)
    } catch (error) {
      throw new AudioFormatError(`Audio format not supported: ${(error as Error).message}`)
    }
    if (decoded.errors?.length) throw new AudioFormatError(`Audio format not supported: ${decoded.errors[0]!.message}`)
    return this.mono(decoded.channelData, decoded.samplesDecoded, decoded.sampleRate)
  }

  async end(): Promise<Int16Array> {
    if (!this.decoder) return new Int16Array(0)
    const decoded = await this.decoder.flush()
    return this.mono(decoded.channelData, decoded.samplesDecoded, decoded.sampleRate)
  }

  private mono(channels: Float32Array[], n: number, rate: number): Int16Array {
    if (n === 0 || channels.length === 0) return new Int16Array(0)
    this.resampler ??= new Resampler(rate)
    const mixed = new Float32Array(n)
    for (const ch of channels) for (let i = 0; i < n; i++) mixed[i]! += ch[i]! / channels.length
    return this.resampler.push(Array.from(mixed, (x) => x * 32767))
  }

  free(): void {
    this.decoder?.free()
  }
}
