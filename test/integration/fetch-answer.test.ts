/**
 * `app.fetch`'s answer: the `Response` itself when nothing had to wait, a promise of it when something did (a body to
 * read, an async handler), never a rejection. Fetch hosts take either; a promise of a ready answer costs Deno.serve a
 * turn of its microtask queue (docs/BENCHMARKS.md).
 */
import { describe, expect, it } from 'vitest'
import { createAppFromModules } from 'routeless'

const quiet = { error: () => {}, warn: () => {} }

class Default {
  declare body: unknown
  GET() {
    return 'hi'
  }
  async GET_later() {
    await new Promise((r) => setTimeout(r, 1))
    return 'later'
  }
  GET_broken(): never {
    throw new Error('a bug')
  }
  POST() {
    return this.body
  }
}

const app = await createAppFromModules({ '': { Default } }, { logger: quiet })
const request = (path: string, init?: RequestInit) => new Request(`http://localhost${path}`, init)

describe('app.fetch', () => {
  it('answers a synchronous handler with the Response itself', async () => {
    const answer = app.fetch(request('/'))
    expect(answer).toBeInstanceOf(Response)
    expect(await (answer as Response).json()).toBe('hi')
  })

  it('answers what needs no handler (404, 405) with the Response itself', () => {
    const missing = app.fetch(request('/nothing/here/at/all'))
    expect(missing).toBeInstanceOf(Response)
    expect((missing as Response).status).toBe(404)
    const refused = app.fetch(request('/', { method: 'DELETE' }))
    expect((refused as Response).status).toBe(405)
  })

  it('answers a handler that throws with its 500, not a rejection', async () => {
    const answer = app.fetch(request('/broken'))
    expect(answer).toBeInstanceOf(Response)
    expect((answer as Response).status).toBe(500)
  })

  it('answers with a promise when a body is read or the handler waits', async () => {
    const body = JSON.stringify({ a: 1, b: [true, null] })
    const echoed = app.fetch(request('/', { method: 'POST', body, headers: { 'content-type': 'application/json' } }))
    expect(echoed).toBeInstanceOf(Promise)
    expect(await (await echoed).text()).toBe(body)
    const later = app.fetch(request('/later'))
    expect(later).toBeInstanceOf(Promise)
    expect(await (await later).json()).toBe('later')
    const bad = await app.fetch(
      request('/', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } }),
    )
    expect(bad.status).toBe(400)
  })

  it('keeps app.request a promise', () => {
    expect(app.request('/')).toBeInstanceOf(Promise)
  })
})
