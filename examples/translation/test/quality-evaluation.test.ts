/** The deterministic quality evaluator (each check, spans in code points) and /v1/quality-evaluation over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { evaluate } from '../src/quality/evaluator.ts'
import { postgresAvailable } from '@routeless/example-kit/testing'
import { ADMIN_KEY, api, startServer, type Storage, type TestServer } from './_server.ts'

const one = (
  source: string,
  target: string,
  languages: [string, string] = ['en', 'de'],
  glossary?: Map<string, string>,
) =>
  evaluate({ sourceLanguage: languages[0], targetLanguage: languages[1], segments: [{ source, target }], glossary })
    .segments[0]!.errors

describe('evaluator', () => {
  it('finds nothing in a faithful translation, and scores it 100', () => {
    const report = evaluate({
      sourceLanguage: 'en',
      targetLanguage: 'de',
      segments: [
        { source: 'Our Q3 revenue came in 5% above forecast.', target: 'Unser Q3-Umsatz lag 5 % über der Prognose.' },
      ],
    })
    expect(report).toEqual({
      segments: [{ segment_index: 0, errors: [] }],
      summary: { overall_score: 100, granular_counts: {} },
    })
  })

  it('flags empty and untranslated targets', () => {
    expect(one('Please share these results.', '')).toEqual([
      expect.objectContaining({
        type: 'Accuracy',
        sub_type: 'Omission',
        severity: 'Critical',
        source_spans: [{ start: 0, end: 27 }],
        target_spans: [],
      }),
    ])
    expect(one('Please share these results.', 'Please share these results.')).toContainEqual(
      expect.objectContaining({
        sub_type: 'Untranslated text',
        severity: 'Major',
        target_spans: [{ start: 0, end: 27 }],
      }),
    )
    expect(one('OK', 'OK')).toEqual([])
  })

  it('compares numbers by their digits, whatever the separators', () => {
    expect(one('It costs 1,234.50 euros.', 'Es kostet 1.234,50 Euro.')).toEqual([])
    const changed = one('We met on 12 May with 40 people.', 'Wir trafen uns am 13. Mai mit 40 Leuten.')
    expect(changed).toEqual([
      expect.objectContaining({
        sub_type: 'Mistranslation',
        severity: 'Major',
        source_spans: [{ start: 10, end: 12 }],
        target_spans: [{ start: 18, end: 20 }],
      }),
    ])
    const missing = one('Order 3 boxes by Friday.', 'Bestellen Sie Kisten bis Freitag.')
    expect(missing).toEqual([expect.objectContaining({ sub_type: 'Omission', source_spans: [{ start: 6, end: 7 }] })])
    expect(one('Order boxes now.', 'Bestellen Sie 7 Kisten jetzt.')).toEqual([
      expect.objectContaining({ sub_type: 'Addition', severity: 'Minor', target_spans: [{ start: 14, end: 15 }] }),
    ])
  })

  it('requires every placeholder, unchanged', () => {
    const issues = one('Hello {name}, you have %d new messages.', 'Hallo {Name}, Sie haben %d neue Nachrichten.')
    expect(issues.map((i) => [i.sub_type, i.severity, i.source_spans, i.target_spans])).toEqual([
      ['Omission', 'Critical', [{ start: 6, end: 12 }], []],
      ['Addition', 'Critical', [], [{ start: 6, end: 12 }]],
    ])
  })

  it('compares tags by name and kind, and their nesting', () => {
    expect(one('Press <b>Save</b> now.', 'Drücken Sie jetzt <b>Speichern</b>.')).toEqual([])
    expect(one('Press <b>Save</b> now.', 'Drücken Sie jetzt Speichern.').map((i) => i.explanation)).toEqual([
      "The tag '<b>' of the source is missing from the target.",
      "The tag '</b>' of the source is missing from the target.",
    ])
    expect(one('<i>a</i> <b>b</b> text here', '<i>a <b>b</i></b> Text hier')).toEqual([
      expect.objectContaining({ type: 'Fluency', sub_type: 'Inconsistency' }),
    ])
  })

  it('checks glossary terms, punctuation, whitespace and encoding, with spans in code points', () => {
    const glossary = new Map([['invoice', 'Rechnung']])
    expect(one('Send the invoice today.', 'Senden Sie die Faktura heute.', ['en', 'de'], glossary)).toEqual([
      expect.objectContaining({ type: 'Style', sub_type: 'Inconsistent style', source_spans: [{ start: 9, end: 16 }] }),
    ])
    expect(one('Send the invoice today.', 'Senden Sie die Rechnung heute.', ['en', 'de'], glossary)).toEqual([])
    expect(one('Is it done?', 'Ist es fertig.')).toEqual([
      expect.objectContaining({
        sub_type: 'Punctuation',
        source_spans: [{ start: 10, end: 11 }],
        target_spans: [{ start: 13, end: 14 }],
      }),
    ])
    expect(one('Done.', '完了。', ['en', 'ja'])).toEqual([])
    expect(one('It works well.', 'Es  funktioniert gut.')).toEqual([
      expect.objectContaining({ sub_type: 'Punctuation', target_spans: [{ start: 2, end: 4 }] }),
    ])
    // 😀 is one code point (two UTF-16 units): the span after it counts it once.
    expect(one('😀 Café is open.', '😀 CafÃ© ist geöffnet.')).toEqual([
      expect.objectContaining({ sub_type: 'Character encoding', target_spans: [{ start: 5, end: 7 }] }),
    ])
  })

  it('flags suspicious length ratios for the language pair', () => {
    const long = 'The committee approved the annual budget after a long discussion.'
    expect(one(long, 'Genehmigt.')).toEqual([expect.objectContaining({ sub_type: 'Omission', severity: 'Major' })])
    expect(one(long, '委員会は長い議論の末、年間予算を承認した。', ['en', 'ja'])).toEqual([])
  })

  it('counts by type, sub-type and severity, and scores by penalty per source word', () => {
    const report = evaluate({
      sourceLanguage: 'en',
      targetLanguage: 'de',
      segments: [
        { source: 'Our Q3 revenue came in 5% above forecast.', target: 'Unser Q3-Umsatz lag 6 % über der Prognose.' },
        {
          source: 'Please share these results with your teams by Friday',
          target: 'Bitte teilen Sie diese Ergebnisse mit Ihrem Team bis Freitag.',
        },
      ],
    })
    expect(report.summary.granular_counts).toEqual({
      Accuracy: { Mistranslation: { Major: 1 } },
      Fluency: { Punctuation: { Minor: 1 } },
    })
    expect(report.summary.overall_score).toBe(Math.round(100 * (1 - 6 / 17)))
  })
})

const storages: Storage[] = ['sqlite', ...((await postgresAvailable()) ? (['postgres'] as const) : [])]
for (const storage of storages)
  describe(`/v1/quality-evaluation [${storage}]`, () => {
    let server: TestServer
    let call: ReturnType<typeof api>
    beforeAll(async () => {
      server = await startServer({ storage })
      call = api(server)
    })
    afterAll(() => server.close())
    const json = async (res: Response) => ({
      status: res.status,
      headers: res.headers,
      body: (await res.json()) as any,
    })

    it('accepts a job (202 with poll_url) and answers its report', async () => {
      const created = await json(
        await call('/v1/quality-evaluation', {
          json: {
            metadata: { source_language: 'en', target_language: 'de' },
            segments: [
              {
                source: 'Our Q3 revenue came in 5% above forecast.',
                target: 'Unser Q3-Umsatz lag 6 % unter der Prognose.',
              },
            ],
          },
        }),
      )
      expect(created.status).toBe(202)
      expect(created.headers.get('retry-after')).toBe('0')
      expect(created.body.poll_url).toBe(`/v1/quality-evaluation/${created.body.job_id}`)
      const polled = await json(await call(created.body.poll_url))
      expect(polled.status).toBe(200)
      expect(polled.body).toMatchObject({
        job_id: created.body.job_id,
        status: 'done',
        segments: [
          {
            segment_index: 0,
            errors: [
              {
                type: 'Accuracy',
                sub_type: 'Mistranslation',
                severity: 'Major',
                source_spans: [{ start: 23, end: 24 }],
                target_spans: [{ start: 20, end: 21 }],
              },
            ],
          },
        ],
        summary: { granular_counts: { Accuracy: { Mistranslation: { Major: 1 } } } },
      })
    })

    it('uses a glossary of the key (this server addition)', async () => {
      const g = await json(
        await call('/v3/glossaries', {
          json: {
            name: 'qa',
            dictionaries: [
              { source_lang: 'en', target_lang: 'de', entries: 'invoice\tRechnung', entries_format: 'tsv' },
            ],
          },
        }),
      )
      const created = await json(
        await call('/v1/quality-evaluation', {
          json: {
            metadata: { source_language: 'EN', target_language: 'DE', glossary_id: g.body.glossary_id },
            segments: [{ source: 'Send the invoice.', target: 'Senden Sie die Faktura.' }],
          },
        }),
      )
      const polled = await json(await call(created.body.poll_url))
      expect(polled.body.segments[0].errors).toEqual([expect.objectContaining({ sub_type: 'Inconsistent style' })])
      const missing = await call('/v1/quality-evaluation', {
        json: {
          metadata: {
            source_language: 'en',
            target_language: 'de',
            glossary_id: '00000000-0000-4000-8000-000000000000',
          },
          segments: [{ source: 'a', target: 'b' }],
        },
      })
      expect(missing.status).toBe(404)
    })

    it('refuses bad requests, bad ids, other keys’ jobs and expired jobs', async () => {
      const post = async (body: unknown) => (await call('/v1/quality-evaluation', { json: body })).status
      const segment = { source: 'Hello', target: 'Hallo' }
      expect(await post({ segments: [segment] })).toBe(400)
      expect(await post({ metadata: { source_language: 'en', target_language: 'de' }, segments: [] })).toBe(400)
      expect(
        await post({ metadata: { source_language: 'en', target_language: 'de' }, segments: Array(501).fill(segment) }),
      ).toBe(400)
      expect(
        await post({
          metadata: { source_language: 'en', target_language: 'de' },
          segments: [{ source: 'x'.repeat(10_001), target: 'y' }],
        }),
      ).toBe(400)
      expect(
        await post({ metadata: { source_language: 'en', target_language: 'de' }, segments: [{ source: 'x' }] }),
      ).toBe(400)
      expect(
        await post({ metadata: { source_language: 'en', target_language: 'de' }, segments: [{ ...segment, note: 1 }] }),
      ).toBe(400)
      const pair = await json(
        await call('/v1/quality-evaluation', {
          json: { metadata: { source_language: 'en', target_language: 'en-GB' }, segments: [segment] },
        }),
      )
      expect(pair).toMatchObject({
        status: 400,
        body: { message: 'The source_language / target_language combination is not supported.' },
      })
      expect(await post({ metadata: { source_language: 'xx', target_language: 'de' }, segments: [segment] })).toBe(400)
      expect(await json(await call('/v1/quality-evaluation/not-a-uuid'))).toMatchObject({
        status: 400,
        body: { message: 'job_id must be a valid UUID.' },
      })
      expect(await json(await call('/v1/quality-evaluation/00000000-0000-4000-8000-000000000000'))).toMatchObject({
        status: 404,
        body: { message: 'Quality estimation job not found.' },
      })
      const created = await json(
        await call('/v1/quality-evaluation', {
          json: { metadata: { source_language: 'en', target_language: 'de' }, segments: [segment] },
        }),
      )
      expect((await api(server, '')(created.body.poll_url)).status).toBe(403)
      const other = await json(await api(server, ADMIN_KEY)('/v2/admin/developer-keys', { json: { label: 'other' } }))
      expect((await api(server, other.body.key)(created.body.poll_url)).status).toBe(404)
      expect((await call(created.body.poll_url)).status).toBe(200)
      await server.app.database.db
        .updateTable('quality_evaluations')
        .set({ finished_at: new Date(Date.now() - 25 * 3600_000).toISOString() })
        .where('job_id', '=', created.body.job_id)
        .execute()
      expect((await call(created.body.poll_url)).status).toBe(404)
    })
  })
