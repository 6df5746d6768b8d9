/**
 * The Content-Length a body's reader takes: digits only (the check `readBody` makes for every adapter, and uWS's
 * framing check before it). Anything else is a 400 before a byte is read.
 */
import { describe, expect, it } from 'vitest'
import { isContentLength, readBody } from '../../packages/routeless/src/runtime/lifecycle/body.ts'
import type { IncomingRequest } from '../../packages/routeless/src/runtime/lifecycle/request.ts'

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
    for (const bad of ['', ' 5', '5 ', '+5', '-1', '1e2', '0x10', '1.0', '١٢', '５', '12a', '1,2'])
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
