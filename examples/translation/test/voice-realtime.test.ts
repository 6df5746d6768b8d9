/**
 * Real-time voice: POST /v3/voice/realtime, then the WebSocket it names, over real servers (node:http and uWS).
 * Speech is synthesised by espeak-ng. The plumbing runs end to end through the embedded pocketsphinx (whose words are
 * not checked: it is a weak baseline); recognition results are checked through a fake OpenAI-compatible engine.
 */
import { encode, decode } from '@msgpack/msgpack'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresAvailable } from '@routeless/example-kit/testing'
import { ADMIN_KEY, api, startServer, type Storage, type TestServer } from './_server.ts'
import { converse, fakeTranscriber, oggOpus, speech, streamPcm, type FakeTranscriber } from './_speech.ts'

const PCM = 'audio/pcm;encoding=s16le;rate=16000'
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })
const names = (messages: any[]) => messages.map((m) => Object.keys(m)[0])

async function session(server: TestServer, body: Record<string, unknown>, key?: string) {
  const res = await json(await api(server, key)('/v3/voice/realtime', { json: body }))
  expect(res.status).toBe(200)
  return res.body as { streaming_url: string; token: string; session_id: string }
}
const connectUrl = (s: { streaming_url: string; token: string }) =>
  `${s.streaming_url}?token=${encodeURIComponent(s.token)}`

async function speechUsed(server: TestServer, keyId?: string): Promise<number> {
  const db = server.app.database.db
  const rows = await db.selectFrom('speech_usage').select(['key_id', 'milliseconds']).execute()
  return rows.filter((r) => !keyId || r.key_id === keyId).reduce((n, r) => n + Number(r.milliseconds), 0)
}

