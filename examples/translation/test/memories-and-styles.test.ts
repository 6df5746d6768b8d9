/** Translation memories (fuzzy matching in translate) and style rule lists, over HTTP and through deepl-node. */
import * as deepl from 'deepl-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { similarity } from '../src/memories/similarity.ts'
import { API_KEY, api, startServer, type TestServer } from './_server.ts'

let server: TestServer
let call: ReturnType<typeof api>
let client: deepl.DeepLClient
beforeAll(async () => {
  server = await startServer()
  call = api(server)
  client = new deepl.DeepLClient(API_KEY, { serverUrl: server.url, maxRetries: 1 })
})
afterAll(() => server.close())

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })

describe('translation memories', () => {
  it('similarity is a normalised edit distance', () => {
    expect(similarity('The contract ends in May.', 'The contract ends in May.')).toBe(100)
    expect(similarity('The contract ends in June.', 'The contract ends in May.')).toBe(85)
    expect(similarity('Completely different', 'The contract ends in May.')).toBeLessThan(30)
  })

  it('are created with segments, listed, read and paged by deepl-node, used with a threshold, and deleted', async () => {
    const created = await json(
      await call('/v3/translation_memories', {
        json: {
          name: 'Legal',
          source_language: 'EN',
          target_languages: ['de', 'es'],
          segments: [
            {
              source_text: 'The contract ends in May.',
              target_language: 'de',
              target_text: 'Der Vertrag endet im Mai.',
            },
            { source_text: 'Thank you', target_language: 'de', target_text: 'Vielen herzlichen Dank' },
          ],
        },
      }),
    )
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      name: 'Legal',
      source_language: 'en',
      target_languages: ['de', 'es'],
      segment_count: 2,
    })
    const id = created.body.translation_memory_id
    const listed = await client.listTranslationMemories()
    expect(listed.map((m) => m.translationMemoryId)).toContain(id)
    const info = await client.getTranslationMemory(id)
    expect(info).toMatchObject({ name: 'Legal', sourceLanguage: 'en', segmentCount: 2 })
    const page = await client.listTranslationMemorySegments(id, { pageSize: 1 })
    expect(page.segments).toHaveLength(1)
    expect(page.segmentCount).toBe(2)
    expect(page.nextPageCursor).toBe('1')

    const fuzzy = await client.translateText(['The contract ends in June.', 'Thank you', 'Good night'], 'en', 'de', {
      translationMemory: info,
    })
    expect(fuzzy.map((r) => r.text)).toEqual(['Der Vertrag endet im Mai.', 'Vielen herzlichen Dank', 'Gute Nacht'])
    const strict = await call('/v2/translate', {
      form: {
        text: 'The contract ends in June.',
        source_lang: 'en',
        target_lang: 'de',
        translation_memory_id: id,
        translation_memory_threshold: '90',
      },
    })
    expect(((await strict.json()) as any).translations[0].text).toBe('The contract ends in June.') // no 90 % match: the engine's (pass-through) answer
    const wrongTarget = await json(
      await call('/v2/translate', { form: { text: 'Thank you', target_lang: 'fr', translation_memory_id: id } }),
    )
    expect(wrongTarget).toEqual({
      status: 400,
      body: { message: `Translation memory '${id}' has no target language 'fr'.` },
    })

    await client.deleteTranslationMemory(id)
    expect((await call(`/v3/translation_memories/${id}`)).status).toBe(404)
  })

  it('answers 400 for bad memories and segments', async () => {
    expect(
      (
        await json(
          await call('/v3/translation_memories', {
            json: { name: 'x', source_language: 'xx', target_languages: ['de'] },
          }),
        )
      ).body.message,
    ).toBe("Value for 'source_language' not supported.")
    expect(
      (await json(await call('/v3/translation_memories', { json: { name: 'x', source_language: 'en' } }))).body.message,
    ).toBe("Parameter 'target_languages' not specified.")
    const bad = await json(
      await call('/v3/translation_memories', {
        json: {
          name: 'x',
          source_language: 'en',
          target_languages: ['de'],
          segments: [{ source_text: 'a', target_language: 'fr', target_text: 'b' }],
        },
      }),
    )
    expect(bad.body.message).toMatch(/not a target language/)
    expect((await call('/v3/translation_memories?page_size=26')).status).toBe(400)
  })
})

describe('style rules', () => {
  it('deepl-node creates, lists, reads, renames, reconfigures and deletes style rule lists', async () => {
    const style = await client.createStyleRule({
      name: 'House style',
      language: 'de',
      configured_rules: { punctuation: { quotation_mark: 'use_guillemets' } },
      custom_instructions: [{ label: 'Du', prompt: 'Address the reader informally' }],
    })
    expect(style).toMatchObject({
      name: 'House style',
      language: 'de',
      version: 1,
      configuredRules: { punctuation: { quotation_mark: 'use_guillemets' } },
    })
    expect(style.customInstructions).toEqual([
      { id: expect.any(String), label: 'Du', prompt: 'Address the reader informally', sourceLanguage: undefined },
    ])
    expect((await client.getStyleRule(style.styleId)).name).toBe('House style')
    expect((await client.getAllStyleRules(0, 10, true)).map((s) => s.styleId)).toContain(style.styleId)
    const renamed = await client.updateStyleRuleName(style.styleId, 'Renamed')
    expect([renamed.name, renamed.version]).toEqual(['Renamed', 2])
    const reconfigured = await client.updateStyleRuleConfiguredRules(style.styleId, {
      numbers: { decimal_separator: 'use_comma' },
    } as never)
    expect(reconfigured.configuredRules?.numbers).toEqual({ decimal_separator: 'use_comma' })

    // style_id in translate, in either encoding: the list's language must be the target's, its prompts go to the engine.
    const ok = await json(
      await call('/v2/translate', { json: { text: ['Good night'], target_lang: 'de', style_id: style.styleId } }),
    )
    expect(ok.body.translations[0].text).toBe('Gute Nacht')
    const mismatch = await json(
      await call('/v2/translate', { json: { text: ['Good night'], target_lang: 'fr', style_id: style.styleId } }),
    )
    expect(mismatch).toEqual({
      status: 400,
      body: { message: "The style rule list's language 'de' does not match the target language 'fr'." },
    })
    // deepl-node sends style_id as a form field ("translateText with a StyleRuleInfo object" in its own suite).
    expect((await client.translateText('Good night', null, 'de', { styleRule: style })).text).toBe('Gute Nacht')
    expect((await client.translateText('Good night', null, 'de', { styleRule: style.styleId })).text).toBe('Gute Nacht')
    await expect(client.translateText('Good night', null, 'fr', { styleRule: style })).rejects.toThrow(
      /does not match the target language 'fr'/,
    )

    await client.deleteStyleRule(style.styleId)
    await expect(client.getStyleRule(style.styleId)).rejects.toThrow(/not found/i)
  })

  it('answers 400 for bad style rule lists', async () => {
    expect((await json(await call('/v3/style_rules', { json: { name: 'x', language: 'xx' } }))).body.message).toBe(
      "Value for 'language' not supported.",
    )
    expect((await json(await call('/v3/style_rules', { json: { language: 'de' } }))).body.message).toBe(
      "Parameter 'name' not specified.",
    )
    expect(
      (
        await json(
          await call('/v3/style_rules', { json: { name: 'x', language: 'de', configured_rules: { numbers: 'all' } } }),
        )
      ).body.message,
    ).toBe("Value for 'configured_rules' not supported.")
    expect((await call('/v3/style_rules/00000000-0000-4000-8000-000000000000')).status).toBe(404)
  })
})
