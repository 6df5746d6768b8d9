import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { describeTargets } from '../_targets.ts'
import { fixtureApp } from '../_apps.ts'

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
})

describeTargets('Parameter schemas', fixtureApp('schemas'), (t) => {
  it('binds and converts keyword arguments by name, with defaults', async () => {
    expect(await (await t().request('/items')).json()).toEqual({ sort: 'name' })
    expect(await (await t().request('/items?sort=port&page=2&active=yes')).json()).toEqual({
      sort: 'port',
      page: 2,
      active: true,
    })
  })
  it('splits comma lists, accepts repeated keys and the ids[] alias', async () => {
    expect((await (await t().request('/items?ids=1,2,3')).json()).ids).toEqual([1, 2, 3])
    expect((await (await t().request('/items?ids=1&ids=2')).json()).ids).toEqual([1, 2])
    expect((await (await t().request('/items?ids[]=4&ids[]=5,6')).json()).ids).toEqual([4, 5, 6])
  })
  it('answers 400 listing every failing parameter with its name and reason', async () => {
    const res = await t().request('/items?sort=nope&page=-1&ids=1,x&active=maybe')
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.status).toBe(400)
    expect(body.message).toMatch(/^Invalid parameters: /)
    expect(body.errors.map((e: { name: string }) => e.name).sort()).toEqual(['active', 'ids.1', 'page', 'sort'])
    for (const e of body.errors) expect(typeof e.reason).toBe('string')
  })
  it('validates JSON bodies, rejecting unknown fields when the schema is strict', async () => {
    const ok = await t().request('/items', json({ name: 'web', port: 8080 }))
    expect(ok.status).toBe(201)
    expect(await ok.json()).toEqual({ name: 'web', port: 8080 })
    const bad = await (await t().request('/items', json({ name: '', port: 70000, extra: 1 }))).json()
    expect(bad.errors.map((e: { name: string }) => e.name).sort()).toEqual(['(keyword arguments)', 'name', 'port'])
    const missing = await (await t().request('/items', json({}))).json()
    expect(missing.errors.map((e: { name: string }) => e.name).sort()).toEqual(['name', 'port'])
  })
  it('converts form fields by the schema types', async () => {
    const res = await t().request('/items', {
      method: 'POST',
      body: 'name=web&port=8080',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(await res.json()).toEqual({ name: 'web', port: 8080 })
  })
  it('validates positional arguments, naming them', async () => {
    expect(await (await t().request('/item/12?verbose=1')).json()).toEqual({ id: 12, idType: 'number', verbose: true })
    const res = await t().request('/item/abc')
    expect(res.status).toBe(400)
    expect((await res.json()).errors).toEqual([{ name: 'id', reason: expect.any(String) }])
  })
})

describe('OpenAPI', () => {
  it('generates a valid OpenAPI 3.1 document from the controller tree', async () => {
    const app = await fixtureApp(['schemas', 'tree'])()
    const doc = app.openapi({ info: { title: 'fixtures', version: '1.0.0' } }) as any
    const validator = new Validator()
    const result = await validator.validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(doc.openapi).toBe('3.1.0')
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/items',
        '/item/{id}',
        '/users',
        '/users/{id}',
        '/users/posts/{postId}',
        '/v3/status/{jobId}',
      ]),
    )
    const list = doc.paths['/items'].get
    expect(list.summary).toBe('List items')
    expect(list.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['sort', 'query', false],
      ['page', 'query', false],
      ['ids', 'query', false],
      ['active', 'query', false],
    ])
    expect(doc.paths['/items'].post.requestBody.content['application/json'].schema.required).toEqual(['name', 'port'])
    expect(doc.paths['/items'].post.responses['201'].content['application/json'].schema.properties.port.type).toBe(
      'number',
    )
    expect(doc.paths['/item/{id}'].get.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'integer' },
    })
  })
  it("takes the API's own error schema and security schemes, and ranges such as 4XX", async () => {
    const app = await fixtureApp(['schemas'])()
    const doc = app.openapi({
      info: { title: 'custom', version: '1' },
      errorSchema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
      security: [{ key: [] }],
    }) as any
    const result = await new Validator().validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(doc.components.schemas.Error.required).toEqual(['message'])
    expect(doc.components.securitySchemes.key.name).toBe('X-Api-Key')
    expect(doc.security).toEqual([{ key: [] }])
    expect(doc.paths['/items'].post.responses['409']).toEqual({ description: 'Name taken' })
    expect(doc.paths['/items'].post.responses['4XX'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/Error',
    )
  })

  it('says which form fields are sent as JSON text (@json) with the body encoding, and keeps routeless keywords out', async () => {
    const app = await fixtureApp(['typed'])()
    const doc = app.openapi({ info: { title: 'typed', version: '1.0.0' } }) as any
    expect((await new Validator().validate(doc)).valid).toBe(true)
    const content = doc.paths['/screenings'].post.requestBody.content
    expect(content['application/x-www-form-urlencoded'].encoding).toEqual({
      countries: { contentType: 'application/json' },
    })
    expect(content['application/json'].encoding).toBeUndefined()
    const schema = content['application/json'].schema
    expect(schema.properties.countries).toMatchObject({
      type: 'array',
      minItems: 1,
      items: { type: 'string', pattern: '^[A-Z]{2}$' },
    })
    expect(JSON.stringify(doc)).not.toMatch(/x-json|x-js"|errorMessage/)
  })
})
