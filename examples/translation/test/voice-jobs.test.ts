/** Voice translation jobs: create, upload with the job's signature, run on the shared queue, status, downloads. */
import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readWav } from '../src/speech/pcm.ts'
import { postgresAvailable } from '@routeless/example-kit/testing'
import { ADMIN_KEY, api, startServer, type Storage, type TestServer } from './_server.ts'
import { fakeTranscriber, type FakeTranscriber } from './_speech.ts'

const storages: Storage[] = ['sqlite', ...((await postgresAvailable()) ? (['postgres'] as const) : [])]
let server: TestServer
let fake: FakeTranscriber
let call: ReturnType<typeof api>

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })
/** Two utterances a second apart (SSML), as the WAV file espeak-ng writes (22 050 Hz). */
const WAV = new Uint8Array(
  execFileSync('espeak-ng', ['-m', '-v', 'en-us', '--stdout', '--stdin'], {
    input: '<speak>Good morning.<break time="1s"/>Thank you.</speak>',
  }),
)
const wavFile = (bytes: Uint8Array) => {
  // espeak-ng streams with 0x7fffffff sizes: write the real ones, as a file on disk would have.
  const copy = new Uint8Array(bytes)
  const v = new DataView(copy.buffer)
  v.setUint32(4, copy.length - 8, true)
  v.setUint32(40, copy.length - 44, true)
  return copy
}

async function create(body: Record<string, unknown>, query = '') {
  return json(await call(`/v1/jobs/voice/translate${query}`, { json: body }))
}
const upload = (url: string, bytes: Uint8Array, signature?: string) =>
  fetch(url, {
    method: 'PUT',
    body: bytes as Uint8Array<ArrayBuffer>,
    headers: {
      'Content-Type': 'application/octet-stream',
      ...(signature ? { Authorization: `DeepL-Signature ${signature}` } : {}),
    },
  })

