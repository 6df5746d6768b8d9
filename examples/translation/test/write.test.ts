/** /v2/write/rephrase and /v2/write/correct over HTTP and through deepl-node's rephraseText. */
import * as deepl from 'deepl-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_KEY, api, startServer, type TestServer } from './_server.ts'

let server: TestServer
let client: deepl.DeepLClient
beforeAll(async () => {
  server = await startServer()
  client = new deepl.DeepLClient(API_KEY, { serverUrl: server.url, maxRetries: 1 })
})
afterAll(() => server.close())

describe('write', () => {
  it('deepl-node rephraseText: rule-based fixes, styles and tones, BCP-47 target_language', async () => {
    const result = await client.rephraseText('i think  the the report is ready .but we do not know', 'en')
    expect(result).toEqual({
      text: 'I think the report is ready. But we do not know',
      detectedSourceLang: 'en',
      targetLang: 'en-US',
    })
    const casual = await client.rephraseText('We do not know. It is fine.', 'en-GB', 'casual')
    expect([casual.text, casual.targetLang]).toEqual(["We don't know. It's fine.", 'en-GB'])
    const business = await client.rephraseText("We don't know.", 'en', 'business')
    expect(business.text).toBe('We do not know.')
    const confident = await client.rephraseText('I think maybe we should ship.', 'en', undefined, 'confident')
    expect(confident.text).toBe('We should ship.')
    const batch = await client.rephraseText(['Hallo  Welt', 'Great work.'], null, undefined, 'enthusiastic')
    expect(batch.map((r) => [r.text, r.detectedSourceLang, r.targetLang])).toEqual([
      ['Hallo Welt', 'de', 'de'],
      ['Great work!', 'en', 'en-US'],
    ])
  })

  it('translates into target_lang first when the text is in another language', async () => {
    const result = await client.rephraseText('Guten Morgen', 'en')
    expect(result).toEqual({ text: 'Good morning', detectedSourceLang: 'de', targetLang: 'en-US' })
  })

  it('corrects with minimal changes (French keeps its space before "!")', async () => {
    const res = await api(server)('/v2/write/correct', {
      json: { text: ['bonjour  à tous !', 'this is is fine'], target_lang: 'fr' },
    })
    const body = (await res.json()) as any
    expect(body.improvements[0]).toEqual({
      text: 'Bonjour à tous !',
      detected_source_language: 'fr',
      target_language: 'fr',
    })
  })

  it("answers DeepL's 400s", async () => {
    const call = api(server)
    const message = async (path: string, form: Record<string, string>) =>
      ((await (await call(path, { form })).json()) as any).message
    expect(await message('/v2/write/rephrase', { text: 'x', target_lang: 'lv' })).toBe(
      "Value for 'target_lang' not supported.",
    )
    expect(await message('/v2/write/rephrase', { text: 'x', target_lang: 'ja', tone: 'friendly' })).toBe(
      'Language ja does not support setting a tone.',
    )
    expect(await message('/v2/write/rephrase', { text: 'x', target_lang: 'ja', writing_style: 'business' })).toBe(
      'Language ja does not support setting a writing style.',
    )
    expect(await message('/v2/write/rephrase', { text: 'x', writing_style: 'casual', tone: 'friendly' })).toMatch(
      /Both writing_style and tone defined/,
    )
    expect(await message('/v2/write/rephrase', { target_lang: 'en' })).toBe("Parameter 'text' not specified.")
    expect(await message('/v2/write/correct', { text: 'x', tone: 'friendly' })).toMatch(
      /only accepted by \/v2\/write\/rephrase/,
    )
    expect(
      (await call('/v2/write/rephrase', { method: 'POST', body: 'x', headers: { 'Content-Type': 'text/plain' } }))
        .status,
    ).toBe(415)
    await expect(client.rephraseText('x', 'lv' as never)).rejects.toThrow(/Value for '?target_lang'? not supported/)
  })
})
