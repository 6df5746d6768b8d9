/** The official deepl-node client against our server: what it sends, what it parses, the errors it maps. */
import * as deepl from 'deepl-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_KEY, API_KEY, api, startServer, type TestServer } from './_server.ts'

let server: TestServer
let translator: deepl.Translator

/** maxRetries 1: one attempt, so 429/5xx surface at once instead of after deepl-node's backoff. */
const client = (key: string) => new deepl.Translator(key, { serverUrl: server.url, maxRetries: 1 })

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_REQUESTS: '1000' } })
  translator = client(API_KEY)
})
afterAll(() => server.close())

describe('deepl-node translateText', () => {
  it('translates a single text', async () => {
    const result = await translator.translateText('Hello, world!', null, 'de')
    expect(result).toEqual({
      text: 'Hallo, Welt!',
      detectedSourceLang: 'en',
      billedCharacters: 13,
      modelTypeUsed: undefined,
    })
  })

  it('translates a batch in order, detecting each source language', async () => {
    const results = await translator.translateText(
      ['proton beam', 'faisceau de protons', 'Wo ist der Bahnhof?'],
      null,
      'en-GB',
    )
    expect(results.map((r) => [r.text, r.detectedSourceLang, r.billedCharacters])).toEqual([
      ['proton beam', 'en', 11],
      ['proton beam', 'fr', 19],
      ['Where is the station?', 'de', 19],
    ])
  })

  it('sends every text option (form body) and gets them honoured', async () => {
    const result = await translator.translateText('how are you', 'en', 'de', {
      formality: 'less',
      preserveFormatting: true,
      splitSentences: 'nonewlines',
      context: 'A chat between friends',
      modelType: 'prefer_quality_optimized',
      customInstructions: ['Keep it short'],
    })
    expect(result).toEqual({
      text: 'wie geht es dir',
      detectedSourceLang: 'en',
      billedCharacters: 11,
      modelTypeUsed: 'quality_optimized',
    })
    const latency = await translator.translateText('Good night', 'en', 'fr', {
      modelType: 'latency_optimized',
      formality: 'prefer_more',
    })
    expect(latency.modelTypeUsed).toBe('latency_optimized')
    expect(latency.text).toBe('Bonne nuit')
  })

  it('handles XML tags with ignore, splitting and non-splitting tags', async () => {
    const xml = '<doc><head>The title</head><p>Hello <b>world</b>. <x>Thank you</x></p></doc>'
    const result = await translator.translateText(xml, 'en', 'es', {
      tagHandling: 'xml',
      ignoreTags: ['x'],
      splittingTags: ['p', 'head'],
      nonSplittingTags: ['b'],
      outlineDetection: false,
    })
    expect(result.text).toBe('<doc><head>El título</head><p>Hola <b>mundo</b>. <x>Thank you</x></p></doc>')
    expect(result.billedCharacters).toBe('The title'.length + 'Hello world. Thank you'.length)
  })

  it('handles HTML tags', async () => {
    const html = '<h1>Welcome</h1><p>Good morning, <strong>friend</strong>!</p><p class="notranslate">Goodbye</p>'
    const result = await translator.translateText(html, null, 'it', { tagHandling: 'html' })
    expect(result.text).toBe(
      '<h1>Benvenuto</h1><p>Buongiorno, <strong>amico</strong>!</p><p class="notranslate">Goodbye</p>',
    )
  })

  it('lets extra request parameters override standard ones', async () => {
    const result = await translator.translateText('proton beam', null, 'de', {
      extraRequestParameters: { target_lang: 'fr', example_extra_param: 'true' },
    })
    expect(result.text).toBe('faisceau de protons')
  })

  it('gets a DeepLError carrying our 400 messages', async () => {
    await expect(translator.translateText('Hello', null, 'xx' as never)).rejects.toThrow(
      "Bad request, message: Value for 'target_lang' not supported.",
    )
    await expect(translator.translateText('Hello', null, 'en-US', { formality: 'more' })).rejects.toThrow(
      /Target language 'EN-US' doesn't support formality/,
    )
    await expect(
      translator.translateText('Hello', 'en', 'de', { splitSentences: 'sometimes' as never }),
    ).rejects.toThrow(/split_sentences/)
    await expect(
      translator.translateText('Hello', 'en', 'de', { customInstructions: Array(11).fill('x') }),
    ).rejects.toThrow(/custom_instructions/)
    await expect(
      translator.translateText('Hello', 'en', 'de', { glossary: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toThrow(/Not found/)
  })

  it('gets a DeepLError for a body over 128 KiB (413)', async () => {
    await expect(translator.translateText('x'.repeat(130 * 1024), null, 'de')).rejects.toThrow(/413/)
  })
})

describe('deepl-node languages and usage', () => {
  it('lists source and target languages as its own test suite expects', async () => {
    const sources = await translator.getSourceLanguages()
    const targets = await translator.getTargetLanguages()
    const english = sources.filter((l) => l.code === 'en')
    expect(english).toEqual([{ code: 'en', name: 'English', supportsFormality: undefined }])
    expect(sources.every((l) => l.supportsFormality === undefined)).toBe(true)
    expect(targets.filter((l) => l.code === 'de')).toEqual([{ code: 'de', name: 'German', supportsFormality: true }])
    expect(targets.every((l) => typeof l.supportsFormality === 'boolean')).toBe(true)
    expect(targets.map((l) => l.code)).toEqual(
      expect.arrayContaining(['en-GB', 'en-US', 'pt-BR', 'pt-PT', 'es-419', 'zh-HANS', 'zh-HANT']),
    )
    expect(targets.map((l) => l.code)).not.toContain('en')
    expect(targets.find((l) => l.code === 'en-US')!.supportsFormality).toBe(false)
  })

  it('reports the characters of the key in the current period', async () => {
    const fresh = await server.app.services.keys.create({ admin: false })
    const own = client(fresh.secret)
    expect((await own.getUsage()).character).toEqual({ count: 0, limit: 1_000_000_000_000 })
    await own.translateText(['Hello', 'Good night'], null, 'de')
    const usage = await own.getUsage()
    expect(usage.character).toEqual({ count: 15, limit: 1_000_000_000_000 })
    expect(usage.anyLimitReached()).toBe(false)
  })
})

describe('deepl-node errors', () => {
  it('AuthorizationError for an unknown, a deactivated or an admin key', async () => {
    await expect(client('not-a-key').translateText('Hello', null, 'de')).rejects.toBeInstanceOf(
      deepl.AuthorizationError,
    )
    await expect(client('not-a-key').getUsage()).rejects.toThrow(/Authorization failure.*not valid/)
    const admin = api(server, ADMIN_KEY)
    const created = (await (await admin('/v2/admin/developer-keys', { json: { label: 'Short-lived' } })).json()) as any
    await expect(client(created.key).getUsage()).resolves.toBeDefined()
    await admin('/v2/admin/developer-keys/deactivate', { method: 'PUT', json: { key_id: created.key_id } })
    await expect(client(created.key).translateText('Hello', null, 'de')).rejects.toThrow(/deactivated/)
    await expect(client(ADMIN_KEY).translateText('Hello', null, 'de')).rejects.toBeInstanceOf(deepl.AuthorizationError)
  })

  it('QuotaExceededError (456) when a key is over its character limit, and nothing billed', async () => {
    const admin = api(server, ADMIN_KEY)
    const created = (await (await admin('/v2/admin/developer-keys', { json: {} })).json()) as any
    await admin('/v2/admin/developer-keys/limits', { method: 'PUT', json: { key_id: created.key_id, characters: 12 } })
    const limited = client(created.key)
    await limited.translateText('Hello world', null, 'de') // 11 characters
    const error = await limited.translateText('Hello', null, 'de').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(deepl.QuotaExceededError)
    expect((error as Error).message).toMatch(/Quota for this billing period has been exceeded/)
    const usage = await limited.getUsage()
    expect(usage.character).toEqual({ count: 11, limit: 12 })
    await limited.translateText('x', null, 'de') // exactly at the limit: allowed
    expect((await limited.getUsage()).character!.limitReached()).toBe(true)
    await expect(limited.translateText('x', null, 'de')).rejects.toBeInstanceOf(deepl.QuotaExceededError)
  })

  it('TooManyRequestsError (429 with Retry-After) over the configured rate', async () => {
    const limitedServer = await startServer({ env: { RATE_LIMIT_REQUESTS: '2', RATE_LIMIT_WINDOW_SECONDS: '60' } })
    try {
      const t = new deepl.Translator(API_KEY, { serverUrl: limitedServer.url, maxRetries: 1 })
      await t.translateText('Hello', null, 'de')
      await t.getUsage()
      await expect(t.translateText('Hello', null, 'de')).rejects.toBeInstanceOf(deepl.TooManyRequestsError)
      const raw = await api(limitedServer)('/v2/usage')
      expect(raw.status).toBe(429)
      expect(Number(raw.headers.get('retry-after'))).toBe(30)
      expect(await raw.json()).toEqual({ message: 'Too many requests' })
      // Another key has its own budget.
      const other = await limitedServer.app.services.keys.create({ admin: false })
      await expect(
        new deepl.Translator(other.secret, { serverUrl: limitedServer.url, maxRetries: 1 }).getUsage(),
      ).resolves.toBeDefined()
    } finally {
      await limitedServer.close()
    }
  })
})
