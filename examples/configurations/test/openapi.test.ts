/** GET /openapi.json: a valid OpenAPI 3.1 document of every route, served without a session. */
import { untypedFields } from '@routeless/example-kit/testing'
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningApi, SQLITE, startApi } from './harness.ts'

describe('GET /openapi.json', () => {
  let api: RunningApi
  let doc: any
  beforeAll(async () => {
    api = await startApi(SQLITE)
    const reply = await api.client().get('/openapi.json')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/)
    doc = reply.body
  })
  afterAll(() => api?.close())

  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(doc.openapi).toBe('3.1.0')
  })

  it('describes every parameter and body field with its type', () => {
    expect(untypedFields(doc)).toEqual([])
  })

  it('has every route of the README', () => {
    const operations = Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    )
    expect(operations.sort()).toEqual([
      'DELETE /configurations/{name}',
      'GET /configurations',
      'GET /configurations/{name}',
      'GET /healthz',
      'GET /openapi.json',
      'GET /readyz',
      'PATCH /configurations/{name}',
      'POST /configurations',
      'POST /login',
      'POST /logout',
    ])
  })

  it('describes the list query, the JSON bodies and the answers', () => {
    const list = doc.paths['/configurations'].get
    expect(list.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['sort', 'query', false],
      ['page', 'query', false],
      ['per_page', 'query', false],
      ['lastEventId', 'query', false], // the change feed's resume point (Accept: text/event-stream)
    ])
    expect(list.parameters[0].schema.enum).toContain('-port')
    expect(doc.paths['/configurations/{name}'].get.parameters.map((p: any) => p.name)).toEqual(['name'])
    const create = doc.paths['/configurations'].post
    expect(Object.keys(create.requestBody.content)).toEqual(['application/json'])
    expect(create.requestBody.content['application/json'].schema).toMatchObject({
      required: ['name', 'hostname', 'port', 'username'],
      additionalProperties: false,
    })
    expect(create.requestBody.content['application/json'].schema.properties.port).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 65535,
    })
    expect(create.responses['409'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Records' })
    expect(create.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Records' })
    expect(doc.components.schemas.Records.properties.configurations.type).toBe('array')
    expect(Object.keys(doc.components.schemas).sort()).toEqual([
      'Configuration',
      'Error',
      'ErrorEnvelope',
      'ReadinessReport',
      'Records',
    ])
    expect(Object.keys(doc.paths['/configurations/{name}'].delete.responses)).toContain('209')
    expect(doc.paths['/configurations/{name}'].patch.requestBody.required).toBe(false)
    expect(doc.components.schemas.Error.properties.errors.items.required).toEqual(['field', 'message'])
  })

  it('says which routes need the session', () => {
    expect(doc.security).toEqual([{ session: [] }, { token: [] }])
    expect(doc.paths['/login'].post.security).toEqual([])
    expect(doc.paths['/openapi.json'].get.security).toEqual([])
    expect(doc.paths['/logout'].post.security).toBeUndefined()
  })
})

describe('the error format', () => {
  it("gives a 400 of routeless's parameter binding the {field, message} shape of every other 400", async () => {
    const { ApiController } = await import('../src/api-controller.ts')
    const { HttpError } = await import('routeless')
    const error = new HttpError(400, 'Invalid parameters: a: is required; b: b is bad', {
      details: {
        errors: [
          { name: 'a', reason: 'is required', kind: 'missing' },
          { name: 'b', reason: 'b is bad', kind: 'invalid', own: true },
        ],
      },
    })
    const response = ApiController.renderError(error)!
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      status: 400,
      error: 'Bad Request',
      message: 'a is required; b is bad',
      errors: [
        { field: 'a', message: 'a is required' },
        { field: 'b', message: 'b is bad' },
      ],
    })
    expect(ApiController.renderError(new HttpError(404, 'No configuration is named "x"'))).toBeUndefined()
  })
})
