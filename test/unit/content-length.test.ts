/**
 * The Content-Length a body's reader takes: digits only (the check `readBody` makes for every adapter, and uWS's
 * framing check before it). Anything else is a 400 before a byte is read.
 */
import { describe, expect, it } from 'vitest'
import { isContentLength, readBody } from '../../packages/routeless/src/runtime/lifecycle/body.ts'
import { fromRequest, type IncomingRequest } from '../../packages/routeless/src/runtime/lifecycle/request.ts'

/** A POST of `text` as an adapter hands it over, its Content-Length as given. */
function incoming(text: string, length: string): IncomingRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': length }
  return {
    method: 'POST',
    target: '/',
    header: (name) => headers[name] ?? null,
    body: () => new Response(text).body,
    request: () => {
      throw new Error('not used')
    },
    url: () => new URL('http://x/'),
  }
}

describe('Content-Length', () => {
  it('is one or more ASCII digits', () => {
    for (const good of ['0', '7', '1024', '000012', '9007199254740993']) expect(isContentLength(good), good).toBe(true)
    for (const bad of [
      '',
      ' 5',
      '5 ',
      '+5',
      '-1',
      '1e2',
      '0x10',
      '1.0',
      '١٢',
      '５',
      '12a',
      '1,2',
      '1/',
      '1:',
      '/',
      ':',
    ])
      expect(isContentLength(bad), bad).toBe(false)
  })

  it('refuses any other with 400 before reading, and reads a body whose length is digits', async () => {
    for (const bad of ['', '-2', '1e2', ' 2', '2 ', '0x2']) {
      const error = await readBody(incoming('{}', bad), { limit: 100 }).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error, JSON.stringify(bad)).toMatchObject({ status: 400, message: 'Invalid Content-Length header' })
    }
    expect((await readBody(incoming('{"a":1}', '7'), { limit: 100 })).body).toEqual({ a: 1 })
    expect((await readBody(incoming('{"a":1}', '0007'), { limit: 100 })).body).toEqual({ a: 1 })
  })
})

describe("a Fetch request's Content-Length, read once", () => {
  const post = (length?: string) =>
    fromRequest(
      new Request('http://x/', {
        method: 'POST',
        body: 'abc',
        headers: length === undefined ? {} : { 'content-length': length },
      }),
    )

  it('is what its headers say, to every reader and every time', async () => {
    for (const length of ['3', '0', undefined]) {
      const request = post(length)
      const expected = length ?? null
      expect(request.header('content-length'), String(length)).toBe(expected)
      expect(request.hasBody!(), String(length)).toBe(length === '3')
      expect(request.header('content-length'), String(length)).toBe(expected)
      const body = request.body()
      // A declared length is taken whole (`whole`); without one, the stream is read.
      expect(typeof (body as { whole?: unknown }).whole === 'function', String(length)).toBe(length !== undefined)
    }
    const parsed = await readBody(
      fromRequest(
        new Request('http://x/', {
          method: 'POST',
          body: '{"a":1}',
          headers: { 'content-type': 'application/json', 'content-length': '7' },
        }),
      ),
      { limit: 100 },
    )
    expect(parsed.body).toEqual({ a: 1 })
  })

  it('takes the method as the constant of its name, and any other as it is', () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'PROPFIND', 'patch'])
      expect(fromRequest(new Request('http://x/', { method })).method).toBe(new Request('http://x/', { method }).method)
  })
})
