/** The speech building blocks: resampling, G.711, WAV, the utterance segmenter, the voice message codec, format checks. */
import { encode } from '@msgpack/msgpack'
import { describe, expect, it } from 'vitest'
import { checkSourceFormat, containerOf, createDecoder } from '../src/speech/audio-format.ts'
import { alawToLinear, readWav, Resampler, s16le, toBytes, ulawToLinear, wav } from '../src/speech/pcm.ts'
import { Segmenter } from '../src/voice/segmenter.ts'
import type { MessageProblem } from 'routeless'
import { decodeMsgpack, encodeMsgpack, refusal } from '../src/voice/voice-messages.ts'

const tone = (ms: number, rate = 16_000, amplitude = 8000, hz = 440) =>
  Int16Array.from({ length: (rate * ms) / 1000 }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)),
  )
const silence = (ms: number, rate = 16_000) => new Int16Array((rate * ms) / 1000)

describe('pcm', () => {
  it('resamples by the rate ratio, in one piece or streamed in many', () => {
    const input = tone(1000, 48_000)
    const whole = new Resampler(48_000).push(input)
    expect(whole.length).toBe(16_000)
    const r = new Resampler(48_000)
    const pieces: number[] = []
    for (let at = 0; at < input.length; at += 777) pieces.push(...r.push(input.subarray(at, at + 777)))
    expect(pieces.length).toBe(16_000)
    expect(Math.max(...pieces.map((x, i) => Math.abs(x - whole[i]!)))).toBeLessThanOrEqual(1)
    const up = new Resampler(8000).push(tone(100, 8000))
    expect(up.length).toBe(1599) // 800 in → the last output lies on the last input sample
    expect(new Resampler(16_000).push([1, 2, 3])).toEqual(Int16Array.from([1, 2, 3]))
  })

  it('decodes G.711 µ-law and A-law', () => {
    expect(ulawToLinear(0xff)).toBe(0)
    expect(ulawToLinear(0x00)).toBe(-32124)
    expect(ulawToLinear(0x80)).toBe(32124)
    expect(alawToLinear(0xd5)).toBe(8)
    expect(alawToLinear(0x55)).toBe(-8)
    expect(alawToLinear(0xaa)).toBe(32256)
  })

  it('writes and reads WAV, and refuses what is not 16-bit PCM WAV', () => {
    const samples = tone(50)
    expect(readWav(wav(samples, 16_000))).toEqual({ samples, rate: 16_000 })
    expect(s16le(toBytes(samples))).toEqual(samples)
    expect(() => readWav(new Uint8Array(10))).toThrow(/not a WAV/)
    const float = wav(samples)
    new DataView(float.buffer).setUint16(20, 3, true)
    expect(() => readWav(float)).toThrow(/16-bit PCM/)
  })
})

describe('audio formats', () => {
  it('accepts the spec formats it decodes, refuses the others with a reason', () => {
    expect(checkSourceFormat('audio/pcm; encoding=s16le; rate=16000')).toEqual({
      ok: true,
      type: 'audio/pcm;encoding=s16le;rate=16000',
    })
    expect(checkSourceFormat('AUDIO/OGG;CODECS=OPUS')).toEqual({ ok: true, type: 'audio/ogg;codecs=opus' })
    expect(checkSourceFormat('audio/mpeg')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not supported by this server/),
    })
    expect(checkSourceFormat('audio/pcm;encoding=s16le;rate=22050')).toMatchObject({
      ok: false,
      message: "Value for 'source_media_content_type' not supported.",
    })
  })

  it('tells containers by their magic bytes', () => {
    expect(containerOf(new TextEncoder().encode('OggS....'))).toBe('Ogg')
    expect(containerOf(new TextEncoder().encode('RIFF....'))).toBe('WAV (RIFF)')
    expect(containerOf(Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3]))).toBe('WebM/Matroska')
    expect(containerOf(Uint8Array.from([0, 0, 0, 0]))).toBeUndefined()
  })

  it('decodes µ-law at 8 kHz to 16 kHz', async () => {
    const decoder = createDecoder('audio/pcm;encoding=ulaw;rate=8000')
    const out = await decoder.push(new Uint8Array(800).fill(0x80))
    expect(out.length).toBe(1599)
    expect(out[0]).toBe(32124)
  })
})

