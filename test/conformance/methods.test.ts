import { request as httpRequest } from 'node:http'
import { expect, it } from 'vitest'
import { describeTargets } from '../_targets.ts'
import { fixtureApp } from '../_apps.ts'

describeTargets('HTTP methods', fixtureApp('basic'), (t) => {
  it('answers 405 with Allow when the class lacks the method', async () => {
    const res = await t().request('/foo', { method: 'DELETE' })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(await res.json()).toEqual({
      status: 405,
      error: 'Method Not Allowed',
      message: 'DELETE is not allowed on /foo',
    })
  })
  it('lists every method of the class in Allow', async () => {
    const res = await t().request('/', { method: 'PUT' })
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS')
  })
  it('answers HEAD from GET without a body', async () => {
    const res = await t().request('/foo', { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await res.text()).toBe('')
  })
  it('answers HEAD of an error without a body', async () => {
    const res = await t().request('/foo/extra/parts', { method: 'HEAD' })
    expect(res.status).toBe(404)
    expect(await res.text()).toBe('')
  })
  it('answers OPTIONS with 204 and Allow', async () => {
    const res = await t().request('/', { method: 'OPTIONS' })
    expect(res.status).toBe(204)
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS')
    expect(await res.text()).toBe('')
  })
  it('answers 501 for a method token it does not know, calling nothing', async () => {
    // PROPFIND: a token HTTP parsers accept but routeless never routes. (node:http's parser itself answers 400 for
    // tokens it does not know, such as BREW, before routeless sees them.)
    // uWS closes the connection itself on tokens outside RFC 9110 + PATCH; TRACE (which Fetch may not send) is
    // covered for the real servers below.
    for (const method of t().name === 'uws' ? [] : ['PROPFIND', 'PURGE', 'MKCOL']) {
      const res = await t().request('/', { method })
      expect(res.status).toBe(501)
      expect((await res.json()).message).toBe(`Method ${method} is not implemented`)
    }
  })
  it('answers 501 for TRACE, a method routeless never routes', async () => {
    const url = t().url
    if (!url) return // Fetch refuses to build a TRACE request: only real servers can receive one
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${url}/`, { method: 'TRACE' }, (res) => {
        let body = ''
        res.on('data', (d) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(501)
    expect(JSON.parse(body).message).toBe('Method TRACE is not implemented')
  })
  it('answers a request offering another protocol upgrade (h2c) as plain HTTP', async () => {
    const url = t().url
    if (!url) return
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${url}/foo`,
        {
          headers: {
            connection: 'Upgrade, HTTP2-Settings',
            upgrade: 'h2c',
            'http2-settings': 'AAMAAABkAAQAoAAAAAIAAAAA',
          },
        },
        (res) => {
          let body = ''
          res.on('data', (d) => (body += d))
          res.on('end', () => resolve({ status: res.statusCode!, body }))
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(200)
    expect(body).toBe('"Foo handler"')
  })
  it('only treats uppercase method names as handlers', async () => {
    // Fetch upper-cases get/post/put/delete/head/options itself but sends `patch` as is; HTTP parsers refuse it, so
    // only the in-process target can receive it.
    if (t().name !== 'fetch') return
    const res = await t().request('/', { method: 'patch' })
    expect(res.status).toBe(501)
  })
})

describeTargets(
  'A class defining OPTIONS and HEAD',
  async () => {
    const { createApp } = await import('routeless')
    return createApp({
      modules: {
        '': {
          Default: class {
            GET() {
              return 'get'
            }
            HEAD() {
              return new Response(null, { headers: { 'x-head': 'own' } })
            }
            OPTIONS() {
              return { custom: true }
            }
          },
        },
      },
    })
  },
  (t) => {
    it('uses its own OPTIONS', async () => {
      expect(await (await t().request('/', { method: 'OPTIONS' })).json()).toEqual({ custom: true })
    })
    it('uses its own HEAD', async () => {
      const res = await t().request('/', { method: 'HEAD' })
      expect(res.headers.get('x-head')).toBe('own')
    })
  },
)
