/**
 * The network engines against fake servers on loopback: what each sends, how its answer becomes DeepL's, and that a
 * failing or hanging engine answers 503/504 quickly and bills nothing.
 */
import * as deepl from 'deepl-node'
import { afterEach, describe, expect, it } from 'vitest'
import { fakeServer, type FakeServer } from './_fake-engine-server.ts'
import { API_KEY, api, startServer, type TestServer } from './_server.ts'

let open: Array<TestServer | FakeServer> = []
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()))
  open = []
})

async function withEngine(env: Record<string, string>) {
  const server = await startServer({ env })
  open.push(server)
  return server
}

async function fake(handler: Parameters<typeof fakeServer>[0]) {
  const server = await fakeServer(handler)
  open.push(server)
  return server
}

describe('LibreTranslate engine', () => {
  it('sends all units as q, maps language codes and takes its detection', async () => {
    const libre = await fake((r) => [
      200,
      {
        translatedText: r.body.q.map((q: string) => `${r.body.target}:${q}`),
        detectedLanguage: r.body.q.map(() => ({ language: 'fr', confidence: 90 })),
      },
    ])
    const server = await withEngine({
      ENGINE: 'libretranslate',
      ENGINE_URL: `${libre.url}/`,
      ENGINE_API_KEY: 'libre-key',
    })
    const t = new deepl.Translator(API_KEY, { serverUrl: server.url })
    const results = await t.translateText(['Bonjour. Merci', 'Salut'], null, 'pt-BR')
    expect(results.map((r) => [r.text, r.detectedSourceLang])).toEqual([
      ['pt:Bonjour. pt:Merci', 'fr'],
      ['pt:Salut', 'fr'],
    ])
    expect(libre.requests[0]).toMatchObject({
      path: '/translate',
      body: { q: ['Bonjour.', 'Merci', 'Salut'], source: 'auto', target: 'pt', format: 'text', api_key: 'libre-key' },
    })

    await t.translateText('<p>Hi <b>there</b></p>', 'en', 'zh-HANT', { tagHandling: 'html' })
    expect(libre.requests[1]!.body).toMatchObject({
      q: ['Hi <b>there</b>'],
      source: 'en',
      target: 'zt',
      format: 'html',
    })
  })
})

describe('OpenAI-compatible engine', () => {
  it('turns context, formality, markup and custom instructions into the prompt', async () => {
    const chat = await fake((r) => [200, { choices: [{ message: { content: ` «${r.body.messages[1].content}» ` } }] }])
    const server = await withEngine({
      ENGINE: 'openai',
      ENGINE_URL: `${chat.url}/v1`,
      ENGINE_MODEL: 'tiny-model',
      ENGINE_API_KEY: 'sk-local',
    })
    const res = await api(server)('/v2/translate', {
      json: {
        text: ['Hello <b>you</b>'],
        target_lang: 'de',
        source_lang: 'en',
        formality: 'less',
        context: 'Two friends meet',
        tag_handling: 'xml',
        non_splitting_tags: ['b'],
        custom_instructions: ['Use Swiss spelling'],
        model_type: 'latency_optimized',
      },
    })
    expect(await res.json()).toEqual({
      translations: [
        {
          detected_source_language: 'EN',
          text: '«Hello <b>you</b>»',
          model_type_used: 'latency_optimized',
          tag_handling_version: 'v1',
        },
      ],
    })
    const sent = chat.requests[0]!
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.headers.authorization).toBe('Bearer sk-local')
    expect(sent.body.model).toBe('tiny-model')
    expect(sent.body.temperature).toBe(0)
    const prompt: string = sent.body.messages[0].content
    expect(prompt).toContain('from English into German')
    expect(prompt).toContain('informal register')
    expect(prompt).toContain('keep every tag exactly')
    expect(prompt).toContain('Context, for understanding only (do not translate it): Two friends meet')
    expect(prompt).toContain('- Use Swiss spelling')
  })
})

