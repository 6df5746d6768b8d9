/** Every path `routeless routes` lists is routed, sub-resources included, and their bad inputs answer in DeepL's format. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, type Application } from 'routeless'
import { listedRequests, routedTo } from '@routeless/example-kit/testing'
import { CONTROLLERS } from '../src/app.ts'
import { api, startServer, type TestServer } from './_server.ts'

let server: TestServer
let call: ReturnType<typeof api>
/** The served controllers' route table (the server's own, built the same way). */
let routes: Application
beforeAll(async () => {
  server = await startServer()
  call = api(server)
  routes = await createApp(CONTROLLERS, { context: server.app.services })
})
afterAll(() => server.close())

describe('the route table', () => {
  it('lists each sub-resource as its own row', () => {
    const rows = routes.table.list().map((r) => `${r.method} ${r.path}`)
    expect(rows).toEqual(
      expect.arrayContaining([
        'GET /v2/glossaries/{id}/entries',
        'GET /v3/glossaries/{id}/entries',
        'PUT /v3/glossaries/{id}/dictionaries',
        'DELETE /v3/glossaries/{id}/dictionaries',
        'POST /v2/document/{id}/result',
        'GET /v3/translation_memories/{id}/segments',
        'POST /v3/translation_memories/{id}/segments',
        'PUT /v3/style_rules/{id}/configured_rules',
        'GET /v3/style_rules/{id}/custom_instructions/{instructionId}',
      ]),
    )
    // DeepL's spelling, as the files and methods are written: the dashed alias is never listed.
    expect(rows.filter((r) => /style-rules|translation-memories|configured-rules|custom-instructions/.test(r))).toEqual(
      [],
    )
  })

  it('routes every listed row to its handler, and none answers the framework 404 or 405', async () => {
    const listed = listedRequests(routes)
    expect(listed.length).toBeGreaterThan(30)
    for (const r of listed) {
      expect(routedTo(routes, r.method, r.path), `${r.method} ${r.path}`).toBe(r.handler)
      const res = await call(r.path, { method: r.method })
      const text = await res.text()
      expect(text, `${r.method} ${r.path}`).not.toMatch(/No controller answers|is not allowed on/)
    }
  })
})

describe('sub-resource bad input', () => {
  it('answers 404 in DeepL format for a sub-resource that does not exist', async () => {
    const created = await call('/v3/glossaries', {
      json: {
        name: 'g',
        dictionaries: [{ source_lang: 'en', target_lang: 'de', entries: 'a\tb', entries_format: 'tsv' }],
      },
    })
    expect(created.status).toBe(201)
    const { glossary_id: id } = await created.json()
    const res = await call(`/v3/glossaries/${id}/nope`)
    expect(res.status).toBe(404)
    expect(Object.keys(await res.json())).toEqual(['message'])
    // DeepL's underscore spelling and the listed kebab spelling answer alike.
    expect((await call(`/v3/glossaries/${id}/entries?source_lang=en&target_lang=de`)).status).toBe(200)
  })

  it("answers 405 with the sub-resource's own Allow for a method it lacks", async () => {
    const res = await call('/v3/glossaries/some-id/entries', { method: 'POST' })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(Object.keys(await res.json())).toEqual(['message'])
    const rules = await call('/v3/style_rules/some-id/configured_rules', { method: 'GET' })
    expect(rules.status).toBe(405)
    expect(rules.headers.get('allow')).toBe('PUT, OPTIONS')
  })
})
