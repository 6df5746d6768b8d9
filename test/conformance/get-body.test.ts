/**
 * A GET that declares a body (Content-Length other than 0, or Transfer-Encoding) has it read like a POST's: form and
 * JSON fields join the keyword arguments (over the query's), the decoded body is `this.body`, the size limit and the
 * content types apply (413, 415), and guards run first. DeepL's clients send GET parameters this way. Fetch cannot
 * make a GET with a body, so on the in-process target the body comes through `app.handle` with the raw chunks, as a
 * runtime whose Request allows one would hand it over.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve, type RunningServer } from 'routeless/node'
import type { Application } from 'routeless'
import { fromRequest } from '../../packages/routeless/src/runtime/lifecycle/request.ts'
import { toFetchResponse } from '../../packages/routeless/src/runtime/lifecycle/response.ts'
import { describeTargets, skipWhere, type Target } from '../_targets.ts'
import { fixtureApp } from '../_apps.ts'

let app: Application
const makeApp = fixtureApp('get-body')

interface Sent {
  status: number
  body: any
}

/** GET `path` with `body` as `type`, chunked when `chunked` (no Content-Length), on the target. */
async function getWithBody(
  t: Target,
  path: string,
  type: string | undefined,
  body: string,
  headers: Record<string, string> = {},
  chunked = false,
): Promise<Sent> {
  const all: Record<string, string> = { ...headers }
  if (type) all['content-type'] = type
  if (chunked) all['transfer-encoding'] = 'chunked'
  if (t.url === undefined) {
    const bytes = new TextEncoder().encode(body)
    if (!chunked) all['content-length'] = String(bytes.byteLength)
    const request = new Request(`http://localhost${path}`, { headers: all })
    const chunks = (async function* () {
      yield bytes
    })()
    const response = await toFetchResponse(await app.handle(fromRequest(request, chunks)))
    return { status: response.status, body: await response.json() }
  }
  const url = new URL(path, t.url)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'GET', headers: all },
      (res) => {
        let text = ''
        res
          .setEncoding('utf8')
          .on('data', (c) => (text += c))
          .on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }))
      },
    )
    req.on('error', reject)
    if (chunked) {
      req.write(body.slice(0, 3))
      req.end(body.slice(3))
    } else {
      req.setHeader('content-length', Buffer.byteLength(body))
      req.end(body)
    }
  })
}

describeTargets(
  'GET with a body',
  Object.assign(async () => (app = await makeApp()), { fixture: makeApp.fixture }),
  (t) => {
    it('reads a form body into the keyword arguments, over the query', async (ctx) => {
      skipWhere(t(), 'get-body', ctx)
      const res = await getWithBody(
        t(),
        '/search?type=source&page=2',
        'application/x-www-form-urlencoded',
        'type=target&q=a+b',
      )
      expect(res).toEqual({
        status: 200,
        body: { kwargs: { type: 'target', page: '2', q: 'a b' }, body: { type: 'target', q: 'a b' } },
      })
    })

    it('reads a JSON body, also when it arrives chunked', async (ctx) => {
      skipWhere(t(), 'get-body', ctx)
      const res = await getWithBody(t(), '/search', 'application/json', '{"type":"target","n":3}', {}, true)
      expect(res).toEqual({ status: 200, body: { kwargs: { type: 'target', n: 3 }, body: { type: 'target', n: 3 } } })
    })

    it('keeps the body after a guard has read the Fetch Request, and runs the guard first', async (ctx) => {
      skipWhere(t(), 'get-body', ctx)
      expect(
        (
          await getWithBody(t(), '/search/guarded', 'application/x-www-form-urlencoded', 'type=target', {
            'x-key': 'yes',
          })
        ).body,
      ).toEqual({ kwargs: { type: 'target' }, body: { type: 'target' } })
      expect(
        (await getWithBody(t(), '/search/guarded', 'application/x-www-form-urlencoded', 'type=target')).status,
      ).toBe(403)
    })

    it('applies the limit and the content types: 413, 415', async (ctx) => {
      skipWhere(t(), 'get-body', ctx)
      expect(
        (await getWithBody(t(), '/search', 'application/x-www-form-urlencoded', `q=${'x'.repeat(100)}`)).status,
      ).toBe(413)
      expect((await getWithBody(t(), '/search', 'text/plain', 'hello')).status).toBe(415)
    })

    it('reads nothing when none is declared', async () => {
      const res = await t().request('/search?type=source')
      expect(await res.json()).toEqual({ kwargs: { type: 'source' }, body: null })
    })
  },
)

// routeless/node may serve a wrapper of the app's fetch (`{ fetch }`, as an app adding headers does): the GET's
// Fetch Request cannot carry the body, so the adapter keeps it beside the Request for `app.fetch` to read.
// (routeless/uws serves an Application's `handle` only: the tests above cover it.)
for (const name of ['node'] as const) {
  describe(`GET with a body through a wrapped app.fetch [${name}]`, () => {
    let server: RunningServer
    beforeAll(async () => {
      const inner = await makeApp()
      const wrapped = { fetch: (request: Request, env?: Record<string, unknown>) => inner.fetch(request, env) }
      server = await serve(wrapped as unknown as Application, { host: '127.0.0.1', port: 0 })
    })
    afterAll(() => server.close())

    it('reads the body there too, after a guard has read the Request', async () => {
      const target = {
        name,
        url: server.url,
        request: (path: string, init?: RequestInit) => fetch(server.url + path, init),
      } as Target
      expect(await getWithBody(target, '/search?page=1', 'application/x-www-form-urlencoded', 'type=target')).toEqual({
        status: 200,
        body: { kwargs: { page: '1', type: 'target' }, body: { type: 'target' } },
      })
      expect(
        (
          await getWithBody(
            target,
            '/search/guarded',
            'application/json',
            '{"type":"target"}',
            { 'x-key': 'yes' },
            true,
          )
        ).body.kwargs,
      ).toEqual({ type: 'target' })
    })
  })
}
