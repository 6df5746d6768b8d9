/**
 * The OpenAPI document's contract parts: per-status answers from the handlers' types, routeless's own answers where
 * they happen, security from the guards, bodies only where read, servers, words, tags, discriminators, examples, and
 * OpenAPI 3.2 (`query`, `itemSchema`). The answers come from the fixture's types (`Created<Thing> | Conflict<ThingProblem>` …);
 * a stream's are given by hand.
 */
import { Validator } from '@seriousme/openapi-schema-validator'
import { type Application, bearerAuth, describeGuard, generateOpenAPI } from 'routeless'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Handler } from '../../packages/routeless/src/runtime/routing/table.ts'
import { fixtureApp } from '../_apps.ts'

const handlerOf = (app: Application, path: string, method: string): Handler => {
  const h = [...app.table.handlers()].find((x) => x.path === path && x.method === method)
  if (!h) throw new Error(`no ${method} ${path}`)
  return h
}

async function valid(doc: unknown): Promise<void> {
  const result = await new Validator().validate(doc as any)
  expect(result.errors ?? []).toEqual([])
  expect(result.valid).toBe(true)
}

describe('OpenAPI: answers', () => {
  let app: Application
  beforeAll(async () => {
    app = await fixtureApp('openapi')()
  })

  it('documents each declared status with its headers and media types, and no body for 204', async () => {
    const doc = app.openapi() as any
    await valid(doc)
    const post = doc.paths['/things'].post.responses
    expect(post['201'].headers.Location).toEqual({ schema: { type: 'string' }, required: true })
    expect(post['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Thing' })
    expect(doc.components.schemas.Thing.required).toEqual(['id', 'name'])
    const problem = '#/components/schemas/ThingProblem'
    expect(doc.components.schemas.ThingProblem.required).toEqual(['title'])
    expect(post['409']).toEqual({
      description: 'Conflict',
      content: { 'application/json': { schema: { $ref: problem } } },
    })
    expect(post['200']).toBeUndefined()
    const del = doc.paths['/things/{id}'].delete.responses
    expect(del['204']).toEqual({ description: 'No Content' })
    expect(Object.keys(del['404'].content)).toEqual(['application/problem+json'])
    const get = doc.paths['/things/{id}'].get.responses
    expect(get['200'].content).toEqual({ 'application/octet-stream': {}, 'text/html': { schema: { type: 'string' } } })
    expect(get['404'].content['application/json'].schema.$ref).toBe(problem)
    expect(get['303'].headers.Location.required).toBe(true)
    expect(get['303'].content).toBeUndefined()
  })

  it("adds routeless's own answers only where they can happen, and 4XX only where the type does not list them", () => {
    const doc = app.openapi() as any
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses)
    // A declared handler: its answers, 400 (a bound body), 413/415 (a body is read), 5XX; no 4XX range.
    expect(statuses('/things', 'post')).toEqual(['201', '400', '409', '413', '415', '5XX'])
    // A string path part cannot be refused, and no body is read on GET; a number path part can be (400).
    expect(statuses('/things/{id}', 'get')).toEqual(['200', '303', '404', '5XX'])
    expect(statuses('/things/{id}', 'delete')).toEqual(['204', '400', '404', '413', '415', '5XX'])
    // Undeclared, nothing bound, nothing read: the return type as 200, and the ranges.
    expect(statuses('/', 'get')).toEqual(['200', '4XX', '5XX'])
    // A POST whose handler takes nothing: routeless still reads (and may refuse) the body, but publishes none.
    const post = doc.paths['/'].post
    expect(post.requestBody).toBeUndefined()
    expect(Object.keys(post.responses)).toEqual(['200', '400', '413', '415', '4XX', '5XX'])
    expect(doc.paths['/things'].post.requestBody.content['application/json'].schema.required).toEqual(['name'])
    expect(doc.paths['/things'].post.responses['415'].headers['Accept-Post'].required).toBe(true)
  })

  it('takes words from the JSDoc, tags from the module, discriminators from literal tags, examples from @example', () => {
    const doc = app.openapi() as any
    const list = doc.paths['/'].get
    expect(list.summary).toBe('Lists the shapes.')
    expect(list.description).toBe('Lists the shapes.\n\nEvery shape, circles and squares, told apart by `kind`.')
    expect(list.tags).toEqual(['index'])
    expect(doc.paths['/things'].post.tags).toEqual(['things'])
    expect(doc.tags).toEqual([{ name: 'feed' }, { name: 'index' }, { name: 'things' }])
    const union = list.responses['200'].content['application/json'].schema.items
    expect(union.discriminator).toEqual({
      propertyName: 'kind',
      mapping: { circle: '#/components/schemas/Circle', square: '#/components/schemas/Square' },
    })
    expect(doc.components.schemas.Circle.properties.radius.examples).toEqual([2.5])
  })

  it("uses the API's error body, per place when a function gives it", async () => {
    const doc = generateOpenAPI(app.table, {
      errorSchema: (site) =>
        site.path === '/things' && site.status === 415
          ? { schema: { type: 'string' }, mediaType: 'text/plain' }
          : site.status === 413
            ? { schema: null }
            : undefined,
    }) as any
    await valid(doc)
    const post = doc.paths['/things'].post.responses
    expect(post['415'].content).toEqual({ 'text/plain': { schema: { $ref: '#/components/schemas/Error2' } } })
    expect(post['413'].content).toBeUndefined()
    expect(post['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error')
    expect(doc.components.schemas.Error.required).toEqual(['status', 'error', 'message'])
  })

  it('has servers: the configured ones, the origin it is served from, else its own host', () => {
    expect(app.openapi().servers).toEqual([{ url: '/' }])
    expect(app.openapi({ origin: new Request('https://api.example.com:8443/openapi.json') }).servers).toEqual([
      { url: 'https://api.example.com:8443' },
    ])
    const servers = [{ url: 'https://x.example' }]
    expect(app.openapi({ servers, origin: 'https://y.example' }).servers).toEqual(servers)
  })

  it('OpenAPI 3.2: query operations and itemSchema of streamed answers; 3.1 leaves QUERY out', async () => {
    app.table.defs.Tick ??= { type: 'object', required: ['n'], properties: { n: { type: 'number' } } }
    handlerOf(app, '/feed', 'GET').types!.stream = {
      mediaType: 'text/event-stream',
      item: {
        anyOf: [
          {
            type: 'object',
            required: ['event', 'data'],
            properties: { event: { const: 'tick' }, data: { $ref: '#/$defs/Tick' } },
          },
          { type: 'object', required: ['data'], properties: { data: { type: 'string' } } },
        ],
      },
    }
    const v31 = app.openapi() as any
    await valid(v31)
    expect(v31.paths['/'].query).toBeUndefined()
    expect(v31.paths['/feed'].get.responses['200'].content['text/event-stream'].schema.type).toBe('string')
    const doc = app.openapi({ version: '3.2' }) as any
    expect(doc.openapi).toBe('3.2.0')
    await valid(doc)
    const query = doc.paths['/'].query
    expect(query.requestBody.content['application/json'].schema.properties.q).toEqual({
      type: 'string',
      examples: ['lamp'],
    })
    const sse = doc.paths['/feed'].get.responses['200'].content['text/event-stream'].itemSchema
    expect(sse.oneOf[0].properties.event).toEqual({ const: 'tick' })
    expect(sse.oneOf[0].properties.data).toEqual({
      type: 'string',
      contentMediaType: 'application/json',
      contentSchema: { $ref: '#/components/schemas/Tick' },
    })
    expect(sse.oneOf[1].properties).toMatchObject({ data: { type: 'string' }, event: { type: 'string' } })
    expect(sse.oneOf[1].required).toEqual(['data'])
    expect(doc.components.schemas.Tick).toBeDefined()
    const jsonl = doc.paths['/feed'].get.responses['200'].content['application/jsonl'].itemSchema
    expect(jsonl.anyOf[0].properties.data).toEqual({ $ref: '#/components/schemas/Tick' }) // a line: the whole event
  })
})

