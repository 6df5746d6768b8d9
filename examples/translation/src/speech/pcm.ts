/**
 * PCM helpers: every decoder turns its input into 16 kHz mono signed 16-bit samples, the rate both speech engines
 * take. Resampling is linear interpolation, streaming (state carried between chunks): enough for speech recognition.
 */

export const SPEECH_RATE = 16_000

/** A streaming linear resampler from `from` Hz to `to` Hz. */
export class Resampler {
  private readonly step: number
  /** Where the next output sample lies, in samples of the next chunk (in [-1, 0) it lies after `previous`). */
  private t = 0
  private previous = 0

  constructor(
    readonly from: number,
    readonly to: number = SPEECH_RATE,
  ) {
    this.step = from / to
  }

  push(input: ArrayLike<number>): Int16Array {
    if (this.from === this.to) return Int16Array.from(input, clamp)
    const out: number[] = []
    let t = this.t
    while (t <= input.length - 1) {
      const i = Math.floor(t)
      const a = i < 0 ? this.previous : input[i]!
      const b = i + 1 < input.length ? input[i + 1]! : a
      out.push(clamp(a + (b - a) * (t - i)))
      t += this.step
    }
    if (input.length > 0) {
      this.t = t - input.length
      this.previous = input[input.length - 1]!
    }
    return Int16Array.from(out)
  }
}

export function clamp(x: number): number {
  const r = Math.round(x)
  return r > 32767 ? 32767 : Math.max(r, -32768)
}

/** Little-endian 16-bit samples of `bytes` (an even number of bytes). */
export function s16le(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length >> 1)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true)
  return out
}

/** The samples as little-endian bytes. */
export function toBytes(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length * 2)
  const view = new DataView(out.buffer)
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i]!, true)
  return out
}

/** G.711 µ-law byte → linear sample. */
export function ulawToLinear(u: number): number {
  u = ~u & 0xff
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4)
  return u & 0x80 ? 0x84 - t : t - 0x84
}

/** G.711 A-law byte → linear sample. */
export function alawToLinear(a: number): number {
  a ^= 0x55
  let t = (a & 0x0f) << 4
  const seg = (a & 0x70) >> 4
  if (seg === 0) t += 8
  else if (seg === 1) t += 0x108
  else t = (t + 0x108) << (seg - 1)
  return a & 0x80 ? t : -t
}

/** A WAV file (RIFF, PCM 16-bit mono) of the samples. */
export function wav(samples: Int16Array, rate: number = SPEECH_RATE): Uint8Array {
  const data = toBytes(samples)
  const out = new Uint8Array(44 + data.length)
  const v = new DataView(out.buffer)
  const text = (offset: number, s: string) => {
    for (let i = 0; i < s.length; i++) out[offset + i] = s.charCodeAt(i)
  }
  text(0, 'RIFF')
  v.setUint32(4, 36 + data.length, true)
  text(8, 'WAVE')
  text(12, 'fmt ')
  v.setUint32(16, 16, true)
  v.setUint16(20, 1, true)
  v.setUint16(22, 1, true)
  v.setUint32(24, rate, true)
  v.setUint32(28, rate * 2, true)
  v.setUint16(32, 2, true)
  v.setUint16(34, 16, true)
  text(36, 'data')
  v.setUint32(40, data.length, true)
  out.set(data, 44)
  return out
}

/** Reads a PCM 16-bit WAV (mono, or the first channel): its samples and rate; throws on anything else. */
export function readWav(bytes: Uint8Array): { samples: Int16Array; rate: number } {
  const ascii = (o: number, n: number) => String.fromCharCode(...bytes.subarray(o, o + n))
  if (bytes.length < 12 || ascii(0, 4) !== 'RIFF' || ascii(8, 4) !== 'WAVE') throw new Error('not a WAV file')
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let offset = 12
  let rate = 0
  let channels = 0
  while (offset + 8 <= bytes.length) {
    const id = ascii(offset, 4)
    // espeak-ng writes 0x7fffffff sizes when streaming to a pipe: clamp to what is there.
    const size = Math.min(v.getUint32(offset + 4, true), bytes.length - offset - 8)
    if (id === 'fmt ') {
      if (v.getUint16(offset + 8, true) !== 1 || v.getUint16(offset + 22, true) !== 16)
        throw new Error('only 16-bit PCM WAV is supported')
      channels = v.getUint16(offset + 10, true)
      rate = v.getUint32(offset + 12, true)
    } else if (id === 'data') {
      if (!rate) throw new Error('WAV data before its format')
      const all = s16le(bytes.subarray(offset + 8, offset + 8 + (size & ~1)))
      if (channels === 1) return { samples: all, rate }
      return { samples: all.filter((_, i) => i % channels === 0), rate }
    }
    offset += 8 + size + (size & 1)
  }
  throw new Error('WAV without data')
}
