/** The routeless features this API configures: its OpenAPI document, CORS for browser clients, schema 400s. */
import { untypedFields } from '@routeless/example-kit/testing'
import { Validator } from '@seriousme/openapi-schema-validator'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_KEY, api, startServer, type TestServer } from './_server.ts'

let server: TestServer

/** DeepL's official OpenAPI file, from `../shared/specs/` beside the repository root (never copied into it). */
const DEEPL = fileURLToPath(new URL('../../../../shared/specs/openapi/deepl-openapi.yaml', import.meta.url))
const deeplPresent = existsSync(DEEPL)
if (!deeplPresent)
  console.warn(`\n!!! DeepL's OpenAPI is absent at ${DEEPL}: the document's paths are NOT checked against it.\n`)

/** `METHOD /path` of each operation, parameter names left out (`/v3/glossaries/{}`): only the literal segments must match. */
function operationsOf(paths: Record<string, Record<string, unknown>>): string[] {
  const verbs = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'])
  return Object.entries(paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => verbs.has(m))
      .map((m) => `${m.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`),
  )
}

beforeAll(async () => {
  server = await startServer({
    env: { CORS_ORIGINS: 'https://app.example, https://other.example', RATE_LIMIT_REQUESTS: '1000' },
  })
})
afterAll(() => server.close())

describe('GET /openapi.json', () => {
  it.skipIf(!deeplPresent)(
    deeplPresent
      ? "carries every operation of DeepL's official OpenAPI, spelt as DeepL spells it"
      : `SKIPPED: DeepL's OpenAPI is absent at ${DEEPL}`,
    async () => {
      const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as any
      const ours = new Set(operationsOf(doc.paths))
      const deepl = operationsOf(parse(readFileSync(DEEPL, 'utf8')).paths)
      expect(deepl.length).toBeGreaterThanOrEqual(48)
      expect(deepl.filter((op) => !ours.has(op))).toEqual([])
      // No path of ours is a dashed spelling of DeepL's underscore one (`/v3/style-rules` for `/v3/style_rules`).
      const dashed = deepl.filter((op) => op.includes('_')).map((op) => op.replaceAll('_', '-'))
      expect(dashed.filter((op) => ours.has(op))).toEqual([])
    },
  )

  it('serves a valid OpenAPI 3.1 document, without a key, with DeepL auth and error shapes', async () => {
    const res = await fetch(`${server.url}/openapi.json`)
    expect(res.status).toBe(200)
    const doc = (await res.json()) as any
    const result = await new Validator().validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(doc.openapi).toBe('3.1.0')
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v2/translate',
        '/v2/usage',
        '/v2/languages',
        '/v2/admin/developer-keys',
        '/v2/admin/analytics',
        '/v2/admin/analytics/custom-tags',
      ]),
    )
    const analytics = doc.paths['/v2/admin/analytics'].get
    expect(analytics.parameters.map((p: any) => [p.name, p.required])).toEqual([
      ['group_by', false],
      ['start_date', true],
      ['end_date', true],
    ])
    expect(
      doc.paths['/v2/admin/developer-keys/limits'].put.requestBody.content['application/json'].schema.required,
    ).toEqual(['key_id'])
    expect(doc.components.schemas.Error.required).toEqual(['message'])
    expect(doc.components.securitySchemes.auth_header).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    })
    expect(untypedFields(doc)).toEqual([]) // every parameter and body field described by its handler's type
  })
})

describe('parameter schemas', () => {
  it("answer one 400 in DeepL's words for the first bad parameter", async () => {
    const admin = api(server, ADMIN_KEY)
    const res = await admin('/v2/admin/analytics/custom-tags?start_date=2025-01-01&end_date=2025-01-02&page=-1')
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ message: "Value for 'page' not supported." })
    const both = await admin('/v2/admin/analytics?group_by=week')
    expect(await both.json()).toEqual({
      message: "Value for 'group_by' not supported. Allowed: '', 'key', 'key_and_day'.",
    })
    const form = await admin('/v2/admin/developer-keys', { form: { label: 'From a form' } })
    const created = (await form.json()) as any
    const limits = await admin('/v2/admin/developer-keys/limits', {
      method: 'PUT',
      form: { key_id: created.key_id, characters: '500', speech_to_text_milliseconds: 'null' },
    })
    expect(((await limits.json()) as any).usage_limits).toEqual({ characters: 500, speech_to_text_milliseconds: null })
    const type = await api(server)('/v2/languages?type=both')
    expect(await type.json()).toEqual({
      message: "Parameter 'type' is invalid. 'source' and 'target' are valid values.",
    })
  })

  it('sends RateLimit headers on answers of a limited key', async () => {
    const res = await api(server)('/v2/usage')
    expect(res.headers.get('ratelimit-limit')).toBe('1000')
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeLessThan(1000)
  })
})

describe('CORS (CORS_ORIGINS)', () => {
  it('answers a preflight from an allowed origin with methods, the asked headers and Max-Age', async () => {
    const res = await fetch(`${server.url}/v2/translate`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(res.headers.get('access-control-allow-methods')).toContain('POST')
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization/)
    expect(res.headers.get('access-control-max-age')).toBe('600')
    expect(res.headers.get('vary')).toMatch(/Origin/)
  })

  it('marks a simple request from an allowed origin, exposing X-Trace-ID; other origins get no CORS headers', async () => {
    const ok = await api(server)('/v2/translate', {
      form: { text: 'Hello', target_lang: 'de' },
      headers: { Origin: 'https://other.example' },
    })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://other.example')
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/X-Trace-ID/)
    const denied = await api(server)('/v2/usage', { headers: { Origin: 'https://evil.example' } })
    expect(denied.status).toBe(200)
    expect(denied.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await fetch(`${server.url}/v2/usage`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
  })
})
