/**
 * The analysis of declared answers: each member of a handler's return type becomes one `ResponseDecl` (status, body
 * schema or null, media type, headers by canonical name with their schema and whether they are required), and
 * `returns` stays the 200 JSON body.
 */
import { describe, expect, it } from 'vitest'
import { fixtureApp } from '../_apps.ts'

describe('HandlerTypes.responses', async () => {
  const app = await fixtureApp('returns')()
  const types = (className: string, name: string) =>
    [...app.table.handlers()].find((h) => h.className === className && h.name === name)!.types!

  it('reads a union of answers, each with its status, body, headers and media type', () => {
    expect(types('Glossaries', 'POST')).toMatchObject({
      returns: null,
      responses: [
        {
          status: 201,
          schema: { $ref: '#/$defs/Glossary' },
          headers: { Location: { schema: { type: 'string' }, required: true } },
        },
        { status: 409, schema: { $ref: '#/$defs/Problem' } },
      ],
    })
    const answers = types('Answers', 'GET').responses!
    expect(answers.map((d) => [d.status, d.mediaType ?? 'application/json', d.schema === null])).toEqual([
      [200, 'text/csv', false],
      [201, 'application/json', true],
      [202, 'application/json', false],
      [303, 'application/json', true],
      [404, 'text/html', false],
      [410, 'application/problem+json', false],
    ])
    expect(answers[2]!.headers).toEqual({ 'Retry-After': { schema: { type: 'number' }, required: true } })
    expect(answers[3]!.headers).toEqual({ Location: { schema: { type: 'string' }, required: true } })
    expect(types('Answers', 'GET').returns).toBeNull() // the 200 is text/csv: no JSON body for older readers
  })

  it('reads a plain member as the 200, which `returns` keeps', () => {
    const get = types('Glossaries', 'GET')
    expect(get.returns).toEqual({ $ref: '#/$defs/Glossary' })
    expect(get.responses).toEqual([
      { status: 200, schema: { $ref: '#/$defs/Glossary' } },
      { status: 404, schema: { $ref: '#/$defs/Problem' } },
    ])
  })

  it('gives a bodiless status no schema, and a header left optional required: false', () => {
    expect(types('Glossaries', 'DELETE').responses).toEqual([
      { status: 204, schema: null, headers: { ETag: { schema: { type: 'string' }, required: true } } },
    ])
    const either = types('Either', 'POST').responses!
    expect(either.map((d) => d.status)).toEqual([200, 201])
    expect(either[0]!.headers).toEqual({ ETag: { schema: { type: 'string' }, required: false } })
  })

  it('declares 204 for `| undefined` beside the answers (returning nothing answers 204)', () => {
    expect(types('Glossaries', 'PATCH').responses).toEqual([
      { status: 202, schema: expect.objectContaining({ type: 'object' }) },
      { status: 204, schema: null },
    ])
  })

  it('leaves out a status that is not a literal, with a warning', () => {
    const loose = types('Loose', 'GET')
    expect(loose.responses).toBeUndefined()
    expect(loose.warnings).toEqual([expect.stringMatching(/status of type number, not a number literal/)])
  })
})
