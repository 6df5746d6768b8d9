/**
 * `output_format` (the conversions a text engine can make: txt → html, html → txt, and a format's other spelling;
 * every other value 400) through deepl-node and over HTTP, and the status's `seconds_remaining`: an estimate from the
 * document's size and the pace of the documents translated before, sent while queued or translating, never when done
 * or failed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as deepl from 'deepl-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { htmlToText, textToHtml } from '../src/documents/conversions.ts'
import { DocumentPace, PRIOR_MS_PER_CHARACTER } from '../src/documents/document-pace.ts'
import type { EngineRequest } from '../src/engines/engine.ts'
import { PhraseTableEngine } from '../src/engines/phrase-table-engine.ts'
import { API_KEY, api, startServer, type TestServer } from './_server.ts'

const tmp = mkdtempSync(path.join(tmpdir(), 'translation-output-'))
let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.close()
  rmSync(tmp, { recursive: true, force: true })
})

function upload(s: TestServer, name: string, content: string, fields: Record<string, string> = {}) {
  const form = new FormData()
  for (const [k, v] of Object.entries({ target_lang: 'de', ...fields })) form.append(k, v)
  form.append('file', new Blob([content]), name)
  return api(s)('/v2/document', { method: 'POST', body: form })
}

const statusOf = async (s: TestServer, d: { document_id: string; document_key: string }) =>
  (await (await api(s)(`/v2/document/${d.document_id}`, { form: { document_key: d.document_key } })).json()) as any

/** Uploads, waits for done, downloads: the result's text, Content-Type and file name. */
async function translated(name: string, content: string, fields: Record<string, string> = {}) {
  const res = await upload(server, name, content, fields)
  expect(res.status).toBe(200)
  const document = (await res.json()) as any
  for (let i = 0; i < 200 && (await statusOf(server, document)).status !== 'done'; i++)
    await new Promise((r) => setTimeout(r, 20))
  const result = await api(server)(`/v2/document/${document.document_id}/result`, {
    form: { document_key: document.document_key },
  })
  expect(result.status).toBe(200)
  return {
    text: await result.text(),
    type: result.headers.get('content-type'),
    disposition: result.headers.get('content-disposition'),
  }
}

const HTML_OF_TEXT = [
  '<!DOCTYPE html>',
  '<html lang="de">',
  '<head>',
  '<meta charset="utf-8">',
  '<title>letter</title>',
  '</head>',
  '<body>',
  '<p>Guten Morgen, Freund!<br>',
  'Tom &amp; Jerry &lt;3 &quot;ok&quot;</p>',
  '<p>Danke</p>',
  '</body>',
  '</html>',
  '',
].join('\n')

