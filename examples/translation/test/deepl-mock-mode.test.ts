/**
 * TEST_MODE=deepl-mock over real HTTP: accounts on first use, the `mock-server-session-*` headers, the proton-beam
 * engine, deepl-mock's fixtures and secondary route — and that none of it exists outside test mode.
 */
import { randomUUID } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import * as deepl from 'deepl-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readConfig } from '../src/config.ts'
import { MockAccounts } from '../src/mock/accounts.ts'
import { withDeepLMock } from '../src/mock/deepl-mock.ts'
import { DEFAULT_MEMORY_ID, DEFAULT_STYLE_ID } from '../src/mock/fixtures.ts'
import { startMockProxy } from '../src/mock/proxy.ts'
import { MockSessions, SESSION_IDLE_MS } from '../src/mock/sessions.ts'
import { api, startServer, type TestServer } from './_server.ts'

let mock: TestServer
let plain: TestServer

beforeAll(async () => {
  ;[mock, plain] = await Promise.all([startServer({ env: { TEST_MODE: 'deepl-mock' } }), startServer()])
})
afterAll(async () => {
  await Promise.all([mock?.close(), plain?.close()])
})

/** A session of its own: the `mock-server-session` header plus the given settings. */
function session(settings: Record<string, number> = {}): Record<string, string> {
  const headers: Record<string, string> = { 'mock-server-session': `test/${randomUUID()}` }
  for (const [name, value] of Object.entries(settings)) headers[`mock-server-session-${name}`] = String(value)
  return headers
}

const json = async (res: Response) => (await res.json()) as any

function upload(
  server: TestServer,
  key: string,
  headers: Record<string, string>,
  content = 'proton beam',
  name = 'a.txt',
) {
  const form = new FormData()
  form.append('target_lang', 'de')
  form.append('file', new Blob([content]), name)
  return api(server, key)('/v2/document', { method: 'POST', body: form, headers })
}

describe('the configuration', () => {
  it('turns the mode on by TEST_MODE or --test-mode, and refuses an unknown mode', () => {
    expect(readConfig({}).testMode).toBeUndefined()
    expect(readConfig({ TEST_MODE: 'deepl-mock' }).testMode).toBe('deepl-mock')
    expect(readConfig({}, ['--test-mode=deepl-mock']).testMode).toBe('deepl-mock')
    expect(readConfig({}, ['--test-mode', 'deepl-mock']).testMode).toBe('deepl-mock')
    expect(() => readConfig({ TEST_MODE: 'mock' })).toThrow(/Unknown test mode "mock"/)
  })

  it('uses the proton-beam engine in test mode unless ENGINE says otherwise, and never outside it', () => {
    expect(readConfig({ TEST_MODE: 'deepl-mock' }).engine.kind).toBe('proton-beam')
    expect(readConfig({ TEST_MODE: 'deepl-mock', ENGINE: 'phrase-table' }).engine.kind).toBe('phrase-table')
    expect(readConfig({}).engine.kind).toBe('phrase-table')
    expect(() => readConfig({ ENGINE: 'proton-beam' })).toThrow(/only in TEST_MODE=deepl-mock/)
  })
})

describe('outside test mode none of it exists', () => {
  it('refuses unknown keys, ignores session headers, has no secondary route and no fixtures', async () => {
    expect((await api(plain, randomUUID())('/v2/usage')).status).toBe(403)
    const call = api(plain)
    const headers = session({ '429-count': 2, 'no-response-count': 1, 'expect-proxy': 1 })
    const res = await call('/v2/translate', { form: { text: 'proton beam', target_lang: 'de' }, headers })
    expect(res.status).toBe(200)
    expect((await json(res)).translations[0].text).toBe('Protonenstrahl') // the phrase table knows it
    expect((await call('/v2/translate_secondary', { form: { text: 'x', target_lang: 'de' } })).status).toBe(404)
    expect((await json(await call('/v3/style_rules'))).style_rules).toEqual([])
    expect((await call(`/v3/translation_memories/${DEFAULT_MEMORY_ID}`)).status).toBe(404)
    const usage = await json(await call('/v2/usage'))
    expect(usage.document_limit).toBeUndefined()
    expect(usage.character_limit).toBeGreaterThan(0)
  })
})

