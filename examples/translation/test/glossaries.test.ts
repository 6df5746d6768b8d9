/** Glossaries v2 and v3 over HTTP and through deepl-node, on SQLite and PostgreSQL: CRUD, formats, limits, translate. */
import { postgresAvailable } from '@routeless/example-kit/testing'
import * as deepl from 'deepl-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startServer, type Storage, type TestServer } from './_server.ts'

const storages: Storage[] = ['sqlite', ...((await postgresAvailable()) ? (['postgres'] as const) : [])]

describe.each(storages)('glossaries on %s', (storage) => {
  let server: TestServer
  let call: ReturnType<typeof api>
  let client: deepl.DeepLClient
  beforeAll(async () => {
    server = await startServer({ storage })
    call = api(server)
    const key = await server.app.services.keys.create({ admin: false })
    call = api(server, key.secret)
    client = new deepl.DeepLClient(key.secret, { serverUrl: server.url, maxRetries: 1 })
  })
  afterAll(() => server?.close())

  it('deepl-node v2: create, get, list, entries, translate with it, delete', async () => {
    const entries = new deepl.GlossaryEntries({ entries: { 'proton beam': 'Teilchenstrahl', Hello: 'Servus' } })
    const created = await client.createGlossary('My glossary', 'EN' as never, 'de', entries)
    expect(created).toMatchObject({
      name: 'My glossary',
      ready: true,
      sourceLang: 'en',
      targetLang: 'de',
      entryCount: 2,
    })
    expect(created.creationTime.toISOString()).toMatch(/Z$/)
    expect(await client.getGlossary(created.glossaryId)).toEqual(created)
    expect(await client.listGlossaries()).toContainEqual(created)
    expect((await client.getGlossaryEntries(created)).entries()).toEqual({
      'proton beam': 'Teilchenstrahl',
      Hello: 'Servus',
    })
    const result = await client.translateText('Hello, proton beam!', 'en', 'de', { glossary: created })
    expect(result.text).toBe('Servus, Teilchenstrahl!')
    const csv = await client.createGlossaryWithCsv(
      'From CSV',
      'en',
      'de',
      Buffer.from(
        'sourceEntry1,targetEntry1,en,de\n"source""Entry","target,Entry",en,de\nignored,other,en,fr\n',
      ) as never,
    )
    expect((await client.getGlossaryEntries(csv)).entries()).toEqual({
      sourceEntry1: 'targetEntry1',
      'source"Entry': 'target,Entry',
    })
    await client.deleteGlossary(created)
    await expect(client.getGlossary(created.glossaryId)).rejects.toBeInstanceOf(deepl.GlossaryNotFoundError)
    const pairs = await client.getGlossaryLanguagePairs()
    expect(pairs).toContainEqual({ sourceLang: 'en', targetLang: 'de' })
  })

  it('deepl-node multilingual: create, get, entries, update, replace, delete a dictionary, translate', async () => {
    const dicts = [
      {
        sourceLangCode: 'en',
        targetLangCode: 'de',
        entries: new deepl.GlossaryEntries({ entries: { Hello: 'Servus' } }),
      },
      {
        sourceLangCode: 'de',
        targetLangCode: 'en',
        entries: new deepl.GlossaryEntries({ entries: { Hallo: 'Howdy' } }),
      },
    ]
    const g = await client.createMultilingualGlossary('Multi', dicts)
    // In the order given, not sorted (DeepL keeps it; so does deepl-node's own suite).
    expect(g.dictionaries).toEqual([
      { sourceLangCode: 'en', targetLangCode: 'de', entryCount: 1 },
      { sourceLangCode: 'de', targetLangCode: 'en', entryCount: 1 },
    ])
    expect(await client.getMultilingualGlossary(g.glossaryId)).toEqual(g)
    expect(await client.listMultilingualGlossaries()).toContainEqual(g)
    const dict = await client.getMultilingualGlossaryDictionaryEntries(g, 'en', 'de')
    expect(dict.entries.entries()).toEqual({ Hello: 'Servus' })
    const renamed = await client.updateMultilingualGlossaryName(g, 'Renamed')
    expect(renamed.name).toBe('Renamed')
    const merged = await client.updateMultilingualGlossaryDictionary(g, {
      sourceLangCode: 'en',
      targetLangCode: 'de',
      entries: new deepl.GlossaryEntries({ entries: { Goodbye: 'Tschüss', Hello: 'Grüß Gott' } }),
    })
    expect(merged.dictionaries.find((d) => d.sourceLangCode === 'en')!.entryCount).toBe(2)
    expect((await client.translateText('Hello', 'en', 'de', { glossary: g })).text).toBe('Grüß Gott')
    expect(merged.dictionaries.map((d) => d.sourceLangCode)).toEqual(['en', 'de'])
    expect((await client.translateText('Hallo', 'de', 'en-US', { glossary: g })).text).toBe('Howdy')
    const replaced = await client.replaceMultilingualGlossaryDictionary(g, {
      sourceLangCode: 'en',
      targetLangCode: 'fr',
      entries: new deepl.GlossaryEntries({ entries: { Hello: 'Salut' } }),
    })
    expect(replaced).toEqual({ sourceLangCode: 'en', targetLangCode: 'fr', entryCount: 1 })
    const pairsOf = async () =>
      (await client.getMultilingualGlossary(g.glossaryId)).dictionaries.map(
        (d) => `${d.sourceLangCode}-${d.targetLangCode}`,
      )
    expect(await pairsOf()).toEqual(['en-de', 'de-en', 'en-fr']) // a new pair goes last; replacing one keeps its place
    await client.replaceMultilingualGlossaryDictionary(g, {
      sourceLangCode: 'en',
      targetLangCode: 'de',
      entries: new deepl.GlossaryEntries({ entries: { Hello: 'Hallo' } }),
    })
    expect(await pairsOf()).toEqual(['en-de', 'de-en', 'en-fr'])
    await client.deleteMultilingualGlossaryDictionary(g, 'de', 'en')
    expect(await pairsOf()).toEqual(['en-de', 'en-fr'])
    await expect(client.translateText('Hallo', 'de', 'en-US', { glossary: g })).rejects.toThrow(
      /No dictionary found for language pair/,
    )
    const empty = await client.createMultilingualGlossary('No dictionaries', [])
    expect(empty.dictionaries).toEqual([])
    await client.deleteMultilingualGlossary(g)
    await expect(client.getMultilingualGlossary(g.glossaryId)).rejects.toBeInstanceOf(deepl.GlossaryNotFoundError)
  })

  it("answers 400 / 404 / 413 / 415 for bad glossary input, in DeepL's shapes", async () => {
    const post = (json: Record<string, unknown>) => call('/v2/glossaries', { json })
    const bad = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })
    expect(await bad(await post({ source_lang: 'en', target_lang: 'de', entries: 'a\tb' }))).toEqual({
      status: 400,
      body: { message: "Parameter 'name' not specified." },
    })
    expect(
      (await bad(await post({ name: 'x', source_lang: 'en', target_lang: 'xx', entries: 'a\tb' }))).body.message,
    ).toBe("Value for 'target_lang' not supported.")
    expect(
      (await bad(await post({ name: 'x', source_lang: 'en', target_lang: 'en', entries: 'a\tb' }))).body.message,
    ).toMatch(/Source and target language/)
    expect(await bad(await post({ name: 'x', source_lang: 'en', target_lang: 'de', entries: 'a\tb\na\tc' }))).toEqual({
      status: 400,
      body: { message: 'Invalid glossary entries provided', detail: expect.stringMatching(/duplicates key/) },
    })
    expect(
      (await bad(await post({ name: 'x', source_lang: 'en', target_lang: 'de', entries: 'no tab' }))).body.detail,
    ).toMatch(/misses tab separator/)
    expect(
      (await bad(await post({ name: 'x', source_lang: 'en', target_lang: 'de', entries: 'a\u0001\tb' }))).body.detail,
    ).toMatch(/control character/)
    expect(
      (await bad(await post({ name: 'x'.repeat(1025), source_lang: 'en', target_lang: 'de', entries: 'a\tb' }))).status,
    ).toBe(400)
    expect(
      (await bad(await post({ name: 'x', source_lang: 'en', target_lang: 'de', entries: `${'é'.repeat(513)}\tb` })))
        .body.detail,
    ).toMatch(/1024 UTF-8 bytes/)
    // Over 10 MiB of entries (but under the body limit): the glossary limit; over the body limit: the framework's 413.
    const huge = Array.from({ length: 10_600 }, (_, i) => `term ${i}\t${'t'.repeat(1000)}`).join('\n')
    expect(await bad(await post({ name: 'x', source_lang: 'en', target_lang: 'de', entries: huge }))).toEqual({
      status: 413,
      body: { message: 'A glossary may have at most 10 MiB of entries.' },
    })
    expect((await post({ name: 'x', source_lang: 'en', target_lang: 'de', entries: huge + huge })).status).toBe(413)
    expect((await call('/v2/glossaries/00000000-0000-4000-8000-000000000000')).status).toBe(404)
    expect((await call('/v2/glossaries/not-a-uuid')).status).toBe(404)
    const ok = (await (await post({ name: 'ok', source_lang: 'EN', target_lang: 'DE', entries: 'a\tb' })).json()) as any
    expect(ok.source_lang).toBe('en')
    const tsv = await call(`/v2/glossaries/${ok.glossary_id}/entries`, {
      headers: { Accept: 'text/tab-separated-values' },
    })
    expect([tsv.headers.get('content-type'), await tsv.text()]).toEqual([
      'text/tab-separated-values; charset=utf-8',
      'a\tb',
    ])
    const entriesWith = async (accept?: string) =>
      (
        await call(
          `/v2/glossaries/${ok.glossary_id}/entries`,
          accept === undefined ? {} : { headers: { Accept: accept } },
        )
      ).status
    expect(await entriesWith('application/json')).toBe(415)
    expect(await entriesWith('text/tab-separated-values;q=0, */*')).toBe(415) // refused by name, whatever the wildcard
    expect(await entriesWith('application/json, TEXT/*;q=0.1')).toBe(200)
    expect(await entriesWith('*/*')).toBe(200)
    const v3 = await call('/v3/glossaries', {
      json: { name: 'j', dictionaries: [{ source_lang: 'en', target_lang: 'de', entries: '' }] },
    })
    expect(v3.status).toBe(400)
    const entries = await call(`/v3/glossaries/${ok.glossary_id}/entries?source_lang=en&target_lang=fr`)
    expect(entries.status).toBe(404)
    // Another key cannot see it.
    const other = await server.app.services.keys.create({ admin: false })
    expect((await api(server, other.secret)(`/v2/glossaries/${ok.glossary_id}`)).status).toBe(404)
  })
})