async function settled(jobId: string) {
  for (let i = 0; i < 200; i++) {
    const { body } = await json(await call(`/v1/jobs/voice/translate/${jobId}`))
    if (body.results.every((r: any) => r.status === 'complete' || r.status === 'failed')) return body
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('job did not finish')
}

for (const storage of storages)
  describe(`voice translation jobs [${storage}]`, () => {
    beforeAll(async () => {
      fake = await fakeTranscriber((i) => (i % 2 === 0 ? 'Good morning' : 'Thank you'))
      server = await startServer({
        storage,
        env: {
          SPEECH_ENGINE: 'openai',
          SPEECH_ENGINE_URL: fake.url,
          JOB_POLL_MS: '50',
          VOICE_JOB_MAX_BYTES: '5000000',
        },
      })
      call = api(server)
    })
    afterAll(async () => {
      await server.close()
      await fake.close()
    })

    it('upload → status → text, subtitles and synthesised speech, billed as speech milliseconds', async () => {
      const file = wavFile(WAV)
      const created = await create(
        {
          source_file: { name: 'greeting.wav', content_type: 'audio/wav', content_length: file.length },
          parameters: { source_language: 'en' },
          targets: [
            { language: 'de', type: 'text/plain' },
            { language: 'es', type: 'application/x-subrip' },
            { language: 'de', type: 'audio/pcm;encoding=s16le;rate=16000' },
          ],
        },
        '?include=signed_url',
      )
      expect(created.status).toBe(201)
      const { job_id, upload_url, signature, signed_upload_url } = created.body
      expect(upload_url).toBe(`${server.url}/v1/jobs/voice/assets/${job_id}/source`)
      expect(signed_upload_url).toBe(`${upload_url}?signature=${signature}`)
      const pending = await json(await call(`/v1/jobs/voice/translate/${job_id}`))
      expect(pending.body).toMatchObject({
        job_id,
        product: 'voice',
        operation: 'translate',
        source_file: { name: 'greeting.wav' },
        parameters: { source_language: 'en' },
        results: [{ status: 'pending' }, { status: 'pending' }, { status: 'pending' }],
      })

      expect((await upload(upload_url, file, signature)).status).toBe(204)
      const done = await settled(job_id)
      expect(done.results.map((r: any) => r.status)).toEqual(['complete', 'complete', 'complete'])
      expect(fake.requests.length).toBeGreaterThanOrEqual(2)

      const text = await fetch(done.results[0].download_url, {
        headers: { Authorization: `DeepL-Signature ${done.results[0].signature}` },
      })
      expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8')
      expect(text.headers.get('content-disposition')).toBe('attachment; filename=greeting.de.txt')
      expect(await text.text()).toBe('Guten Morgen\nDanke\n')
      const srt = await (await fetch(`${done.results[1].download_url}?signature=${done.results[1].signature}`)).text()
      expect(srt).toMatch(
        /^1\n00:00:00,\d{3} --> 00:00:0\d,\d{3}\nBuenos días\n\n2\n00:00:0\d,\d{3} --> 00:00:0\d,\d{3}\nGracias\n$/,
      )
      const audio = await fetch(done.results[2].download_url, {
        headers: { Authorization: `DeepL-Signature ${signature}` },
      })
      expect(audio.headers.get('content-type')).toBe('audio/pcm;encoding=s16le;rate=16000')
      const pcm = new Uint8Array(await audio.arrayBuffer())
      expect(pcm.length).toBeGreaterThan(16_000) // more than half a second of speech
      expect(new Int16Array(pcm.buffer).some((s) => Math.abs(s) > 1000)).toBe(true)

      const after = await json(await call(`/v1/jobs/voice/translate/${job_id}`))
      expect(after.body.results.map((r: any) => r.status)).toEqual(['downloaded', 'downloaded', 'downloaded'])
      expect(after.body.usage.storage_used).toBeGreaterThan(pcm.length)
      const { samples, rate } = readWav(file)
      const rows = await server.app.database.db.selectFrom('speech_usage').select('milliseconds').execute()
      expect(rows).toHaveLength(1)
      expect(Math.abs(Number(rows[0]!.milliseconds) - (samples.length * 1000) / rate)).toBeLessThan(5)
    })

    it('refuses bad requests, signatures and uploads', async () => {
      const base = {
        source_file: { name: 'a.wav', content_type: 'audio/wav', content_length: 10 },
        targets: [{ language: 'de', type: 'text/plain' }],
      }
      expect(
        (await create({ ...base, source_file: { ...base.source_file, content_type: 'audio/mpeg' } })).body.message,
      ).toMatch(/not supported by this server/)
      expect(
        (await create({ ...base, source_file: { ...base.source_file, content_type: 'audio/x-nope' } })).status,
      ).toBe(400)
      expect((await create({ ...base, source_file: { ...base.source_file, content_length: 0 } })).status).toBe(400)
      expect((await create({ ...base, source_file: { ...base.source_file, content_length: 6_000_000 } })).status).toBe(
        413,
      )
      expect((await create({ ...base, targets: [] })).status).toBe(400)
      expect((await create({ ...base, targets: [{ language: 'de', type: 'image/png' }] })).body.message).toBe(
        '/targets/0/type: Value is not valid',
      )
      expect(
        (await create({ ...base, targets: [{ language: 'de', type: 'video/mp2t;codecs=aac' }] })).body.message,
      ).toMatch(/not supported by this server/)
      expect((await create({ ...base, targets: [{ language: 'xx', type: 'text/plain' }] })).body.message).toBe(
        '/targets/0/language: Value is not valid',
      )
      expect((await create({ ...base, parameters: { source_language: 'xx' } })).status).toBe(400)
      expect((await api(server, '')('/v1/jobs/voice/translate', { json: base })).status).toBe(403)

      const { body } = await create(base)
      expect((await upload(body.upload_url, new Uint8Array(10))).status).toBe(401)
      expect((await upload(body.upload_url, new Uint8Array(10), 'forged')).status).toBe(403)
      expect((await upload(body.upload_url, new Uint8Array(9), body.signature)).status).toBe(400)
      expect(
        (
          await fetch(body.upload_url, {
            method: 'PUT',
            body: 'x',
            headers: { 'Content-Type': 'text/plain', Authorization: `DeepL-Signature ${body.signature}` },
          })
        ).status,
      ).toBe(415)
      expect(
        (
          await fetch(body.upload_url, {
            method: 'PUT',
            body: '{}',
            headers: { 'Content-Type': 'application/json', Authorization: `DeepL-Signature ${body.signature}` },
          })
        ).status,
      ).toBe(415)
      const empty = await fetch(`${body.upload_url}?signature=${body.signature}`, { method: 'PUT' })
      expect(empty.status).toBe(400)
      expect((await empty.json()).message).toBe('The upload has 0 bytes; the job was created for content_length 10.')
      expect((await fetch(`${body.upload_url}?signature=${body.signature}&sig=x`, { method: 'PUT' })).status).toBe(400)
      expect(
        (
          await fetch(`${server.url}/v1/jobs/voice/assets/${body.job_id}/results/0`, {
            headers: { Authorization: `DeepL-Signature ${body.signature}` },
          })
        ).status,
      ).toBe(409)
      // Ten bytes that are not a WAV file: accepted, then the job fails with the reason.
      expect((await upload(body.upload_url, new Uint8Array(10), body.signature)).status).toBe(204)
      expect((await upload(body.upload_url, new Uint8Array(10), body.signature)).status).toBe(409)
      const failed = await settled(body.job_id)
      expect(failed.results).toEqual([
        { status: 'failed', error: { message: expect.stringMatching(/not a PCM WAV file/) } },
      ])

      expect((await call('/v1/jobs/voice/translate/00000000-0000-4000-8000-000000000000')).status).toBe(404)
      expect((await call('/v1/jobs/voice/translate/nope')).status).toBe(404)
      const other = await json(await api(server, ADMIN_KEY)('/v2/admin/developer-keys', { json: { label: 'other' } }))
      expect((await api(server, other.body.key)(`/v1/jobs/voice/translate/${body.job_id}`)).status).toBe(404)
      expect(
        (
          await upload(
            `${server.url}/v1/jobs/voice/assets/00000000-0000-4000-8000-000000000000/source`,
            new Uint8Array(10),
            body.signature,
          )
        ).status,
      ).toBe(403) // another job's signature opens nothing here, and says nothing of whether the job exists
      // No signature: 401 before the job is looked up, whether it exists or not.
      const unknown = `${server.url}/v1/jobs/voice/assets/00000000-0000-4000-8000-000000000000`
      expect((await upload(`${unknown}/source`, new Uint8Array(10))).status).toBe(401)
      expect((await fetch(`${unknown}/results/0`)).status).toBe(401)
      expect((await fetch(`${body.upload_url.replace(/source$/, 'results/0')}`)).status).toBe(401)
    })
  })