describe('accounts on first use', () => {
  it('accepts any non-empty key with deepl-mock defaults; invalid and empty keys stay 403', async () => {
    const key = randomUUID()
    const usage = await json(await api(mock, key)('/v2/usage'))
    expect(usage).toMatchObject({
      character_count: 0,
      character_limit: 20_000_000,
      document_count: 0,
      document_limit: 10_000,
    })
    expect(usage.team_document_limit).toBeUndefined()
    expect((await api(mock, 'invalid')('/v2/usage')).status).toBe(403)
    expect((await fetch(`${mock.url}/v2/usage`, { headers: { Authorization: 'DeepL-Auth-Key ' } })).status).toBe(403)
    expect((await fetch(`${mock.url}/v2/usage`)).status).toBe(403)
  })

  it('is stored like any key: the account survives a restart with its character limit', async () => {
    const key = randomUUID()
    const limits = session({ 'init-character-limit': 50 })
    expect((await json(await api(mock, key)('/v2/usage', { headers: limits }))).character_limit).toBe(50)
    mock = await mock.restart()
    expect((await json(await api(mock, key)('/v2/usage'))).character_limit).toBe(50)
  })

  it("takes the first session's initial limits; 0 means unlimited and /v2/usage then leaves the pair out", async () => {
    const key = randomUUID()
    const headers = session({ 'init-character-limit': 0, 'init-document-limit': 0, 'init-team-document-limit': 1 })
    const usage = await json(await api(mock, key)('/v2/usage', { headers }))
    expect(usage.character_limit).toBeUndefined()
    expect(usage.character_count).toBeUndefined()
    expect(usage.document_limit).toBeUndefined()
    expect(usage).toMatchObject({ team_document_count: 0, team_document_limit: 1 })
    // Later sessions do not change an existing account.
    const again = await json(await api(mock, key)('/v2/usage', { headers: session({ 'init-character-limit': 5 }) }))
    expect(again.character_limit).toBeUndefined()
  })

  it('counts documents against the document and team-document limits: 456 past them, nothing taken by a failed upload', async () => {
    const key = randomUUID()
    const headers = session({ 'init-character-limit': 20, 'init-document-limit': 2, 'init-team-document-limit': 1 })
    expect((await upload(mock, key, headers, 'x', 'bad.invalid')).status).toBe(400)
    expect(await json(await api(mock, key)('/v2/usage', { headers }))).toMatchObject({
      document_count: 0,
      team_document_count: 0,
    })
    expect((await upload(mock, key, headers, 'a'.repeat(20))).status).toBe(200)
    expect(await json(await api(mock, key)('/v2/usage', { headers }))).toMatchObject({
      character_count: 20,
      character_limit: 20,
      document_count: 1,
      document_limit: 2,
      team_document_count: 1,
      team_document_limit: 1,
    })
    const refused = await upload(mock, key, headers, 'b')
    expect(refused.status).toBe(456)
    expect(await json(refused)).toEqual({ message: 'Quota for this billing period has been exceeded.' })
    expect((await api(mock, key)('/v2/translate', { form: { text: 'Test', target_lang: 'de' }, headers })).status).toBe(
      456,
    )
  })
})