describe('DeepL gateway engine', () => {
  it("forwards units with the operator's key and keeps metering local", async () => {
    const upstream = await fake((r) => [
      200,
      {
        translations: r.body.text.map((t: string) => ({
          text: `DE(${t})`,
          detected_source_language: 'EN',
          model_type_used: 'quality_optimized',
        })),
      },
    ])
    const server = await withEngine({ ENGINE: 'deepl', ENGINE_URL: upstream.url, ENGINE_API_KEY: 'operator-key' })
    const t = new deepl.Translator(API_KEY, { serverUrl: server.url })
    const result = await t.translateText('Hi there. Bye', null, 'de', {
      formality: 'prefer_more',
      context: 'ctx',
      modelType: 'quality_optimized',
    })
    expect(result).toEqual({
      text: 'DE(Hi there.) DE(Bye)',
      detectedSourceLang: 'en',
      billedCharacters: 13,
      modelTypeUsed: 'quality_optimized',
    })
    expect(upstream.requests[0]!.headers.authorization).toBe('DeepL-Auth-Key operator-key')
    expect(upstream.requests[0]!.body).toMatchObject({
      text: ['Hi there.', 'Bye'],
      target_lang: 'DE',
      formality: 'prefer_more',
      context: 'ctx',
      model_type: 'quality_optimized',
    })
    expect((await t.getUsage()).character!.count).toBe(13)
  })
})

describe('engine failures', () => {
  it('answers 503 with a clear message when the engine fails, and bills nothing', async () => {
    const broken = await fake(() => [500, { error: 'model not loaded' }])
    const server = await withEngine({ ENGINE: 'libretranslate', ENGINE_URL: broken.url })
    const res = await api(server)('/v2/translate', { form: { text: 'Hello', target_lang: 'de' } })
    expect(res.status).toBe(503)
    expect(((await res.json()) as any).message).toBe(
      'The translation engine (libretranslate) answered 500: {"error":"model not loaded"}',
    )
    const usage = (await (await api(server)('/v2/usage')).json()) as any
    expect(usage.character_count).toBe(0)
  })

  it('answers 503 when the engine is unreachable or answers nonsense', async () => {
    const gone = await fake(() => [200, {}])
    const url = gone.url
    await gone.close()
    open = open.filter((s) => s !== gone)
    const server = await withEngine({ ENGINE: 'openai', ENGINE_URL: url, ENGINE_MODEL: 'm' })
    const res = await api(server)('/v2/translate', { form: { text: 'Hello', target_lang: 'de' } })
    expect(res.status).toBe(503)
    expect(((await res.json()) as any).message).toMatch(
      /could not be reached at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/,
    )
    const nonsense = await fake(() => [200, { translatedText: ['only one'] }])
    const server2 = await withEngine({ ENGINE: 'libretranslate', ENGINE_URL: nonsense.url })
    const res2 = await api(server2)('/v2/translate', { form: { text: ['a', 'b'], target_lang: 'de' } })
    expect(res2.status).toBe(503)
    expect(((await res2.json()) as any).message).toMatch(/one translatedText per text/)
  })

  it('answers 504 within the time limit when the engine hangs, and bills nothing', async () => {
    const hanging = await fake(() => 'hang')
    const server = await withEngine({
      ENGINE: 'deepl',
      ENGINE_URL: hanging.url,
      ENGINE_API_KEY: 'k',
      ENGINE_TIMEOUT_MS: '300',
    })
    const started = Date.now()
    const res = await api(server)('/v2/translate', { form: { text: 'Hello', target_lang: 'de' } })
    expect(res.status).toBe(504)
    expect(Date.now() - started).toBeLessThan(3000)
    expect(((await res.json()) as any).message).toBe('The translation engine (deepl) did not answer within 300 ms.')
    expect(((await (await api(server)('/v2/usage')).json()) as any).character_count).toBe(0)
  })

  it('refuses to start with an unknown engine or missing engine settings', async () => {
    await expect(startServer({ env: { ENGINE: 'babelfish' } })).rejects.toThrow(/Unknown ENGINE "babelfish"/)
    await expect(startServer({ env: { ENGINE: 'openai', ENGINE_URL: 'http://127.0.0.1:1' } })).rejects.toThrow(
      /ENGINE_MODEL is required/,
    )
  })
})
