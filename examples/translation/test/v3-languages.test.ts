/** GET /v3/languages and /v3/languages/resources, from the same lists the resources enforce. */
import { describe, expect, it } from 'vitest'
import { api, ADMIN_KEY, useServer } from './_server.ts'

const served = useServer()

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })

describe('/v3/languages', () => {
  it('lists text languages with sides and features', async () => {
    const { status, body } = await json(await served.call('/v3/languages?resource=translate_text'))
    expect(status).toBe(200)
    const by = Object.fromEntries(body.map((l: any) => [l.lang, l]))
    expect(by.de).toEqual({
      lang: 'de',
      name: 'German',
      usable_as_source: true,
      usable_as_target: true,
      status: 'stable',
      features: {
        auto_detection: { status: 'stable' },
        tag_handling: { status: 'stable' },
        glossary: { status: 'stable' },
        translation_memory: { status: 'stable' },
        formality: { status: 'stable' },
        style_rules: { status: 'stable' },
      },
    })
    expect(by.en).toMatchObject({ usable_as_source: true, usable_as_target: false })
    expect(by['en-US']).toMatchObject({ name: 'English (American)', usable_as_source: false, usable_as_target: true })
    expect(by['zh-Hans']).toMatchObject({ usable_as_target: true })
    expect(by['pt-BR'].features.formality).toEqual({ status: 'stable' })
    expect(by['en-GB'].features.formality).toBeUndefined()
    expect(body.map((l: any) => l.lang)).toEqual(
      [...body.map((l: any) => l.lang)].sort((a: string, b: string) => a.localeCompare(b)),
    )
  })

  it('defaults to translate_text, and answers each resource', async () => {
    expect((await json(await served.call('/v3/languages'))).body).toEqual(
      (await json(await served.call('/v3/languages?resource=translate_text'))).body,
    )
    const voice = (await json(await served.call('/v3/languages?resource=voice&include=beta&include=external'))).body
    const en = voice.find((l: any) => l.lang === 'en')
    expect(en).toMatchObject({ usable_as_source: true, usable_as_target: true })
    expect(en.features.transcription).toEqual({ status: 'stable' })
    expect(voice.find((l: any) => l.lang === 'ga')).toMatchObject({ name: 'Irish', usable_as_target: true })
    const write = (await json(await served.call('/v3/languages?resource=write'))).body
    expect(write.find((l: any) => l.lang === 'en-US').features).toEqual({
      writing_style: { status: 'stable' },
      tone: { status: 'stable' },
    })
    expect(write.find((l: any) => l.lang === 'ja').features).toEqual({})
    const styles = (await json(await served.call('/v3/languages?resource=style_rules'))).body
    expect(styles.map((l: any) => l.lang)).toEqual(['de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'zh'])
    const tm = (await json(await served.call('/v3/languages?resource=translation_memory'))).body
    expect(tm.find((l: any) => l.lang === 'en-GB')).toMatchObject({ usable_as_source: false, usable_as_target: true })
    for (const resource of ['translate_document', 'glossary'])
      expect((await served.call(`/v3/languages?resource=${resource}`)).status).toBe(200)
  })

  it('refuses an unknown resource or include value, and a missing key', async () => {
    const bad = await json(await served.call('/v3/languages?resource=telepathy'))
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe("Value for 'resource' not supported.")
    expect((await served.call('/v3/languages?include=alpha')).status).toBe(400)
    expect((await served.call('/v3/languages?colour=blue')).status).toBe(400)
    expect((await api(served.server, '')('/v3/languages')).status).toBe(403)
    expect((await api(served.server, ADMIN_KEY)('/v3/languages')).status).toBe(403)
  })
})

describe('/v3/languages/resources', () => {
  it('lists every resource and which side each feature needs', async () => {
    const { status, body } = await json(await served.call('/v3/languages/resources'))
    expect(status).toBe(200)
    expect(body.map((r: any) => r.name)).toEqual([
      'translate_text',
      'translate_document',
      'glossary',
      'voice',
      'write',
      'style_rules',
      'translation_memory',
    ])
    expect(body[0].features).toContainEqual({ name: 'formality', needs_target_support: true })
    expect(body[0].features).toContainEqual({ name: 'auto_detection', needs_source_support: true })
    expect(body.find((r: any) => r.name === 'style_rules').features).toEqual([])
  })
})