for (const kind of ['node', 'uws'] as const) {
  describe(`real-time voice [${kind}]`, () => {
    let server: TestServer
    let fake: FakeTranscriber
    let pocket: TestServer
    beforeAll(async () => {
      fake = await fakeTranscriber((i) => (i === 0 ? 'Good morning' : 'Thank you'))
      server = await startServer({
        server: kind,
        env: {
          SPEECH_ENGINE: 'openai',
          SPEECH_ENGINE_URL: fake.url,
          SPEECH_ENGINE_MODEL: 'whisper-tiny',
          VOICE_PARTIAL_MS: '60000',
        },
      })
      pocket = await startServer({ server: kind })
    })
    afterAll(async () => {
      await server.close()
      await pocket.close()
      await fake.close()
    })

    it('streams espeak-ng speech through pocketsphinx and answers transcript, translation and end messages', async () => {
      const s = await session(pocket, {
        source_media_content_type: 'audio/pcm; encoding=s16le; rate=16000',
        source_language: 'en',
        target_languages: ['de', 'fr'],
      })
      expect(s.streaming_url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v3\/voice\/realtime\/connect$/)
      const pcm = speech('Hello. How are you today?')
      const { messages, close } = await converse(connectUrl(s), (ws) => streamPcm(ws, pcm))
      expect(close).toEqual({ code: 1000, reason: 'End of stream' })
      const source = messages
        .filter((m) => m.source_transcript_update)
        .flatMap((m) => m.source_transcript_update.concluded)
      expect(source.length).toBeGreaterThan(0)
      expect(source[0]).toMatchObject({ language: 'en', text: expect.any(String) })
      expect(source[0].end_time).toBeGreaterThan(source[0].start_time)
      const targets = messages.filter((m) => m.target_transcript_update).map((m) => m.target_transcript_update.language)
      expect(new Set(targets)).toEqual(new Set(['de', 'fr']))
      expect(names(messages).slice(-4)).toEqual([
        'end_of_source_transcript',
        'end_of_target_transcript',
        'end_of_target_transcript',
        'end_of_stream',
      ])
      const audioMs = Math.round((pcm.length / 2 / 16_000) * 1000)
      expect(await speechUsed(pocket)).toBe(audioMs)
    })

    it('recognises through the OpenAI-compatible engine and translates each concluded segment', async () => {
      const before = fake.requests.length
      const s = await session(server, {
        source_media_content_type: PCM,
        source_language: 'en',
        target_languages: ['de', 'es'],
      })
      const pcm = new Uint8Array([...speech('Good morning'), ...speech('Thank you')])
      const { messages, close } = await converse(connectUrl(s), (ws) => streamPcm(ws, pcm))
      expect(close.code).toBe(1000)
      const concluded = messages
        .filter((m) => m.source_transcript_update?.concluded.length)
        .map((m) => m.source_transcript_update.concluded[0].text)
      expect(concluded).toEqual(['Good morning', 'Thank you'])
      const de = messages
        .filter((m) => m.target_transcript_update?.language === 'de')
        .flatMap((m) => m.target_transcript_update.concluded.map((c: any) => c.text))
      expect(de).toEqual(['Guten Morgen', 'Danke'])
      const es = messages
        .filter((m) => m.target_transcript_update?.language === 'es')
        .flatMap((m) => m.target_transcript_update.concluded.map((c: any) => c.text))
      expect(es).toEqual(['Buenos días', 'Gracias'])
      const sent = fake.requests.slice(before)
      expect(sent[0]).toMatchObject({ model: 'whisper-tiny', language: 'en' })
      // A 16 kHz mono 16-bit WAV.
      const view = new DataView(sent[0]!.file.buffer, sent[0]!.file.byteOffset)
      expect(String.fromCharCode(...sent[0]!.file.subarray(0, 4))).toBe('RIFF')
      expect(view.getUint32(24, true)).toBe(16_000)
    })

    it('decodes Ogg/Opus (ogg-opus-decoder) sent in arbitrary pieces', async () => {
      fake.requests.length = 0
      const s = await session(server, {
        source_media_content_type: 'audio/ogg;codecs=opus',
        source_language: 'en',
        target_languages: ['de'],
      })
      const ogg = oggOpus('Good morning')
      const { messages, close } = await converse(connectUrl(s), (ws) => {
        for (let at = 0; at < ogg.length; at += 777)
          ws.send(
            JSON.stringify({
              source_media_chunk: { data: Buffer.from(ogg.subarray(at, at + 777)).toString('base64') },
            }),
          )
        ws.send(JSON.stringify({ end_of_source_media: {} }))
      })
      expect(close.code).toBe(1000)
      expect(messages.find((m) => m.target_transcript_update)?.target_transcript_update).toMatchObject({
        language: 'de',
        concluded: [{ text: 'Guten Morgen' }],
      })
      // The engine got the decoded speech: 16 kHz, about as long as espeak-ng spoke it (~0.8 s).
      const wav = fake.requests[0]!.file
      expect(wav.length - 44).toBeGreaterThan(16_000)
    })

    it('sends synthesised target speech (espeak-ng) as target_media_chunk when asked', async () => {
      const s = await session(server, {
        source_media_content_type: PCM,
        source_language: 'en',
        target_languages: ['fr'],
        target_media_languages: ['de'],
        target_media_content_type: 'audio/pcm;encoding=s16le;rate=24000',
        target_media_voice: 'female',
      })
      const { messages } = await converse(connectUrl(s), (ws) => streamPcm(ws, speech('Good morning')))
      expect(
        new Set(messages.filter((m) => m.target_transcript_update).map((m) => m.target_transcript_update.language)),
      ).toEqual(new Set(['fr', 'de']))
      const media = messages.filter((m) => m.target_media_chunk).map((m) => m.target_media_chunk)
      expect(media).toHaveLength(1)
      expect(media[0]).toMatchObject({ language: 'de', content_type: 'audio/pcm;encoding=s16le;rate=24000' })
      const pcm = Buffer.from(media[0].data, 'base64')
      expect(pcm.length).toBeGreaterThan(24_000) // over half a second at 24 kHz
      expect(names(messages).slice(-3)).toEqual([
        'end_of_target_transcript',
        'end_of_target_transcript',
        'end_of_stream',
      ])
    })

    it('translates with the session glossary, whose pairs are checked when the session is requested', async () => {
      const g = await json(
        await api(server)('/v3/glossaries', {
          json: {
            name: 'voice',
            dictionaries: [
              { source_lang: 'en', target_lang: 'de', entries: 'good morning\tMoin', entries_format: 'tsv' },
            ],
          },
        }),
      )
      expect(
        (
          await api(server)('/v3/voice/realtime', {
            json: {
              source_media_content_type: PCM,
              source_language: 'en',
              target_languages: ['de', 'fr'],
              glossary_id: g.body.glossary_id,
            },
          })
        ).status,
      ).toBe(400)
      const s = await session(server, {
        source_media_content_type: PCM,
        source_language: 'en',
        source_language_mode: 'fixed',
        target_languages: ['de'],
        glossary_id: g.body.glossary_id,
        formality: 'formal',
      })
      fake.requests.length = 0
      const { messages } = await converse(connectUrl(s), (ws) => streamPcm(ws, speech('Good morning')))
      expect(messages.find((m) => m.target_transcript_update)?.target_transcript_update.concluded[0].text).toBe('Moin')
    })

    it('speaks msgpack in BINARY frames when asked', async () => {
      const s = await session(server, {
        source_media_content_type: PCM,
        source_language: 'en',
        target_languages: ['de'],
        message_format: 'msgpack',
      })
      const pcm = speech('Good morning')
      const { messages, close } = await converse(
        connectUrl(s),
        (ws) => {
          for (let at = 0; at < pcm.length; at += 3200)
            ws.send(encode({ source_media_chunk: { data: pcm.subarray(at, at + 3200) } }))
          ws.send(encode({ end_of_source_media: {} }))
        },
        { decode: (data) => decode(data) },
      )
      expect(close.code).toBe(1000)
      expect(names(messages)).toContain('target_transcript_update')
      expect(names(messages).at(-1)).toBe('end_of_stream')
    })

    it('refuses a used, an unknown or an expired token, and another key, at the upgrade', async () => {
      const s = await session(server, { source_media_content_type: PCM, target_languages: ['de'] })
      await converse(connectUrl(s), (ws) => ws.send(JSON.stringify({ end_of_source_media: {} })))
      await expect(converse(connectUrl(s), () => {})).rejects.toMatchObject({ status: 401 })
      await expect(converse(`${s.streaming_url}?token=nope`, () => {})).rejects.toMatchObject({ status: 401 })
      await expect(converse(s.streaming_url, () => {})).rejects.toMatchObject({ status: 400 })
      const other = await json(await api(server, ADMIN_KEY)('/v2/admin/developer-keys', { json: { label: 'other' } }))
      const fresh = await session(server, { source_media_content_type: PCM })
      await expect(
        converse(connectUrl(fresh), () => {}, { headers: { Authorization: `DeepL-Auth-Key ${other.body.key}` } }),
      ).rejects.toMatchObject({ status: 403 })
      // Reconnection swaps the latest token for a new one, for the session's own key only.
      const again = await json(await api(server)(`/v3/voice/realtime?token=${encodeURIComponent(fresh.token)}`))
      expect(again.status).toBe(200)
      expect(again.body.session_id).toBe(fresh.session_id)
      expect(
        (await api(server, other.body.key)(`/v3/voice/realtime?token=${encodeURIComponent(again.body.token)}`)).status,
      ).toBe(403)
      expect((await api(server)(`/v3/voice/realtime?token=${encodeURIComponent(fresh.token)}`)).status).toBe(401)
      const done = await converse(connectUrl(again.body), (ws) => ws.send(JSON.stringify({ end_of_source_media: {} })))
      expect(done.close.code).toBe(1000)
    })

    it('closes with a reason when the audio is not in the declared format, or a frame is not a message', async () => {
      const s = await session(server, { source_media_content_type: PCM, target_languages: ['de'] })
      const ogg = Buffer.from('OggS\u0000\u0002 not really pcm at all')
      const { messages, close } = await converse(connectUrl(s), (ws) =>
        ws.send(JSON.stringify({ source_media_chunk: { data: ogg.toString('base64') } })),
      )
      expect(close.code).toBe(1003)
      expect(close.reason).toMatch(/Audio format not supported: received Ogg data/)
      expect(messages).toEqual([
        {
          error: {
            request_type: 'source_media_chunk',
            error_code: 400,
            reason_code: 4000403,
            error_message: expect.stringMatching(/Ogg/),
          },
        },
      ])

      const opus = await session(server, { source_media_content_type: 'audio/ogg;codecs=opus' })
      const raw = await converse(connectUrl(opus), (ws) => streamPcm(ws, speech('hello'), { end: false }))
      expect(raw.close).toMatchObject({ code: 1003, reason: expect.stringMatching(/not an Ogg stream/) })

      const t = await session(server, { source_media_content_type: PCM })
      const wrong = await converse(connectUrl(t), (ws) => ws.send(Buffer.from([1, 2, 3, 4])))
      expect(wrong.close).toMatchObject({ code: 1003, reason: expect.stringMatching(/Binary frame/) })
      const u = await session(server, { source_media_content_type: PCM })
      const odd = await converse(connectUrl(u), (ws) =>
        ws.send(JSON.stringify({ source_media_chunk: { data: Buffer.from([1, 2, 3]).toString('base64') } })),
      )
      expect(odd.close).toMatchObject({ code: 1003, reason: expect.stringMatching(/16-bit/) })
      const v = await session(server, { source_media_content_type: PCM })
      const junk = await converse(connectUrl(v), (ws) => ws.send('{"hello": 1}'))
      expect(junk.close.code).toBe(1003)
      expect(junk.messages[0].error.error_message).toMatch(/Unknown message 'hello'/)
    })

    it('answers 400 for session requests it cannot serve, and 456 when the speech quota is used up', async () => {
      const call = api(server)
      const bad = async (body: unknown) => json(await call('/v3/voice/realtime', { json: body }))
      expect((await bad({})).status).toBe(400)
      expect((await bad({ source_media_content_type: 'audio/x-wav' })).body.message).toBe(
        "Value for 'source_media_content_type' not supported.",
      )
      expect((await bad({ source_media_content_type: 'audio/webm;codecs=opus' })).body.message).toMatch(
        /not supported by this server/,
      )
      expect(
        (await bad({ source_media_content_type: PCM, target_languages: ['de', 'fr', 'es', 'it', 'nl', 'pl'] })).status,
      ).toBe(400)
      expect((await bad({ source_media_content_type: PCM, target_languages: ['xx'] })).body.message).toBe(
        "Value for 'target_languages' not supported.",
      )
      expect((await bad({ source_media_content_type: PCM, source_language_mode: 'fixed' })).status).toBe(400)
      expect(
        (await bad({ source_media_content_type: PCM, glossary_id: 'def3a26b-3e84-45b3-84ae-0c0aaf3525f7' })).status,
      ).toBe(400)
      expect(
        (
          await bad({
            source_media_content_type: PCM,
            source_language: 'en',
            glossary_id: 'def3a26b-3e84-45b3-84ae-0c0aaf3525f7',
          })
        ).status,
      ).toBe(404)
      expect((await bad({ source_media_content_type: PCM, target_media_languages: ['de'] })).body.message).toMatch(
        /audio\/pcm/,
      )
      expect((await bad({ source_media_content_type: PCM, colour: 'blue' })).status).toBe(400)
      expect((await api(server, '')('/v3/voice/realtime', { json: { source_media_content_type: PCM } })).status).toBe(
        403,
      )
      const limited = await json(
        await api(server, ADMIN_KEY)('/v2/admin/developer-keys', { json: { label: 'no speech' } }),
      )
      await api(server, ADMIN_KEY)('/v2/admin/developer-keys/limits', {
        method: 'PUT',
        json: { key_id: limited.body.key_id, speech_to_text_milliseconds: 0 },
      })
      const refused = await json(
        await api(server, limited.body.key)('/v3/voice/realtime', { json: { source_media_content_type: PCM } }),
      )
      expect(refused).toEqual({ status: 456, body: { message: 'Quota for this billing period has been exceeded.' } })
    })
  })
}

