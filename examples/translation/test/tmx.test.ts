/** TMX import into and export out of translation memories, and the XML that must be refused quickly. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseTmx } from '../src/memories/tmx.ts'
import { api, startServer, type TestServer } from './_server.ts'

let server: TestServer
let call: ReturnType<typeof api>
let memoryId: string
beforeAll(async () => {
  server = await startServer({ env: { TMX_MAX_BYTES: '200000' } })
  call = api(server)
  const created = await call('/v3/translation_memories', {
    json: { name: 'TMX', source_language: 'en', target_languages: ['de', 'fr', 'es'] },
  })
  memoryId = ((await created.json()) as any).translation_memory_id
})
afterAll(() => server.close())

const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="test" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en-US" datatype="plaintext"/>
  <body>
    <tu>
      <tuv xml:lang="en-US"><seg>Press <bpt i="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> &amp; exit.</seg></tuv>
      <tuv xml:lang="de-DE"><seg>Drücken Sie <bpt i="1">&lt;b&gt;</bpt>Speichern<ept i="1">&lt;/b&gt;</ept> &amp; beenden.</seg></tuv>
      <tuv xml:lang="fr"><seg><![CDATA[Appuyez sur <Enregistrer>.]]></seg></tuv>
    </tu>
    <tu><tuv xml:lang="en"><seg>The contract ends in May.</seg></tuv><tuv xml:lang="de"><seg>Der Vertrag endet im Mai.</seg></tuv></tu>
    <tu><tuv xml:lang="es"><seg>Hola</seg></tuv><tuv xml:lang="de"><seg>Hallo</seg></tuv></tu>
    <tu><tuv xml:lang="en"><seg>Only English</seg></tuv><tuv xml:lang="it"><seg>Solo inglese</seg></tuv></tu>
  </body>
</tmx>`

const post = (body: string | Uint8Array<ArrayBuffer>, type = 'application/x-tmx+xml', id = memoryId) =>
  call(`/v3/translation_memories/${id}/tmx`, { method: 'POST', body, headers: { 'Content-Type': type } })

describe('TMX', () => {
  it('imports the units that have the source and a target of the memory (base languages match), and skips the rest', async () => {
    const res = await post(TMX)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ imported_segments: 3, skipped_units: 2 })
    const segments = (await (await call(`/v3/translation_memories/${memoryId}/segments`)).json()) as any
    const byText = Object.fromEntries(
      segments.segments.map((s: any) => [
        s.source_text,
        s.targets.map((t: any) => [t.target_language, t.target_text]).sort(),
      ]),
    )
    // Inline codes (<bpt>, <ept>) are markup of the original format, not text.
    expect(byText['Press Save & exit.']).toEqual([
      ['de', 'Drücken Sie Speichern & beenden.'],
      ['fr', 'Appuyez sur <Enregistrer>.'],
    ])
    expect(byText['The contract ends in May.']).toEqual([['de', 'Der Vertrag endet im Mai.']])
    // The imported segments are used in translation.
    const translated = (await (
      await call('/v2/translate', {
        json: {
          text: ['The contract ends in May.'],
          target_lang: 'DE',
          source_lang: 'EN',
          translation_memory_id: memoryId,
        },
      })
    ).json()) as any
    expect(translated.translations[0].text).toBe('Der Vertrag endet im Mai.')
  })

  it('exports TMX 1.4 that imports again unchanged (escaping included)', async () => {
    const res = await call(`/v3/translation_memories/${memoryId}/tmx`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/x-tmx+xml; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${memoryId}.tmx"`)
    const xml = await res.text()
    expect(xml).toContain('<tmx version="1.4">')
    expect(xml).toContain('<seg>Appuyez sur &lt;Enregistrer&gt;.</seg>')
    const doc = parseTmx(new TextEncoder().encode(xml))
    expect(doc.sourceLanguage).toBe('en')
    expect(
      doc.units.map((u) => Object.fromEntries([...u.variants].sort())).sort((a, b) => a.en!.localeCompare(b.en!)),
    ).toEqual([
      { de: 'Drücken Sie Speichern & beenden.', en: 'Press Save & exit.', fr: 'Appuyez sur <Enregistrer>.' },
      { de: 'Der Vertrag endet im Mai.', en: 'The contract ends in May.' },
    ])
    const copy = (await (
      await call('/v3/translation_memories', {
        json: { name: 'copy', source_language: 'en', target_languages: ['de', 'fr'] },
      })
    ).json()) as any
    expect(await (await post(xml, 'text/xml', copy.translation_memory_id)).json()).toEqual({
      imported_segments: 3,
      skipped_units: 0,
    })
  })

  const refused = async (body: string | Uint8Array<ArrayBuffer>, status: number, message: RegExp) => {
    const started = performance.now()
    const res = await post(body)
    const elapsed = performance.now() - started
    expect(res.status).toBe(status)
    expect(((await res.json()) as any).message).toMatch(message)
    return elapsed
  }

  it('refuses what is not XML or not TMX with 400', async () => {
    await refused('hello, world', 400, /Not a well-formed XML document/)
    await refused('<tmx><body><tu></body></tmx>', 400, /Not a well-formed XML document/)
    await refused('<?xml version="1.0"?><html><body/></html>', 400, /root element is <html>/)
    await refused(new Uint8Array([0x3c, 0xff, 0xfe, 0xfd, 0x80]), 400, /not UTF-8/)
    await refused('<tmx><body><tu><tuv><seg>x</seg></tuv></tu></body></tmx>', 400, /without xml:lang/)
    expect((await post('<tmx/>', 'application/json')).status).toBe(400)
    expect(
      (await call(`/v3/translation_memories/${memoryId}/tmx`, { method: 'POST', json: { tmx: TMX } })).status,
    ).toBe(415)
    expect((await post(TMX, 'application/x-tmx+xml', '00000000-0000-4000-8000-000000000000')).status).toBe(404)
    expect(
      (
        await api(server, '')(`/v3/translation_memories/${memoryId}/tmx`, {
          method: 'POST',
          body: TMX,
          headers: { 'Content-Type': 'text/xml' },
        })
      ).status,
    ).toBe(403)
  })

  it('refuses XML bombs within 100 ms: entity expansion, external entities, undefined entities, deep nesting', async () => {
    const laughs = ['<?xml version="1.0"?>', '<!DOCTYPE lolz [', '<!ENTITY lol "lol">']
    for (let i = 1; i <= 9; i++) laughs.push(`<!ENTITY lol${i} "${`&lol${i - 1 || ''};`.repeat(10)}">`)
    laughs.push(
      ']>',
      '<tmx><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>&lol9;</seg></tuv></tu></body></tmx>',
    )
    expect(await refused(laughs.join('\n'), 400, /document type declaration/)).toBeLessThan(100)
    const external =
      '<?xml version="1.0"?><!DOCTYPE tmx [<!ENTITY x SYSTEM "file:///etc/passwd">]><tmx><body>&x;</body></tmx>'
    expect(await refused(external, 400, /document type declaration/)).toBeLessThan(100)
    expect(
      await refused(
        '<tmx><body><tu><tuv xml:lang="en"><seg>&lol9;</seg></tuv></tu></body></tmx>',
        400,
        /undefined entity/i,
      ),
    ).toBeLessThan(100)
    const deep = `<tmx>${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</tmx>`
    expect(await refused(deep, 400, /nest more than 32/)).toBeLessThan(100)
  })

  it('refuses a TMX over TMX_MAX_BYTES with 413, and one over the body limit too', async () => {
    const big = `<tmx><body>${'<tu/>'.repeat(50_000)}</body></tmx>`
    await refused(big, 413, /at most 200000 bytes/)
    expect((await post(`<tmx>${' '.repeat(12 * 1024 * 1024)}</tmx>`)).status).toBe(413)
  })
})