describe('OpenAPI: security from the guards', () => {
  let doc: any
  beforeAll(async () => {
    const app = await fixtureApp('features')()
    doc = app.openapi({ securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'x-api-key' } } })
    await valid(doc)
  })

  it('publishes the scheme each guard checks, and the statuses it refuses with', () => {
    expect(doc.components.securitySchemes).toEqual({
      key: { type: 'apiKey', in: 'header', name: 'x-api-key' }, // the configured name, for the same scheme
      basicAuth: { type: 'http', scheme: 'basic' },
      bearerAuth: { type: 'http', scheme: 'bearer' },
    })
    const basic = doc.paths['/basic'].get
    expect(basic.security).toEqual([{ basicAuth: [] }])
    expect(basic.responses['401'].headers['WWW-Authenticate'].required).toBe(true)
    expect(basic.responses['403']).toBeUndefined()
    // `status: 403` and no challenge.
    const keyed = doc.paths['/keyed'].get
    expect(keyed.security).toEqual([{ key: [] }])
    expect(Object.keys(keyed.responses)).toEqual(['200', '403', '4XX', '5XX'])
    // With `authorize`, a valid token may still be refused.
    expect(doc.paths['/private'].delete.security).toEqual([{ bearerAuth: [] }])
    expect(Object.keys(doc.paths['/private'].delete.responses)).toContain('403')
    // `check()` names no credentials (none are published); `rateLimit` answers 429 with Retry-After.
    expect(doc.paths['/keyed/who'].get.security).toEqual([])
    expect(Object.keys(doc.paths['/keyed/who'].get.responses)).toEqual(['200', '403', '4XX', '5XX'])
    const limited = doc.paths['/limited'].get.responses
    expect(limited['429'].headers['Retry-After'].schema.type).toBe('integer')
    expect(limited['200'].headers['RateLimit-Remaining']).toEqual({ schema: { type: 'integer', minimum: 0 } })
    expect(doc.paths['/mixed'].get.responses['401']).toBeUndefined()
  })

  it('gives unguarded operations `security: []` under a top-level requirement; an undescribed guard keeps it', async () => {
    const app = await fixtureApp('features')()
    const custom = handlerOf(app, '/mixed', 'GET')
    custom.guards = [() => {}]
    const top = app.openapi({ security: [{ key: [] }], securitySchemes: { key: { type: 'http', scheme: 'bearer' } } })
    const paths = (top as any).paths
    expect(paths['/'].get.security).toEqual([])
    expect(paths['/mixed'].get.security).toBeUndefined()
    expect(Object.keys(paths['/mixed'].get.responses)).toEqual(['200', '401', '403', '4XX', '5XX'])
    // `bearerAuth` is published under the configured name of the same scheme.
    expect(paths['/private'].get.security).toEqual([{ key: [] }])
    // A guard of one's own says what it checks.
    custom.guards = [
      describeGuard(() => {}, {
        security: [
          { name: 'session', scheme: { type: 'apiKey', in: 'cookie', name: 'sid' } },
          { scheme: { type: 'http', scheme: 'bearer' } },
        ],
        refuses: [403],
      }),
      bearerAuth({ header: 'X-Second', verify: () => true }),
    ]
    const both = app.openapi({ securitySchemes: { key: { type: 'http', scheme: 'bearer' } } }) as any
    expect(both.paths['/mixed'].get.security).toEqual([
      { session: [], xSecond: [] },
      { key: [], xSecond: [] },
    ])
    expect(both.components.securitySchemes.xSecond).toEqual({ type: 'apiKey', in: 'header', name: 'X-Second' })
    await valid(both)
  })
})