describe('session headers', () => {
  it('answers /v2/translate 429 the given number of times, then normally; other paths are not counted', async () => {
    const call = api(mock, randomUUID())
    const headers = session({ '429-count': 2 })
    expect((await call('/v2/usage', { headers })).status).toBe(200)
    const statuses = []
    for (let i = 0; i < 3; i++)
      statuses.push((await call('/v2/translate', { form: { text: 'proton beam', target_lang: 'de' }, headers })).status)
    expect(statuses).toEqual([429, 429, 200])
  })

  it('leaves the given number of requests unanswered until the client gives up, then answers', async () => {
    const call = api(mock, randomUUID())
    const headers = session({ 'no-response-count': 2 })
    for (let i = 0; i < 2; i++) {
      const started = Date.now()
      await expect(call('/v2/usage', { headers, signal: AbortSignal.timeout(300) })).rejects.toThrow()
      expect(Date.now() - started).toBeGreaterThanOrEqual(250)
    }
    expect((await call('/v2/usage', { headers })).status).toBe(200)
  })

  it('holds an unanswered request only so long, then answers 504 (the layer in process)', async () => {
    const sessions = new MockSessions()
    const accounts = new MockAccounts(mock.app.services.keys)
    const fetch = withDeepLMock(mock.app.fetch, { sessions, accounts, noResponseHoldMs: 50 })
    const res = await fetch(
      new Request('http://x/v2/usage', {
        headers: { ...session({ 'no-response-count': 1 }), Authorization: 'DeepL-Auth-Key k' },
      }),
    )
    expect(res.status).toBe(504)
  })

  it('with expect-proxy refuses requests without a Forwarded header', async () => {
    const call = api(mock, randomUUID())
    const headers = session({ 'expect-proxy': 1 })
    const res = await call('/v2/usage', { headers })
    expect(res.status).toBe(400)
    expect(await json(res)).toEqual({ message: 'Expected a request via proxy.' })
    expect((await call('/v2/usage', { headers: { ...headers, Forwarded: 'for=127.0.0.1' } })).status).toBe(200)
    expect((await call('/v2/usage', { headers: session({ 'expect-proxy': 0 }) })).status).toBe(200)
  })

  it("reaches an expect-proxy session through deepl-mock's proxy, which forwards to this server only", async () => {
    const proxy = await startMockProxy({ host: '127.0.0.1', port: 0, target: mock.url })
    try {
      const key = randomUUID()
      const headers = session({ 'expect-proxy': 1 })
      const direct = new deepl.Translator(key, { serverUrl: mock.url, headers, maxRetries: 0 })
      const proxied = new deepl.Translator(key, {
        serverUrl: mock.url,
        headers,
        maxRetries: 0,
        proxy: { host: '127.0.0.1', port: proxy.port },
      })
      await expect(direct.getUsage()).rejects.toThrow(/Expected a request via proxy/)
      expect((await proxied.getUsage()).character?.limit).toBe(20_000_000)
      const raw = (path: string, headers: Record<string, string> = {}) =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port: proxy.port, path, headers }, (res) => {
            res.resume()
            resolve(res.statusCode!)
          })
          req.on('error', reject).end()
        })
      expect(await raw('http://example.com/v2/usage')).toBe(403) // not an open proxy
      expect(await raw('/v2/usage')).toBe(403) // origin-form: not a proxy request
      expect(await raw(`${mock.url}/v2/usage`, { ...headers, Authorization: `DeepL-Auth-Key ${key}` })).toBe(200)
    } finally {
      await proxy.close()
    }
  })

  it('shows a document queued, then translating, for the session times; its result is 503 until then', async () => {
    const key = randomUUID()
    const headers = session({ 'doc-queue-time': 500, 'doc-translate-time': 500 })
    await api(mock, key)('/v2/usage', { headers }) // the account first: its scrypt hash is not part of the times
    const started = Date.now()
    const { document_id: id, document_key: documentKey } = await json(await upload(mock, key, headers))
    const status = async () =>
      json(await api(mock, key)(`/v2/document/${id}`, { form: { document_key: documentKey }, headers }))
    expect(await status()).toEqual({ document_id: id, status: 'queued' })
    expect(
      (await api(mock, key)(`/v2/document/${id}/result`, { form: { document_key: documentKey }, headers })).status,
    ).toBe(503)
    while (Date.now() - started < 650) await new Promise((r) => setTimeout(r, 20))
    expect(await status()).toMatchObject({ document_id: id, status: 'translating', seconds_remaining: 1 })
    while (Date.now() - started < 1050) await new Promise((r) => setTimeout(r, 20))
    let done = await status()
    for (let i = 0; i < 100 && done.status !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 20))
      done = await status()
    }
    expect(done).toEqual({ document_id: id, status: 'done', seconds_remaining: 0, billed_characters: 11 }) // deepl-mock's 0
    const result = await api(mock, key)(`/v2/document/${id}/result`, { form: { document_key: documentKey }, headers })
    expect(await result.text()).toBe('Protonenstrahl')
  })

  it('delivers output_format as deepl-mock does: the translation unconverted, under the new name and content type', async () => {
    const key = randomUUID()
    const form = new FormData()
    form.append('target_lang', 'de')
    form.append('output_format', 'html')
    form.append('file', new Blob(['proton beam']), 'example_document.txt')
    const { document_id: id, document_key: documentKey } = await json(
      await api(mock, key)('/v2/document', { method: 'POST', body: form }),
    )
    let status = await json(await api(mock, key)(`/v2/document/${id}`, { json: { document_key: documentKey } }))
    for (let i = 0; i < 100 && status.status !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 20))
      status = await json(await api(mock, key)(`/v2/document/${id}`, { json: { document_key: documentKey } }))
    }
    expect(status).toEqual({ document_id: id, status: 'done', seconds_remaining: 0, billed_characters: 11 })
    const result = await api(mock, key)(`/v2/document/${id}/result`, { form: { document_key: documentKey } })
    expect([
      await result.text(),
      result.headers.get('content-type'),
      result.headers.get('content-disposition'),
    ]).toEqual(['Protonenstrahl', 'text/html; charset=utf-8', 'attachment; filename=example_document.html'])
    // The conversions refused outside the mode are refused in it, with the same words.
    const refused = new FormData()
    refused.append('target_lang', 'de')
    refused.append('output_format', 'pdf')
    refused.append('file', new Blob(['proton beam']), 'a.txt')
    const res = await api(mock, key)('/v2/document', { method: 'POST', body: refused })
    expect([res.status, await json(res)]).toEqual([400, { message: "Value for 'output_format' not supported." }])
  })

  it('forgets a session after ten minutes of idleness', () => {
    let now = 0
    const sessions = new MockSessions(() => now)
    const headers = new Headers(session({ '429-count': 1 }))
    sessions.of(headers)!.remaining429s = 0
    now += SESSION_IDLE_MS + 1
    sessions.of(new Headers({ 'mock-server-session': 'other' }))
    expect(sessions.of(headers)!.remaining429s).toBe(1) // made afresh from the headers
  })
})