describe('output_format', () => {
  it('deepl-node: a .txt delivered as .html is an HTML document (escaped, one <p> per paragraph, <br> per line)', async () => {
    const translator = new deepl.Translator(API_KEY, { serverUrl: server.url, maxRetries: 1 })
    const input = path.join(tmp, 'letter.txt')
    const output = path.join(tmp, 'letter.html')
    writeFileSync(input, 'Good morning, friend!\nTom & Jerry <3 "ok"\n\n\nThank you\n')
    const status = await translator.translateDocument(input, output, 'en', 'de', {
      extraRequestParameters: { output_format: 'html' },
    })
    expect(status.status).toBe('done')
    expect(readFileSync(output, 'utf8')).toBe(HTML_OF_TEXT)
  })

  it('txt → html over HTTP: text/html, the file renamed; HTML (or htm) → txt: the page text, text/plain', async () => {
    const page = await translated('letter.txt', 'Good morning, friend!\nTom & Jerry <3 "ok"\n\nThank you', {
      source_lang: 'en',
      output_format: 'HTML',
    })
    expect(page).toEqual({
      text: HTML_OF_TEXT,
      type: 'text/html; charset=utf-8',
      disposition: 'attachment; filename=letter.html',
    })
    const html =
      '<!DOCTYPE html><html><head><title>Welcome</title><style>p{color:red}</style></head><body><h1>Welcome</h1>' +
      '<p>Good morning, <b>friend</b>!<br>Good night</p><script>var s = "Hello"</script><ul><li>Thank you</li>' +
      '<li>Tom &amp; Jerry&nbsp;&lt;3</li></ul></body></html>'
    const expected = 'Willkommen\n\nGuten Morgen, Freund!\nGute Nacht\n\nDanke\nTom & Jerry\u00a0<3\n'
    for (const name of ['page.html', 'page.htm'])
      expect(await translated(name, html, { output_format: 'txt' })).toEqual({
        text: expected,
        type: 'text/plain; charset=utf-8',
        disposition: 'attachment; filename=page.txt',
      })
  })

  it("a format's other spelling (htm ↔ html, xlf ↔ xliff) or its own only renames; an empty value is the input's", async () => {
    const html = '<p>Good night</p>'
    expect(await translated('page.htm', html, { output_format: 'html' })).toEqual({
      text: '<p>Gute Nacht</p>',
      type: 'text/html; charset=utf-8',
      disposition: 'attachment; filename=page.html',
    })
    expect((await translated('a.txt', 'Good night', { output_format: 'txt' })).text).toBe('Gute Nacht')
    expect((await translated('a.txt', 'Good night', { output_format: '' })).disposition).toBe(
      'attachment; filename=a.txt',
    )
  })

  it("refuses every other conversion and unknown values with DeepL's 400 Value for 'output_format' not supported.", async () => {
    const refused: Array<[string, string, string]> = [
      ['a.txt', 'Hello', 'pdf'], // DeepL writes PDF; no engine here does
      ['a.txt', 'Hello', 'docx'],
      ['a.txt', 'Hello', 'srt'],
      ['a.txt', 'Hello', 'xlf'],
      ['page.html', '<p>Hello</p>', 'docx'],
      ['movie.srt', '1\n00:00:01,000 --> 00:00:02,000\nHello\n', 'txt'],
      ['a.txt', 'Hello', 'html5'],
      ['a.txt', 'Hello', '.html'],
      ['a.txt', 'Hello', 'jpg'],
    ]
    for (const [name, content, output_format] of refused) {
      const res = await upload(server, name, content, { output_format })
      expect([output_format, res.status, await res.json()]).toEqual([
        output_format,
        400,
        { message: "Value for 'output_format' not supported." },
      ])
    }
    const translator = new deepl.Translator(API_KEY, { serverUrl: server.url, maxRetries: 1 })
    writeFileSync(path.join(tmp, 'b.txt'), 'Hello')
    await expect(
      translator.translateDocument(path.join(tmp, 'b.txt'), path.join(tmp, 'b.pdf'), 'en', 'de', {
        extraRequestParameters: { output_format: 'pdf' },
      }),
    ).rejects.toThrow(/Value for 'output_format' not supported/)
  })
})

describe('the conversions themselves', () => {
  it('a text survives txt → html → txt paragraph for paragraph; an empty text is an empty body', () => {
    const text = 'First line & more\nsecond <line>\n\nSecond paragraph\n'
    expect(htmlToText(textToHtml(text, { targetLang: 'en-gb', title: 't' }))).toBe(text)
    expect(textToHtml('en-gb', { targetLang: 'en-gb', title: 't' })).toContain('<html lang="en-GB">')
    expect(textToHtml('\n\n', { targetLang: 'de', title: '<t>' })).toBe(
      '<!DOCTYPE html>\n<html lang="de">\n<head>\n<meta charset="utf-8">\n<title>&lt;t&gt;</title>\n</head>\n<body>\n</body>\n</html>\n',
    )
  })

  it('html → txt keeps <pre> as written, puts table cells apart by tabs and leaves comments and templates out', () => {
    const html =
      '<div>Name<!-- hidden --></div><table><tr><th>a</th><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>' +
      '<pre>  two  spaces\n kept</pre><template><p>never</p></template><p>  spaced   out  </p>'
    expect(htmlToText(html)).toBe('Name\n\na\tb\nc\td\n\n  two  spaces\n kept\n\nspaced out\n')
    expect(htmlToText('')).toBe('')
  })
})

