/**
 * `readBody(incoming, options, next, failed)`, the form a handler's generated code reads with: the same as
 * `readBody(incoming, options).then(next, failed)` — the body to `next`, every failure to `failed`, never both, never
 * a throw or a rejection — with no promise of the decoded body between, and at once when there is no body.
 */
import { describe, expect, it } from 'vitest'
import { HttpError } from 'routeless'
import { readBody, type ParsedBody } from '../../packages/routeless/src/runtime/lifecycle/body.ts'
import type { IncomingRequest } from '../../packages/routeless/src/runtime/lifecycle/request.ts'

/** A POST as an adapter hands it over: its headers as given, its body `text` (null: none), or a read that fails. */
function incoming(text: string | null | Error, headers: Record<string, string>): IncomingRequest {
  const body = () => {
    if (text === null) return null
    if (typeof text === 'string') return new Response(text).body
    return new ReadableStream<Uint8Array>({ pull: (c) => c.error(text) })
  }
  return {
    method: 'POST',
    target: '/',
    header: (name) => headers[name] ?? null,
    body,
    request: () => {
      throw new Error('not used')
    },
    url: () => new URL('http://x/'),
  }
}

const JSON_TYPE = { 'content-type': 'application/json' }

/** What the continuation made of the body, or of the failure. */
type Outcome = { parsed?: ParsedBody; error?: HttpError }

/** Reads with a continuation, recording which of `next` and `failed` ran and whether the answer came at once. */
function read(request: IncomingRequest, limit = 100) {
  const seen: string[] = []
  const result = readBody<Outcome>(
    request,
    { limit },
    (parsed: ParsedBody) => {
      seen.push('next')
      return { parsed }
    },
    (error: unknown) => {
      seen.push('failed')
      return { error: error as HttpError }
    },
  )
  return { seen, result, now: !(result instanceof Promise) }
}

describe('readBody with a continuation', () => {
  it('gives the decoded body to next, after the read', async () => {
    const { seen, result, now } = read(incoming('{"a":[1,2]}', { ...JSON_TYPE, 'content-length': '11' }))
    expect(now).toBe(false)
    expect(await result).toEqual({ parsed: { body: { a: [1, 2] }, fields: { a: [1, 2] }, json: true } })
    expect(seen).toEqual(['next'])
  })

  it('goes on at once when there is no body: none at all, or a length of 0 (whatever its type)', () => {
    for (const request of [
      incoming(null, JSON_TYPE),
      incoming('', { 'content-type': 'text/unknown', 'content-length': '0' }),
    ]) {
      const { seen, result, now } = read(request)
      expect(now).toBe(true)
      expect(result).toEqual({ parsed: { body: undefined, fields: undefined } })
      expect(seen).toEqual(['next'])
    }
  })

  it('gives failed what the headers refuse, at once: a bad length (400), one over the limit (413)', () => {
    for (const [length, status] of [
      ['1e2', 400],
      ['101', 413],
    ] as const) {
      const { seen, result, now } = read(incoming('{}', { ...JSON_TYPE, 'content-length': length }))
      expect(now).toBe(true)
      expect((result as Outcome).error).toMatchObject({ status })
      expect(seen).toEqual(['failed'])
    }
  })

  it('gives failed what the read or the decoding refuses: malformed JSON (400), a type not taken (415), a broken read (400)', async () => {
    const cases: [IncomingRequest, number, RegExp][] = [
      [incoming('{"a":', JSON_TYPE), 400, /^Malformed JSON body/],
      [incoming('{"a":1e999}', JSON_TYPE), 400, /beyond a double's range/],
      [incoming('x', { 'content-type': 'text/csv' }), 415, /./],
      [incoming(new Error('reset'), JSON_TYPE), 400, /could not be read/],
      [incoming('x'.repeat(101), JSON_TYPE), 413, /./],
    ]
    for (const [request, status, message] of cases) {
      const { seen, result } = read(request)
      const error = (await result).error!
      expect(error).toBeInstanceOf(HttpError)
      expect(error.status).toBe(status)
      expect(error.message).toMatch(message)
      expect(seen).toEqual(['failed'])
    }
  })

  it('is, without one, a promise of the body that rejects with the same failures', async () => {
    await expect(readBody(incoming('{"a":1}', JSON_TYPE), { limit: 100 })).resolves.toMatchObject({ body: { a: 1 } })
    await expect(readBody(incoming(null, JSON_TYPE), { limit: 100 })).resolves.toEqual({
      body: undefined,
      fields: undefined,
    })
    await expect(
      readBody(incoming('{}', { ...JSON_TYPE, 'content-length': 'x' }), { limit: 100 }),
    ).rejects.toMatchObject({ status: 400 })
    await expect(readBody(incoming('{', JSON_TYPE), { limit: 100 })).rejects.toMatchObject({ status: 400 })
  })
})