describe('the proton-beam engine', () => {
  it("answers deepl-mock's phrase in the target language, detecting the phrase's language, English otherwise", async () => {
    const translator = new deepl.Translator(randomUUID(), { serverUrl: mock.url })
    const results = await translator.translateText(
      ['faisceau de protons', 'Anything at all', 'proton beam\n\nproton beam'],
      null,
      'de',
    )
    expect(results.map((r) => [r.text, r.detectedSourceLang])).toEqual([
      ['Protonenstrahl', 'fr'],
      ['Protonenstrahl', 'en'],
      ['Protonenstrahl\n\nProtonenstrahl', 'en'],
    ])
    expect((await translator.translateText('proton beam', null, 'zh-HANT')).text).toBe('質子束')
    expect((await translator.translateText('<b>proton beam</b>', null, 'ja', { tagHandling: 'xml' })).text).toBe(
      '<b>陽子ビーム</b>',
    )
  })

  it('uses a glossary term when the whole line is one', async () => {
    const translator = new deepl.Translator(randomUUID(), { serverUrl: mock.url })
    const glossary = await translator.createGlossary(
      'g',
      'en',
      'de',
      new deepl.GlossaryEntries({ entries: { artist: 'Maler' } }),
    )
    expect((await translator.translateText('artist', 'en', 'de', { glossary })).text).toBe('Maler')
    expect((await translator.translateText('an artist', 'en', 'de', { glossary })).text).toBe('Protonenstrahl')
  })

  it('rephrases into the phrase, as deepl-mock does', async () => {
    const client = new deepl.DeepLClient(randomUUID(), { serverUrl: mock.url })
    expect((await client.rephraseText('How are yo dong guys?', 'en', null, deepl.WritingTone.CONFIDENT)).text).toBe(
      'proton beam',
    )
    expect((await client.rephraseText('Protonenstrahl', 'de')).text).toBe('Protonenstrahl')
  })

  it('serves /v2/translate_secondary as /v2/translate', async () => {
    const res = await api(mock, randomUUID())('/v2/translate_secondary', {
      form: { text: 'proton beam', target_lang: 'de' },
    })
    expect(await json(res)).toEqual({ translations: [{ detected_source_language: 'EN', text: 'Protonenstrahl' }] })
    expect(
      (await api(mock, 'invalid')('/v2/translate_secondary', { form: { text: 'x', target_lang: 'de' } })).status,
    ).toBe(403)
  })
})

describe("deepl-mock's fixtures", () => {
  it('every key sees the default style rule list first, can translate with it, and cannot change it', async () => {
    const client = new deepl.DeepLClient(randomUUID(), { serverUrl: mock.url })
    const own = await client.createStyleRule({ name: 'Mine', language: 'de' })
    const rules = await client.getAllStyleRules(0, 10, true)
    expect(rules.map((r) => r.styleId)).toEqual([DEFAULT_STYLE_ID, own.styleId])
    expect(rules[0]).toMatchObject({
      name: 'Default Style Rule',
      language: 'en',
      configuredRules: { datesAndTimes: { calendar_era: 'use_bce_and_ce' } },
      customInstructions: [],
    })
    expect((await client.getAllStyleRules(1, 1)).map((r) => r.styleId)).toEqual([own.styleId])
    expect((await client.translateText('Hallo, Welt!', 'de', 'en-US', { styleRule: DEFAULT_STYLE_ID })).text).toBe(
      'proton beam',
    )
    await expect(client.deleteStyleRule(DEFAULT_STYLE_ID)).rejects.toThrow(/fixture/)
    await expect(client.updateStyleRuleName(DEFAULT_STYLE_ID, 'x')).rejects.toThrow(/fixture/)
    expect((await client.getStyleRule(DEFAULT_STYLE_ID)).name).toBe('Default Style Rule')
  })

  it('every key sees the default translation memory and can translate with it', async () => {
    const client = new deepl.DeepLClient(randomUUID(), { serverUrl: mock.url })
    const memories = await client.listTranslationMemories(0, 10)
    expect(memories.map((m) => [m.translationMemoryId, m.name, m.sourceLanguage, m.targetLanguages])).toEqual([
      [DEFAULT_MEMORY_ID, 'Default Translation Memory', 'de', ['en', 'es', 'fr']],
    ])
    const result = await client.translateText('Hallo, Welt!', 'de', 'en-US', {
      translationMemory: DEFAULT_MEMORY_ID,
      translationMemoryThreshold: 80,
    })
    expect(result.text).toBe('proton beam')
    expect(
      (await api(mock, randomUUID())(`/v3/translation_memories/${DEFAULT_MEMORY_ID}`, { method: 'DELETE' })).status,
    ).toBe(403)
  })
})