const storages: Storage[] = ['sqlite', ...((await postgresAvailable()) ? (['postgres'] as const) : [])]
for (const storage of storages)
  describe(`real-time voice limits [${storage}]`, () => {
    let server: TestServer
    beforeAll(async () => {
      const fake = await fakeTranscriber(() => 'Good morning')
      server = await startServer({
        storage,
        env: {
          SPEECH_ENGINE: 'openai',
          SPEECH_ENGINE_URL: fake.url,
          VOICE_TOKEN_TTL_MS: '150',
          VOICE_SESSION_MAX_MS: '2500',
          VOICE_IDLE_MS: '400',
          VOICE_PARTIAL_MS: '300',
        },
      })
      const close = server.close
      server.close = async () => {
        await close()
        await fake.close()
      }
    })
    afterAll(() => server.close())

    it('stops a client that sends audio faster than it can be recognised (back-pressure), billing what was processed', async () => {
      const slow = await fakeTranscriber(() => 'hang')
      const stalled = await startServer({
        storage,
        env: { SPEECH_ENGINE: 'openai', SPEECH_ENGINE_URL: slow.url, SPEECH_ENGINE_TIMEOUT_MS: '20000' },
      })
      try {
        const s = await session(stalled, { source_media_content_type: PCM, target_languages: ['de'] })
        // Speech, then a pause (an utterance goes to the engine, which never answers), then a flood.
        const flood = new Uint8Array([...speech('Good morning'), ...new Uint8Array(3 * 1024 * 1024)])
        const { messages, close } = await converse(connectUrl(s), (ws) =>
          streamPcm(ws, flood, { chunkMs: 1000, end: false }),
        )
        expect(close).toMatchObject({ code: 1008, reason: expect.stringMatching(/faster than it can be processed/) })
        expect(messages.at(-1)).toMatchObject({ error: { error_code: 429 } })
        const billed = await speechUsed(stalled)
        expect(billed).toBeGreaterThanOrEqual(1000) // the first second (speech, pause) was decoded and counted…
        expect(billed).toBeLessThan((flood.length / 32_000) * 1000) // …the flood that was refused was not
      } finally {
        await stalled.close()
        await slow.close()
      }
    })

    it('sends tentative updates while an utterance grows, streamed in real time, then concludes it', async () => {
      const s = await session(server, {
        source_media_content_type: PCM,
        source_language: 'en',
        target_languages: ['de'],
      })
      const { messages } = await converse(connectUrl(s), (ws) =>
        streamPcm(ws, speech('Good morning, and a very good evening to everyone', 16_000, 600), {
          chunkMs: 100,
          pauseMs: 100,
        }),
      )
      const source = messages.filter((m) => m.source_transcript_update).map((m) => m.source_transcript_update)
      const firstConcluded = source.findIndex((u) => u.concluded.length > 0)
      expect(firstConcluded).toBeGreaterThan(0)
      expect(source[0]).toEqual({
        concluded: [],
        tentative: [
          { language: 'en', text: 'Good morning', start_time: expect.any(Number), end_time: expect.any(Number) },
        ],
      })
      const target = messages.filter((m) => m.target_transcript_update).map((m) => m.target_transcript_update)
      expect(target[0]).toMatchObject({ language: 'de', concluded: [], tentative: [{ text: 'Guten Morgen' }] })
      expect(target.some((t) => t.concluded.length === 1 && t.tentative.length === 0)).toBe(true)
    })

    it('refuses an expired token', async () => {
      const s = await session(server, { source_media_content_type: PCM })
      await new Promise((r) => setTimeout(r, 250))
      await expect(converse(connectUrl(s), () => {})).rejects.toMatchObject({ status: 401 })
    })

    it('closes a stream that never ends at the time limit, having billed the audio up to it', async () => {
      const s = await session(server, { source_media_content_type: PCM, target_languages: ['de'] })
      const before = await speechUsed(server)
      const endless = new Uint8Array(16_000 * 2 * 4) // four seconds of silence, never an end_of_source_media
      const { messages, close } = await converse(connectUrl(s), (ws) => streamPcm(ws, endless, { end: false }))
      expect(close).toEqual({ code: 1000, reason: 'Session time limit reached' })
      expect(names(messages)).toEqual(['end_of_source_transcript', 'end_of_target_transcript', 'end_of_stream'])
      expect((await speechUsed(server)) - before).toBe(2500)
    })

    it('ends a session whose client goes silent, billing what it sent', async () => {
      const s = await session(server, {
        source_media_content_type: PCM,
        source_language: 'en',
        target_languages: ['de'],
      })
      const before = await speechUsed(server)
      const started = Date.now()
      const { messages, close } = await converse(connectUrl(s), (ws) =>
        streamPcm(ws, speech('Good morning'), { end: false }),
      )
      expect(close.reason).toBe('No message for 400 ms')
      expect(Date.now() - started).toBeLessThan(3000)
      expect(messages.find((m) => m.target_transcript_update)?.target_transcript_update.concluded[0].text).toBe(
        'Guten Morgen',
      )
      expect((await speechUsed(server)) - before).toBeGreaterThan(500)
    })
  })
