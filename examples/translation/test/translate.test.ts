/** /v2/translate over HTTP: both body encodings, every parameter's rules, markup, billing and limits. */
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { API_KEY, api, startServer, useServer } from './_server.ts'

const served = useServer()

async function translate(body: Record<string, unknown>, init: RequestInit = {}) {
  const res = await served.call('/v2/translate', { ...init, json: body })
  return { status: res.status, body: (await res.json()) as any, headers: res.headers }
}

describe('POST /v2/translate', () => {
  it('translates a form body with repeated text fields, one result per text, in order', async () => {
    const res = await served.call('/v2/translate', {
      form: { text: ['Hello, world!', 'Where is the station?', 'Good night'], target_lang: 'de' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/)
    expect(await res.json()).toEqual({
      translations: [
        { detected_source_language: 'EN', text: 'Hallo, Welt!' },
        { detected_source_language: 'EN', text: 'Wo ist der Bahnhof?' },
        { detected_source_language: 'EN', text: 'Gute Nacht' },
      ],
    })
  })

  it('translates a JSON body (deepl-python shape: arrays, real booleans)', async () => {
    const { status, body } = await translate({
      text: ['Thank you', 'Bonjour le monde !'],
      target_lang: 'EN-US',
      show_billed_characters: true,
    })
    expect(status).toBe(200)
    expect(body.translations).toEqual([
      { detected_source_language: 'EN', text: 'Thank you', billed_characters: 9 },
      { detected_source_language: 'FR', text: 'Hello, world!', billed_characters: 18 },
    ])
  })

  it("accepts deepl-python's exact JSON request shape", async () => {
    // What deepl-python 1.x sends for translate_text(..., tag_handling='xml', ignore_tags=[...], preserve_formatting=False).
    const { status, body } = await translate({
      text: ['<r>Thank you <x>Hello</x></r>'],
      target_lang: 'IT',
      source_lang: 'EN',
      show_billed_characters: true,
      split_sentences: '1',
      preserve_formatting: false,
      tag_handling: 'xml',
      outline_detection: true,
      ignore_tags: ['x'],
      non_splitting_tags: [],
      splitting_tags: [],
      formality: 'prefer_more',
      model_type: 'quality_optimized',
    })
    expect(status).toBe(200)
    expect(body.translations).toEqual([
      {
        detected_source_language: 'EN',
        text: '<r>Grazie <x>Hello</x></r>',
        billed_characters: 15,
        model_type_used: 'quality_optimized',
        tag_handling_version: 'v1',
      },
    ])
  })

  it("never lets concurrent requests pass a key's character limit", async () => {
    const limited = await served.server.app.services.keys.create({ admin: false })
    await served.server.app.services.keys.setLimits(limited.record.keyId, { characters: 10 })
    const send = () => api(served.server, limited.secret)('/v2/translate', { form: { text: 'abc', target_lang: 'de' } })
    const statuses = (await Promise.all(Array.from({ length: 6 }, send))).map((r) => r.status).sort()
    expect(statuses).toEqual([200, 200, 200, 456, 456, 456])
  })

  it('detects each text independently and reflects source_lang when given', async () => {
    const detected = await translate({
      text: ['Wie geht es Ihnen?', '¿Dónde está la estación?', 'こんにちは'],
      target_lang: 'fr',
    })
    expect(detected.body.translations.map((t: any) => t.detected_source_language)).toEqual(['DE', 'ES', 'JA'])
    expect(detected.body.translations.map((t: any) => t.text)).toEqual([
      'Comment allez-vous ?',
      'Où est la gare ?',
      'Bonjour',
    ])
    const given = await translate({ text: ['Hallo'], source_lang: 'nl', target_lang: 'en-gb' })
    expect(given.body.translations[0]).toEqual({ detected_source_language: 'NL', text: 'Hello' })
  })

  it('passes unknown text through unchanged and replaces known words inside it', async () => {
    const { body } = await translate({
      text: ['Zorgbloem quux', 'My cat and my dog'],
      target_lang: 'de',
      source_lang: 'en',
    })
    expect(body.translations.map((t: any) => t.text)).toEqual(['Zorgbloem quux', 'My Katze and my Hund'])
  })

  it('bills Unicode code points, not UTF-16 units, and never the context', async () => {
    const { body } = await translate({
      text: ['👋 Hello'],
      target_lang: 'de',
      show_billed_characters: true,
      context: 'a long context that is not billed',
    })
    expect(body.translations[0]).toEqual({ detected_source_language: 'EN', text: '👋 Hallo', billed_characters: 7 })
  })

  it('answers model_type_used only when model_type was sent', async () => {
    const withType = await translate({ text: ['Hello'], target_lang: 'de', model_type: 'prefer_quality_optimized' })
    expect(withType.body.translations[0].model_type_used).toBe('quality_optimized')
    const latency = await translate({ text: ['Hello'], target_lang: 'de', model_type: 'latency_optimized' })
    expect(latency.body.translations[0].model_type_used).toBe('latency_optimized')
    const without = await translate({ text: ['Hello'], target_lang: 'de' })
    expect(without.body.translations[0]).not.toHaveProperty('model_type_used')
    expect(without.body.translations[0]).not.toHaveProperty('billed_characters')
  })

  it('applies formality: more/prefer_more formal, less/prefer_less informal', async () => {
    const text = ['How are you?']
    const formal = await translate({ text, target_lang: 'de', formality: 'more' })
    const informal = await translate({ text, target_lang: 'de', formality: 'less' })
    const preferInformal = await translate({ text, target_lang: 'fr', formality: 'prefer_less' })
    expect(formal.body.translations[0].text).toBe('Wie geht es Ihnen?')
    expect(informal.body.translations[0].text).toBe('Wie geht es dir?')
    expect(preferInformal.body.translations[0].text).toBe('Comment vas-tu ?')
  })

  it('rejects formality more/less for targets without formality, but not prefer_*', async () => {
    const bad = await translate({ text: ['Hello'], target_lang: 'en-us', formality: 'less' })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/Target language 'EN-US' doesn't support formality/)
    const ok = await translate({ text: ['Hello'], target_lang: 'en-us', formality: 'prefer_less' })
    expect(ok.status).toBe(200)
    const unknown = await translate({ text: ['Hello'], target_lang: 'de', formality: 'very' })
    expect(unknown.body.message).toBe("Value for 'formality' not supported.")
  })

  it('splits sentences by split_sentences: 1 (punctuation and newlines), nonewlines, 0 (never)', async () => {
    const text = ['Hello. How are you?\nGood night']
    const on = await translate({ text, target_lang: 'de', split_sentences: '1' })
    expect(on.body.translations[0].text).toBe('Hallo. Wie geht es Ihnen?\nGute Nacht')
    const noNewlines = await translate({ text: ['Good\nnight'], target_lang: 'de', split_sentences: 'nonewlines' })
    expect(noNewlines.body.translations[0].text).toBe('Gute Nacht')
    const split = await translate({ text: ['Good\nnight'], target_lang: 'de', split_sentences: '1' })
    expect(split.body.translations[0].text).toBe('Good\nnight')
    const off = await translate({ text: ['Good\nnight'], target_lang: 'de', split_sentences: '0' })
    expect(off.body.translations[0].text).toBe('Gute Nacht')
    const inside = await translate({ text: ['How are you? Hello'], target_lang: 'de', split_sentences: '0' })
    expect(inside.body.translations[0].text).toBe('Wie geht es Ihnen? Hallo')
    const bad = await translate({ text, target_lang: 'de', split_sentences: '2' })
    expect(bad.body.message).toBe("Value for 'split_sentences' not supported.")
  })

  it('keeps the source casing and final punctuation with preserve_formatting', async () => {
    const plain = await served.call('/v2/translate', { form: { text: 'how are you', target_lang: 'de' } })
    expect(((await plain.json()) as any).translations[0].text).toBe('Wie geht es Ihnen?')
    const preserved = await served.call('/v2/translate', {
      form: { text: 'how are you', target_lang: 'de', preserve_formatting: '1' },
    })
    expect(((await preserved.json()) as any).translations[0].text).toBe('wie geht es Ihnen')
  })

  it('validates required parameters and language codes with DeepL messages', async () => {
    expect((await translate({ target_lang: 'de' })).body.message).toBe("Parameter 'text' not specified.")
    expect((await translate({ text: [], target_lang: 'de' })).body.message).toBe("Parameter 'text' not specified.")
    expect((await translate({ text: ['x'] })).body.message).toBe("Parameter 'target_lang' not specified.")
    expect((await translate({ text: ['x'], target_lang: 'xx' })).body.message).toBe(
      "Value for 'target_lang' not supported.",
    )
    expect((await translate({ text: ['x'], target_lang: 'de', source_lang: 'en-us' })).body.message).toBe(
      "Value for 'source_lang' not supported.",
    )
    expect((await translate({ text: [1], target_lang: 'de' })).body.message).toBe("Value for 'text' not supported.")
    expect((await translate({ text: ['x'], target_lang: 'de', tag_handling: 'json' })).body.message).toBe(
      "Value for 'tag_handling' not supported.",
    )
    expect((await translate({ text: ['x'], target_lang: 'de', show_billed_characters: 'maybe' })).body.message).toBe(
      "Value for 'show_billed_characters' not supported.",
    )
    const status = (await translate({ text: ['x'], target_lang: 'xx' })).status
    expect(status).toBe(400)
  })

  it('accepts deprecated EN/PT targets as EN-US/PT-PT and ignores unknown parameters', async () => {
    const { status, body } = await translate({
      text: ['Hallo'],
      target_lang: 'EN',
      source_lang: 'DE',
      example_extra_param: true,
      enable_beta_languages: true,
    })
    expect(status).toBe(200)
    expect(body.translations[0].text).toBe('Hello')
  })

  it('limits custom_instructions to 10 items of 300 characters and to the listed targets', async () => {
    const ok = await translate({ text: ['Hello'], target_lang: 'de', custom_instructions: ['Use a friendly tone'] })
    expect(ok.status).toBe(200)
    const viaForm = await served.call('/v2/translate', {
      form: { text: 'Hello', target_lang: 'zh-hans', custom_instructions: ['a', 'b'] },
    })
    expect(viaForm.status).toBe(200)
    const tooMany = await translate({ text: ['Hello'], target_lang: 'de', custom_instructions: Array(11).fill('x') })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.message).toMatch(/at most 10/)
    const tooLong = await translate({ text: ['Hello'], target_lang: 'de', custom_instructions: ['x'.repeat(301)] })
    expect(tooLong.body.message).toMatch(/at most 300 characters/)
    const exactly = await translate({
      text: ['Hello'],
      target_lang: 'de',
      custom_instructions: Array(10).fill('y'.repeat(300)),
    })
    expect(exactly.status).toBe(200)
    const wrongTarget = await translate({ text: ['Hello'], target_lang: 'nl', custom_instructions: ['Be brief'] })
    expect(wrongTarget.status).toBe(400)
    expect(wrongTarget.body.message).toMatch(/Target language 'NL' doesn't support custom_instructions/)
  })

  it('accepts style_id in a form body (as deepl-node sends it) and in JSON alike', async () => {
    const form = await served.call('/v2/translate', {
      form: { text: 'Hello', target_lang: 'de', style_id: 'dca2e053-8ae5-45e6-a0d2-881156e7f4e4' },
    })
    expect(form.status).toBe(404)
    expect(((await form.json()) as any).message).toMatch(/Style rule list .* not found/)
    const json = await translate({
      text: ['Hello'],
      target_lang: 'de',
      style_id: 'dca2e053-8ae5-45e6-a0d2-881156e7f4e4',
    })
    expect(json.status).toBe(404)
    expect(json.body.message).toMatch(/Style rule list .* not found/)
    const repeated = await served.call('/v2/translate', {
      form: {
        text: 'Hello',
        target_lang: 'de',
        style_id: ['dca2e053-8ae5-45e6-a0d2-881156e7f4e4', 'dca2e053-8ae5-45e6-a0d2-881156e7f4e5'],
      },
    })
    expect(repeated.status).toBe(400)
    expect(((await repeated.json()) as any).message).toBe("Value for 'style_id' not supported.")
  })

  it('validates translation memory parameters', async () => {
    const bad = await translate({
      text: ['Hello'],
      target_lang: 'de',
      translation_memory_id: 'a74d88fb-ed2a-4943-a664-a4512398b994',
      translation_memory_threshold: 101,
    })
    expect(bad.body.message).toBe('Parameter "translation_memory_threshold" must be an integer between 0 and 100')
    const unknown = await translate({
      text: ['Hello'],
      target_lang: 'de',
      translation_memory_id: 'a74d88fb-ed2a-4943-a664-a4512398b994',
    })
    expect(unknown.status).toBe(404)
    const malformed = await translate({ text: ['Hello'], target_lang: 'de', translation_memory_id: 'nope' })
    expect(malformed.body.message).toBe("Value for 'translation_memory_id' not supported.")
  })

  it('answers 413 over 128 KiB, before translating anything', async () => {
    const big = await served.call('/v2/translate', { form: { text: 'a'.repeat(128 * 1024), target_lang: 'de' } })
    expect(big.status).toBe(413)
    expect(big.headers.get('x-trace-id')).toBeTruthy()
    expect(((await big.json()) as any).message).toMatch(/limit/)
    const justUnder = await served.call('/v2/translate', {
      form: { text: 'a'.repeat(128 * 1024 - 40), target_lang: 'de' },
    })
    expect(justUnder.status).toBe(200)
  })

  it('answers 415 for other content types and DeepL-shaped 404/405 with a trace id', async () => {
    const text = await served.call('/v2/translate', {
      method: 'POST',
      body: 'Hello',
      headers: { 'Content-Type': 'text/plain' },
    })
    expect(text.status).toBe(415)
    const missing = await served.call('/v2/nothing-here')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/)
    expect(await missing.json()).toEqual({ message: expect.stringContaining('/v2/nothing-here') })
    const wrongMethod = await served.call('/v2/translate')
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toContain('POST')
  })
})

describe('tag handling', () => {
  it('xml: keeps markup, leaves ignore_tags content untouched, translates the rest', async () => {
    const text = '<doc><title>The title</title><p>Hello <b>world</b>!</p><code>Hello world</code></doc>'
    const { body } = await translate({
      text: [text],
      target_lang: 'de',
      tag_handling: 'xml',
      ignore_tags: ['code'],
      show_billed_characters: true,
    })
    expect(body.translations[0].text).toBe(
      '<doc><title>Der Titel</title><p>Hallo <b>Welt</b>!</p><code>Hello world</code></doc>',
    )
    expect(body.translations[0].tag_handling_version).toBe('v1')
    // Tags are not billed: "The title" + "Hello " + "world" + "!" + "Hello world".
    expect(body.translations[0].billed_characters).toBe(9 + 6 + 5 + 1 + 11)
  })

  it('xml: comma-separated tag lists from forms, and ignored elements inside a sentence', async () => {
    const res = await served.call('/v2/translate', {
      form: {
        text: '<p>Say <x>Hello</x> to the <kbd>cat</kbd> and the dog</p>',
        target_lang: 'fr',
        tag_handling: 'xml',
        ignore_tags: 'kbd,x',
        non_splitting_tags: 'p',
      },
    })
    expect(((await res.json()) as any).translations[0].text).toBe(
      '<p>Say <x>Hello</x> to the <kbd>cat</kbd> and the chien</p>',
    )
  })

  it('xml: splitting_tags cut sentences, non_splitting_tags keep them whole (what the engine is given)', async () => {
    const seen: string[][] = []
    const recorder = await startServer({
      engine: {
        name: 'recorder',
        translate: async (r) => {
          seen.push(r.units.map((u) => u.text))
          return { results: r.units.map((u) => ({ text: u.text })), modelTypeUsed: 'quality_optimized' }
        },
      },
    })
    try {
      const send = (body: Record<string, unknown>) =>
        api(recorder)('/v2/translate', { json: { target_lang: 'de', tag_handling: 'xml', ...body } })
      const text = ['<s>Good <i>night</i> cat. <b>Bye</b></s>']
      await send({ text, non_splitting_tags: ['i', 'b', 's'] })
      await send({ text, outline_detection: false, splitting_tags: ['i'] })
      await send({ text })
      expect(seen).toEqual([
        ['Good <i>night</i> cat.', 'Bye'],
        ['Good', 'night', 'cat.', 'Bye'],
        ['Good', 'night', 'cat.', 'Bye'],
      ])
    } finally {
      await recorder.close()
    }
  })

  it('html: blocks split, inline tags stay, script/style/translate="no"/notranslate untouched, entities and comments kept', async () => {
    const html =
      '<!DOCTYPE html><html><head><title>The title</title><style>p { color: red }</style></head>' +
      '<body><h1>Welcome</h1><p>Hello <a href="/x?a=1&amp;b=2" title="Hello">world</a>.<br>Good night</p>' +
      '<p translate="no">Hello world</p><span class="x notranslate">Thank you</span><!-- Hello --><script>var hello = "Hello"</script></body></html>'
    const { body } = await translate({ text: [html], target_lang: 'de', tag_handling: 'html' })
    expect(body.translations[0].text).toBe(
      '<!DOCTYPE html><html><head><title>Der Titel</title><style>p { color: red }</style></head>' +
        '<body><h1>Willkommen</h1><p>Hallo <a href="/x?a=1&amp;b=2" title="Hello">Welt</a>.<br>Gute Nacht</p>' +
        '<p translate="no">Hello world</p><span class="x notranslate">Thank you</span><!-- Hello --><script>var hello = "Hello"</script></body></html>',
    )
  })

  it('without tag_handling, markup is plain text and billed', async () => {
    const { body } = await translate({ text: ['<b>Hello</b>'], target_lang: 'de', show_billed_characters: true })
    expect(body.translations[0]).toEqual({
      detected_source_language: 'EN',
      text: '<b>Hallo</b>',
      billed_characters: 12,
    })
  })
})

describe('glossaries in translation', () => {
  it('requires source_lang, a known glossary and a dictionary for the pair, then applies its terms', async () => {
    const key = (await served.server.app.services.keys.findBySecret('test-api-key'))!
    const id = await served.server.app.services.glossaries.create(key.keyId, 'Fruit', [
      {
        sourceLang: 'en',
        targetLang: 'de',
        entries: [
          ['apple', 'Apfel'],
          ['proton beam', 'Teilchenstrahl'],
        ],
      },
    ])
    const noSource = await translate({ text: ['apple'], target_lang: 'de', glossary_id: id })
    expect(noSource.status).toBe(400)
    expect(noSource.body.message).toBe('Use of a glossary requires the source_lang parameter to be specified')
    const wrongPair = await translate({ text: ['apple'], source_lang: 'en', target_lang: 'fr', glossary_id: id })
    expect(wrongPair.status).toBe(400)
    expect(wrongPair.body.message).toMatch(/No dictionary found for language pair en-fr/)
    const unknown = await translate({
      text: ['apple'],
      source_lang: 'en',
      target_lang: 'de',
      glossary_id: '00000000-0000-4000-8000-000000000000',
    })
    expect(unknown.status).toBe(404)
    const ok = await translate({
      text: ['Apple', 'An apple and a proton beam, my friend'],
      source_lang: 'en',
      target_lang: 'de',
      glossary_id: id,
    })
    expect(ok.body.translations.map((t: any) => t.text)).toEqual(['Apfel', 'An Apfel and a Teilchenstrahl, my Freund'])
    const both = await translate({
      text: ['apple'],
      source_lang: 'en',
      target_lang: 'de',
      glossary_id: id,
      glossary_ids: [id],
    })
    expect(both.status).toBe(400)
  })

  it("does not let one key use another key's glossary", async () => {
    const other = await served.server.app.services.keys.create({ admin: false })
    const id = await served.server.app.services.glossaries.create(other.record.keyId, 'Private', [
      { sourceLang: 'en', targetLang: 'de', entries: [['apple', 'Apfel']] },
    ])
    const res = await translate({ text: ['apple'], source_lang: 'en', target_lang: 'de', glossary_id: id })
    expect(res.status).toBe(404)
  })
})

describe('GET /v2/languages with the type in a body (deepl-python sends GET parameters as a form body)', () => {
  /** A GET with a body: fetch cannot send one, node:http can. */
  function getWithBody(path: string, body: string, type: string): Promise<{ status: number; body: any }> {
    const url = new URL(served.server.url + path)
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: 'GET',
          headers: {
            Authorization: `DeepL-Auth-Key ${API_KEY}`,
            'Content-Type': type,
            'Content-Length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = ''
          res
            .setEncoding('utf8')
            .on('data', (c) => (text += c))
            .on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }))
        },
      )
      req.on('error', reject).end(body)
    })
  }

  it('reads type=target from a form or JSON body: the target list with supports_formality', async () => {
    for (const [body, type] of [
      ['type=target', 'application/x-www-form-urlencoded'],
      ['{"type":"target"}', 'application/json'],
    ]) {
      const res = await getWithBody('/v2/languages', body, type)
      expect(res.status).toBe(200)
      expect(res.body).toContainEqual({ language: 'DE', name: 'German', supports_formality: true })
    }
  })

  it('lets the body win over the query (as for every method), and answers 400 for a bad type in the body', async () => {
    const target = await getWithBody('/v2/languages?type=source', 'type=target', 'application/x-www-form-urlencoded')
    expect(target.body).toContainEqual({ language: 'DE', name: 'German', supports_formality: true })
    const bad = await getWithBody('/v2/languages', 'type=both', 'application/x-www-form-urlencoded')
    expect(bad).toEqual({
      status: 400,
      body: { message: "Parameter 'type' is invalid. 'source' and 'target' are valid values." },
    })
    const none = await getWithBody('/v2/languages', '', 'application/x-www-form-urlencoded')
    expect(none.body).toContainEqual({ language: 'DE', name: 'German' })
    const post = await served.call('/v2/languages', { form: { type: 'target' } })
    expect((await post.json()) as any).toContainEqual({ language: 'DE', name: 'German', supports_formality: true })
  })
})
