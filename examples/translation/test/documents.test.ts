/**
 * Document translation over HTTP and through deepl-node's translateDocument: every format keeps its structure (a
 * docx stays a valid package), status flow, one download then 404, bad inputs, and jobs surviving a restart.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { postgresAvailable } from '@routeless/example-kit/testing'
import * as deepl from 'deepl-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PhraseTableEngine } from '../src/engines/phrase-table-engine.ts'
import type { EngineRequest } from '../src/engines/engine.ts'
import { readZip, writeZip } from '../src/documents/zip.ts'
import { API_KEY, api, startServer, type Storage, type TestServer } from './_server.ts'

const storages: Storage[] = ['sqlite', ...((await postgresAvailable()) ? (['postgres'] as const) : [])]

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)))
const tmp = mkdtempSync(path.join(tmpdir(), 'translation-documents-'))
let server: TestServer
let call: ReturnType<typeof api>

beforeAll(async () => {
  server = await startServer()
  call = api(server)
})
afterAll(async () => {
  await server.close()
  rmSync(tmp, { recursive: true, force: true })
})

function upload(
  name: string,
  content: Uint8Array | string,
  fields: Record<string, string> = { target_lang: 'de' },
  key = API_KEY,
) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name)
  return api(server, key)('/v2/document', { method: 'POST', body: form })
}

/** Uploads, waits for done, downloads: the translated bytes. */
async function translate(
  name: string,
  content: Uint8Array | string,
  fields?: Record<string, string>,
): Promise<Uint8Array> {
  const res = await upload(name, content, fields)
  expect(res.status).toBe(200)
  const { document_id: id, document_key: key } = (await res.json()) as any
  for (let i = 0; i < 100; i++) {
    const status = (await (await call(`/v2/document/${id}`, { form: { document_key: key } })).json()) as any
    if (status.status === 'done') break
    expect(status.status).toMatch(/queued|translating/)
    await new Promise((r) => setTimeout(r, 20))
  }
  const result = await call(`/v2/document/${id}/result`, { form: { document_key: key } })
  expect(result.status).toBe(200)
  return new Uint8Array(await result.arrayBuffer())
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const part = async (zip: Uint8Array, name: string) => text((await readZip(zip)).find((e) => e.name === name)!.data)

/** Independent check of the package with Python's zipfile when python3 is installed. */
function pythonZipTest(bytes: Uint8Array): void {
  const file = path.join(tmp, `check-${Math.random()}.zip`)
  writeFileSync(file, bytes)
  try {
    execFileSync('python3', [
      '-c',
      'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None',
      file,
    ])
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

function wellFormed(xml: string): void {
  // Every element opened is closed in order (no attribute or text may break the nesting).
  const stack: string[] = []
  for (const m of xml.matchAll(/<(\/?)([\w:.-]+)[^>]*?(\/?)>/g)) {
    if (m[0].startsWith('<?')) continue
    if (m[1]) expect(stack.pop()).toBe(m[2])
    else if (!m[3]) stack.push(m[2]!)
  }
  expect(stack).toEqual([])
}

describe('deepl-node translateDocument', () => {
  it('translates a .docx end to end into a valid docx', async () => {
    const translator = new deepl.Translator(API_KEY, { serverUrl: server.url, maxRetries: 1 })
    const input = path.join(tmp, 'in.docx')
    const output = path.join(tmp, 'out.docx')
    writeFileSync(input, fixture('sample.docx'))
    const status = await translator.translateDocument(input, output, 'en', 'de')
    expect(status.status).toBe('done')
    expect(status.billedCharacters).toBe('Welcome'.length + 'Good morning, friend!'.length + 'Thank you'.length)
    const docx = new Uint8Array(readFileSync(output))
    pythonZipTest(docx)
    const names = (await readZip(docx)).map((e) => e.name)
    expect(names).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml'])
    expect(await part(docx, '[Content_Types].xml')).toBe(await part(fixture('sample.docx'), '[Content_Types].xml'))
    const xml = await part(docx, 'word/document.xml')
    wellFormed(xml)
    expect(xml).toContain(
      '<w:r><w:rPr><w:b/></w:rPr><w:t>Guten Morgen</w:t></w:r><w:r><w:t xml:space="preserve">, Freund!</w:t></w:r>',
    )
    expect(xml).toContain('<w:t>Willkommen</w:t>')
    expect(xml).toContain('<w:t>Danke</w:t>')
    expect(xml).toContain('<w:p/>')
  })

  it('translates a .txt end to end, keeping lines', async () => {
    const translator = new deepl.Translator(API_KEY, { serverUrl: server.url, maxRetries: 1 })
    const input = path.join(tmp, 'in.txt')
    const output = path.join(tmp, 'out.txt')
    writeFileSync(input, 'Hello, world!\n\nGood night\r\nThank you\n')
    await translator.translateDocument(input, output, null, 'fr')
    expect(readFileSync(output, 'utf8')).toBe('Bonjour le monde !\n\nBonne nuit\r\nMerci\n')
  })
  it('ends a document already in the target language in error, "Source and target language are equal."', async () => {
    const translator = new deepl.Translator(API_KEY, { serverUrl: server.url, maxRetries: 1 })
    const input = path.join(tmp, 'de.txt')
    writeFileSync(input, 'Guten Morgen, Freund!\nGute Nacht\nProtonenstrahl\n')
    const error = await translator
      .translateDocument(input, path.join(tmp, 'de-out.txt'), null, 'de')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(deepl.DocumentTranslationError)
    expect((error as Error).message).toMatch(/Source and target language are equal\./)
    // The same German text into English is translated; an explicit equal pair is refused at upload.
    await translator.translateDocument(input, path.join(tmp, 'en-out.txt'), null, 'en-GB')
    const explicit = await upload('de.txt', 'Gute Nacht', { target_lang: 'DE', source_lang: 'de' })
    expect(explicit.status).toBe(400)
    expect(((await explicit.json()) as any).message).toBe('Source and target language are equal.')
  })
})

describe('document formats', () => {
  it('html, srt and XLIFF 2.1 keep their structure', async () => {
    const html =
      '<!DOCTYPE html><html><head><title>Welcome</title><style>p{color:red}</style></head><body><p>Good morning, <b>friend</b>!</p></body></html>'
    expect(text(await translate('page.html', html))).toBe(
      '<!DOCTYPE html><html><head><title>Willkommen</title><style>p{color:red}</style></head><body><p>Guten Morgen, <b>Freund</b>!</p></body></html>',
    )
    const srt = '1\n00:00:01,000 --> 00:00:02,000\nHello\n\n2\n00:00:03,000 --> 00:00:04,500\nGood night\nThank you\n'
    expect(text(await translate('movie.srt', srt))).toBe(
      '1\n00:00:01,000 --> 00:00:02,000\nHallo\n\n2\n00:00:03,000 --> 00:00:04,500\nGute Nacht\nDanke\n',
    )
    const xlf =
      '<?xml version="1.0"?><xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en"><file id="f1"><unit id="u1"><segment><source>Good night</source></segment></unit><unit id="u2"><segment><source>Hello <ph id="1"/></source><target>old</target></segment></unit></file></xliff>'
    const out = text(await translate('strings.xlf', xlf))
    expect(out).toBe(
      '<?xml version="1.0"?><xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en" trgLang="de"><file id="f1"><unit id="u1"><segment><source>Good night</source><target>Gute Nacht</target></segment></unit><unit id="u2"><segment><source>Hello <ph id="1"/></source><target>Hallo <ph id="1"/></target></segment></unit></file></xliff>',
    )
  })

  it('pptx and xlsx stay valid packages with their texts translated and numbers untouched', async () => {
    const pptx = await translate('deck.pptx', fixture('sample.pptx'), { target_lang: 'es' })
    pythonZipTest(pptx)
    expect(await part(pptx, 'ppt/slides/slide1.xml')).toContain(
      '<a:r><a:rPr lang="en-US"/><a:t>Buenas noches</a:t></a:r>',
    )
    const xlsx = await translate('sheet.xlsx', fixture('sample.xlsx'), { target_lang: 'fr' })
    pythonZipTest(xlsx)
    expect(await part(xlsx, 'xl/sharedStrings.xml')).toContain('<si><t>Bonjour</t></si><si><t>Merci</t></si>')
    expect(await part(xlsx, 'xl/worksheets/sheet1.xml')).toContain(
      '<c r="B1"><v>42</v></c><c r="C1" t="inlineStr"><is><t>Bonne nuit</t></is></c>',
    )
  })

  it('answers 400 for pdf, images, unknown or damaged files and bad parameters; 413 over the size limit', async () => {
    const message = async (res: Response) => [res.status, ((await res.json()) as any).message]
    expect(await message(await upload('scan.pdf', '%PDF-1.4'))).toEqual([
      400,
      expect.stringMatching(/not supported by this server.*PDF or images/),
    ])
    expect((await upload('photo.png', 'x')).status).toBe(400)
    expect(await message(await upload('data.bin', 'x'))).toEqual([400, expect.stringMatching(/^Invalid file/)])
    expect(await message(await upload('broken.docx', 'not a zip'))).toEqual([
      400,
      expect.stringMatching(/^Invalid file: the document is not a valid package/),
    ])
    const noDocument = await writeZip([{ name: '[Content_Types].xml', data: new TextEncoder().encode('<Types/>') }])
    expect(await message(await upload('empty.docx', noDocument))).toEqual([
      400,
      'Invalid file: the package has no word/document.xml',
    ])
    expect(await message(await upload('old.xlf', '<xliff version="1.2"></xliff>'))).toEqual([
      400,
      expect.stringMatching(/XLIFF 1.2 is not supported/),
    ])
    expect(await message(await upload('a.txt', 'Hello', {}))).toEqual([400, "Parameter 'target_lang' not specified."])
    expect(await message(await upload('a.txt', 'Hello', { target_lang: 'xx' }))).toEqual([
      400,
      "Value for 'target_lang' not supported.",
    ])
    expect(await message(await upload('a.txt', 'Hello', { target_lang: 'de', output_format: 'pdf' }))).toEqual([
      400,
      "Value for 'output_format' not supported.",
    ])
    expect(await message(await call('/v2/document', { form: { target_lang: 'de' } }))).toEqual([
      400,
      "Parameter 'file' not specified.",
    ])
    expect((await upload('big.txt', 'x'.repeat(12 * 1024 * 1024))).status).toBe(413)
  })

  it('downloads once (then 404), hides documents behind their key, and answers 503 before done', async () => {
    const { document_id: id, document_key: key } = (await (await upload('a.txt', 'Hello')).json()) as any
    expect(id).toMatch(/^[0-9A-F]{32}$/)
    expect(key).toMatch(/^[0-9A-F]{64}$/)
    expect((await call(`/v2/document/${id}`, { form: { document_key: 'F'.repeat(64) } })).status).toBe(404)
    expect((await call(`/v2/document/${id}`, { form: {} })).status).toBe(400)
    let status: any
    do status = await (await call(`/v2/document/${id}`, { json: { document_key: key } })).json()
    while (status.status !== 'done')
    expect(status).toEqual({ document_id: id, status: 'done', billed_characters: 5 })
    expect(await (await call(`/v2/document/${id}/result`, { form: { document_key: key } })).text()).toBe('Hallo')
    const again = await call(`/v2/document/${id}/result`, { form: { document_key: key } })
    expect([again.status, await again.json()]).toEqual([404, { message: 'Document not found' }])
    expect((await call(`/v2/document/${id}`, { form: { document_key: key } })).status).toBe(404)
  })
})

describe("the download's Content-Disposition", () => {
  /** Uploads `Hello` under the `filename` field `name` and downloads it: the Content-Disposition header. */
  async function dispositionFor(name: string): Promise<string> {
    const res = await upload('a.txt', 'Hello', { target_lang: 'de', filename: name })
    expect(res.status).toBe(200)
    const { document_id: id, document_key: key } = (await res.json()) as any
    let status: any
    do status = await (await call(`/v2/document/${id}`, { json: { document_key: key } })).json()
    while (status.status !== 'done')
    const result = await call(`/v2/document/${id}/result`, { form: { document_key: key } })
    expect(await result.text()).toBe('Hallo')
    return result.headers.get('content-disposition')!
  }

  it.each([
    ['a plain name, as a token', 'report.txt', 'attachment; filename=report.txt'],
    [
      'quotes and a backslash, escaped in a quoted string',
      'say "hi" \\ bye.txt',
      'attachment; filename="say \\"hi\\" \\\\ bye.txt"',
    ],
    [
      'a non-ASCII name, as RFC 5987 UTF-8 with an ASCII fallback',
      'résumé 日本.txt',
      'attachment; filename="r?sum? ??.txt"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9%20%E6%97%A5%E6%9C%AC.txt',
    ],
    [
      'CR LF and a quote, which cannot split the header',
      'x"\r\nSet-Cookie: a=b.txt',
      'attachment; filename="x\\"??Set-Cookie: a=b.txt"; filename*=UTF-8\'\'x%22%0D%0ASet-Cookie%3A%20a%3Db.txt',
    ],
  ])('names %s', async (_, name, expected) => {
    const header = await dispositionFor(name)
    expect(header).toBe(expected)
    const extended = /filename\*=UTF-8''(.*)$/.exec(header)?.[1]
    if (extended !== undefined) expect(decodeURIComponent(extended)).toBe(name)
  })
})

describe.each(storages)('document jobs on %s', (storage) => {
  it('run in the background one at a time (DOCUMENT_CONCURRENCY=1), answer 503 until done, and survive a restart', async () => {
    const phrases = new PhraseTableEngine()
    const slow = {
      name: 'slow',
      translate: async (r: EngineRequest) => (await new Promise((ok) => setTimeout(ok, 1000)), phrases.translate(r)),
    }
    let s = await startServer({ storage, engine: slow, env: { DOCUMENT_CONCURRENCY: '1' } })
    try {
      const send = async (content: string) => {
        const form = new FormData()
        form.append('target_lang', 'de')
        form.append('file', new Blob([content]), 'a.txt')
        return (await (await api(s)('/v2/document', { method: 'POST', body: form })).json()) as any
      }
      const first = await send('Hello')
      const second = await send('Good night')
      const statusOf = async (d: any) =>
        (await (
          await api(s)(`/v2/document/${d.document_id}`, { form: { document_key: d.document_key } })
        ).json()) as any
      expect((await statusOf(second)).status).toBe('queued')
      const early = await api(s)(`/v2/document/${second.document_id}/result`, {
        form: { document_key: second.document_key },
      })
      expect(early.status).toBe(503)
      s = await s.restart() // the running job finishes first; the queued one is picked up by the new process
      for (let i = 0; i < 100 && (await statusOf(second)).status !== 'done'; i++)
        await new Promise((r) => setTimeout(r, 50))
      expect((await statusOf(first)).status).toBe('done')
      expect((await statusOf(second)).status).toBe('done')
      const result = await api(s)(`/v2/document/${second.document_id}/result`, {
        form: { document_key: second.document_key },
      })
      expect(await result.text()).toBe('Gute Nacht')
    } finally {
      await s.close()
    }
  })
})