describe('seconds_remaining', () => {
  it('is sent while queued or translating (a whole number ≥ 1, the queued estimate counting the work ahead), never done or failed', async () => {
    const phrases = new PhraseTableEngine()
    const slow = {
      name: 'slow',
      translate: async (r: EngineRequest) => (await new Promise((ok) => setTimeout(ok, 1500)), phrases.translate(r)),
    }
    const s = await startServer({ engine: slow, env: { DOCUMENT_CONCURRENCY: '1' } })
    try {
      const first = (await (await upload(s, 'a.txt', 'Good night\n'.repeat(50))).json()) as any
      const second = (await (await upload(s, 'b.txt', 'Good night\n'.repeat(50))).json()) as any
      let running = await statusOf(s, first)
      for (let i = 0; i < 200 && running.status === 'queued'; i++) running = await statusOf(s, first)
      const waiting = await statusOf(s, second) // DOCUMENT_CONCURRENCY=1: queued while the first translates
      expect(running).toEqual({
        document_id: first.document_id,
        status: 'translating',
        seconds_remaining: expect.any(Number),
      })
      expect(waiting).toEqual({
        document_id: second.document_id,
        status: 'queued',
        seconds_remaining: expect.any(Number),
      })
      expect(Number.isInteger(running.seconds_remaining) && running.seconds_remaining >= 1).toBe(true)
      expect(waiting.seconds_remaining).toBeGreaterThanOrEqual(running.seconds_remaining)
      let done = await statusOf(s, second)
      for (let i = 0; i < 200 && done.status !== 'done'; i++) {
        await new Promise((r) => setTimeout(r, 25))
        done = await statusOf(s, second)
      }
      expect(done).toEqual({ document_id: second.document_id, status: 'done', billed_characters: 500 })
      const same = (await (await upload(s, 'de.txt', 'Gute Nacht\nDanke\n')).json()) as any
      let failed = await statusOf(s, same)
      for (let i = 0; i < 200 && failed.status !== 'error'; i++) {
        await new Promise((r) => setTimeout(r, 25))
        failed = await statusOf(s, same)
      }
      expect(failed).toEqual({
        document_id: same.document_id,
        status: 'error',
        error_message: 'Source and target language are equal.',
        message: 'Source and target language are equal.',
      })
    } finally {
      await s.close()
    }
  })

  it("estimates from the document's characters and the pace of the documents done before (the prior without any)", async () => {
    const s = await startServer()
    try {
      const db = s.app.database.db
      const { key_id: owner } = await db.selectFrom('api_keys').select('key_id').executeTakeFirstOrThrow()
      let clock = Date.parse('2026-01-01T00:01:00Z')
      const pace = new DocumentPace(db, 2, () => new Date(clock))
      const row = (id: string, status: string, characters: number, created: string, extra: object = {}) => ({
        document_id: id.padEnd(32, '0'),
        key_hash: 'x',
        owner_key_id: owner,
        status,
        error_message: null,
        file_name: 'a.txt',
        format: 'txt',
        request: '{}',
        creation_time: `2026-01-01T00:00:${created}Z`,
        reserved_characters: characters,
        usage_period: null,
        usage_day: null,
        output_format: null,
        translation_started: null,
        translation_ms: null,
        ...extra,
      })
      const translating = row('A', 'translating', 2500, '10', { translation_started: '2026-01-01T00:00:59Z' })
      const queued = row('B', 'queued', 3000, '20')
      const earlier = row('C', 'queued', 1000, '05')
      await db.insertInto('documents').values([translating, queued, earlier]).execute()
      // No document done yet: the prior pace (1 ms a character). A: 2 500 ms less 1 000 translating → 2 s.
      expect(await pace.msPerCharacter()).toBe(PRIOR_MS_PER_CHARACTER)
      expect(await pace.secondsRemaining(translating)).toBe(2)
      // B: its 3 000 ms + the work ahead (A's 1 500 ms left, C's 1 000 ms) over 2 workers → 4.25 s → 5.
      expect(await pace.secondsRemaining(queued)).toBe(5)
      // One document done here: 1 000 characters in 4 000 ms → 4 ms a character.
      await db
        .insertInto('documents')
        .values(row('D', 'downloaded', 1000, '01', { translation_ms: 4000 }))
        .execute()
      pace.learnt()
      expect(await pace.msPerCharacter()).toBe(4)
      expect(await pace.secondsRemaining(translating)).toBe(9) // 10 000 − 1 000 ms
      expect(await pace.secondsRemaining(queued)).toBe(19) // 12 000 + (9 000 + 4 000) / 2 = 18 500 ms
      expect(await pace.secondsRemaining(earlier)).toBe(4) // its own 4 000 ms: A and B came after it
      clock += 60_000 // A far over its estimate: still not done, so "any moment now"
      expect(await pace.secondsRemaining(translating)).toBe(1)
      for (const status of ['done', 'error', 'downloaded'])
        expect(await pace.secondsRemaining({ ...queued, status })).toBeUndefined()
    } finally {
      await s.close()
    }
  })
})
