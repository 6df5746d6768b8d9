/**
 * `withHeaders`, what the access log (X-Request-ID) and CORS add to every answer: a header of the same name is
 * replaced whatever its case, shared pairs are copied and never changed, a reply's own `Headers` and a `Response`'s
 * are set in place, an immutable `Response` is copied.
 */
import { describe, expect, it } from 'vitest'
import { headerOf, withHeaders } from '../../packages/routeless/src/runtime/lifecycle/fetch-response.ts'
import type { Reply } from '../../packages/routeless/src/runtime/lifecycle/response.ts'

const reply = (headers: Reply['headers']): Reply => ({ status: 200, headers, type: 'text/plain', body: 'hi' })

describe('withHeaders', () => {
  it('copies shared pairs: the same name replaced in any case, the others kept in their order, the added names lower case', () => {
    const shared = Object.freeze([
      ['vary', 'Accept'],
      ['x-request-id', 'old'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ] as const)
    const before = reply(shared)
    const after = withHeaders(before, [
      ['X-Request-ID', 'new'],
      ['Vary', 'Accept, Origin'],
    ]) as Reply
    expect(after.headers).toEqual([
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['x-request-id', 'new'],
      ['vary', 'Accept, Origin'],
    ])
    expect(before.headers).toBe(shared)
    expect(after).not.toBe(before)
    expect(headerOf(after, 'X-Request-Id')).toBe('new')
  })

  it('gives a reply without headers a list of its own, and returns the answer itself for no entries', () => {
    const before = reply(undefined)
    expect((withHeaders(before, [['X-Request-ID', 'r1']]) as Reply).headers).toEqual([['x-request-id', 'r1']])
    expect(before.headers).toBeUndefined()
    expect(withHeaders(before, [])).toBe(before)
  })

  it("sets a reply's own Headers in place", () => {
    const own = new Headers({ 'X-Request-ID': 'old', Vary: 'Accept' })
    const before = reply(own)
    expect(withHeaders(before, [['x-request-id', 'new']])).toBe(before)
    expect([...own]).toEqual([
      ['vary', 'Accept'],
      ['x-request-id', 'new'],
    ])
  })

  it("sets a Response's headers, or copies one whose headers are immutable", async () => {
    const mutable = new Response('body', { headers: { 'x-request-id': 'old' } })
    expect(withHeaders(mutable, [['X-Request-ID', 'new']])).toBe(mutable)
    expect(mutable.headers.get('x-request-id')).toBe('new')
    const immutable = Response.redirect('https://example.com/', 302)
    const copy = withHeaders(immutable, [['X-Request-ID', 'r2']]) as Response
    expect(copy).not.toBe(immutable)
    expect([copy.status, copy.headers.get('location'), copy.headers.get('x-request-id')]).toEqual([
      302,
      'https://example.com/',
      'r2',
    ])
  })
})