describe('segmenter', () => {
  it('cuts utterances at silences, with their times, and offers partials while one grows', () => {
    const s = new Segmenter({ silenceMs: 300, partialMs: 400 })
    const first = s.push(Int16Array.from([...silence(200), ...tone(1000), ...silence(400)]))
    expect(first.concluded).toHaveLength(1)
    expect(first.concluded[0]).toMatchObject({ startMs: 200 })
    expect(first.concluded[0]!.endMs).toBeGreaterThanOrEqual(1400)
    const growing = s.push(tone(500))
    expect(growing.concluded).toHaveLength(0)
    expect(growing.partial).toMatchObject({ startMs: 1600 })
    const last = s.flush()
    expect(last).toMatchObject({ startMs: 1600, endMs: 2100 })
    expect(s.flush()).toBeUndefined()
    expect(s.heardMs).toBe(2100)
  })

  it('ends an utterance at the longest segment length, and ignores silence', () => {
    const s = new Segmenter({ maxSegmentMs: 1000 })
    expect(s.push(tone(2500)).concluded.map((u) => [u.startMs, u.endMs])).toEqual([
      [0, 1000],
      [1000, 2000],
    ])
    expect(new Segmenter().push(silence(3000)).concluded).toEqual([])
  })
})

describe('voice messages', () => {
  it('reads msgpack binary frames as the JSON messages they stand for (binary fields as base64)', () => {
    expect(decodeMsgpack(encode({ source_media_chunk: { data: Uint8Array.from([1, 2, 3]) } }))).toEqual({
      source_media_chunk: { data: 'AQID' },
    })
    expect(decodeMsgpack(encode({ end_of_source_media: {} }))).toEqual({ end_of_source_media: {} })
  })

  it('refuses a text frame, bad MessagePack and a chunk that is not binary in a msgpack session', () => {
    expect(() => decodeMsgpack('{}')).toThrow(/Text frame/)
    expect(() => decodeMsgpack(Uint8Array.from([0xc1]))).toThrow(/not valid MessagePack/)
    expect(() => decodeMsgpack(encode({ source_media_chunk: { data: 'AQID' } }))).toThrow(/binary/)
  })

  it('words what the checks refused as DeepL does', () => {
    const problem = (p: Partial<MessageProblem>): MessageProblem => ({ path: '', message: '', frame: '', ...p })
    expect(refusal(problem({ frame: Uint8Array.from([1]) }), 'json')).toMatch(/^Binary frame received/)
    expect(refusal(problem({ message: 'is not JSON' }), 'json')).toBe('Message is not valid JSON.')
    expect(refusal(problem({ value: [1] }), 'json')).toMatch(/exactly one key/)
    expect(refusal(problem({ value: { a: 1, b: 2 } }), 'json')).toMatch(/exactly one key/)
    expect(refusal(problem({ value: { hello: {} } }), 'json')).toBe("Unknown message 'hello'.")
    const data = { path: '/source_media_chunk/data', message: 'must match pattern', value: { source_media_chunk: {} } }
    expect(refusal(problem(data), 'json')).toBe('source_media_chunk.data must match pattern.')
  })

  it('writes binary fields raw in msgpack', () => {
    expect(encodeMsgpack({ target_media_chunk: { language: 'de', content_type: 'x', data: 'AQID' } })).toEqual(
      encode({ target_media_chunk: { language: 'de', content_type: 'x', data: Uint8Array.from([1, 2, 3]) } }),
    )
    expect(encodeMsgpack({ end_of_stream: {} })).toEqual(encode({ end_of_stream: {} }))
  })
})
