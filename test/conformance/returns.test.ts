import { expect, it } from 'vitest'
import { blobType, describeTargets, skipWhere } from '../_targets.ts'
import { fixtureApp, logged } from '../_apps.ts'

describeTargets('Return values', fixtureApp('returns'), (t) => {
  const get = (kind: string) => t().request(`/${kind}`)
  it('sends a string as a JSON string', async () => {
    const res = await get('string')
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.text()).toBe('"a string"')
  })
  it('sends each string as its own JSON string, one answered before it again too', async () => {
    // The last short string's JSON is kept (response.ts `quoted`): alternating strings must not answer a stale one.
    for (const [kind, text] of [
      ['string', 'a string'],
      ['other-string', 'another "string"'],
      ['string', 'a string'],
      ['long-string', `${'long '.repeat(60)}"end"`],
      ['string', 'a string'],
      ['long-string', `${'long '.repeat(60)}"end"`],
      ['string', 'a string'],
      ['other-string', 'another "string"'],
    ]) {
      const res = await get(kind!)
      expect(await res.text(), kind).toBe(JSON.stringify(text))
    }
  })
  it('sends objects, arrays, numbers and booleans as JSON', async () => {
    expect(await (await get('object')).json()).toEqual({ a: 1, nested: { b: [true, null] } })
    expect(await (await get('array')).json()).toEqual([1, 'two'])
    expect(await (await get('number')).text()).toBe('42')
    expect(await (await get('false')).text()).toBe('false')
  })
  it('answers 204 without a body for null and undefined', async () => {
    for (const kind of ['null', 'undefined']) {
      const res = await get(kind)
      expect(res.status).toBe(204)
      expect(await res.text()).toBe('')
    }
  })
  it('sends a Response as is', async () => {
    const res = await get('response')
    expect(res.status).toBe(202)
    expect(res.headers.get('x-custom')).toBe('yes')
    expect(await res.text()).toBe('plain text')
  })
  it('streams bytes, blobs, ReadableStreams and async iterables', async () => {
    const bytes = await get('bytes')
    expect(bytes.headers.get('content-type')).toBe('application/octet-stream')
    expect(await bytes.text()).toBe('raw bytes')
    const blob = await get('blob')
    expect(blob.headers.get('content-type')).toBe(blobType(t(), 'text/html'))
    expect(await blob.text()).toBe('<p>blob</p>')
    expect(await (await get('stream')).text()).toBe('chunk1,chunk2')
    expect(await (await get('iterable')).text()).toBe('abc')
  })
  it('streams a generator (sync or async) as a JSON array, or as NDJSON when the handler says so', async () => {
    const sync = await get('generator')
    expect(sync.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await sync.json()).toEqual([1, { two: [2] }, 'three'])
    expect(await (await get('async-generator')).json()).toEqual(['a', { b: true }])
    expect(await (await get('empty-generator')).json()).toEqual([])
    const ndjson = await get('ndjson')
    expect(ndjson.headers.get('content-type')).toBe('application/x-ndjson')
    expect(await ndjson.text()).toBe('{"n":1}\n{"n":2}\n')
  })
  it('sends a Set as an array and a Map with string keys as an object, nested too', async () => {
    expect(await (await get('set')).json()).toEqual(['x', 'y'])
    expect(await (await get('nested')).json()).toEqual({
      tags: [1, 2],
      byName: { a: 1 },
      when: '1970-01-01T00:00:00.000Z',
    })
  })
  it('answers 500 with a log line, never a lossy body, for what JSON cannot represent', async (ctx) => {
    const before = logged.length
    for (const kind of ['map-number-keys', 'nan', 'nested-generator']) {
      const res = await get(kind)
      expect(res.status, kind).toBe(500)
      expect((await res.json()).message).toBe('The server could not answer this request')
    }
    skipWhere(t(), 'logs', ctx) // the answers are checked; the log lines are written elsewhere
    expect(logged.length).toBe(before + 3)
    expect(String(logged.at(-1))).toMatch(/Member "rows" of the returned value is a Generator/)
  })
  it('uses the status and headers set on this.response', async () => {
    const res = await get('status')
    expect(res.status).toBe(201)
    expect(res.headers.get('x-made')).toBe('here')
    expect(await res.json()).toEqual({ created: true })
    const custom = await get('status-209')
    expect(custom.status).toBe(209)
    expect(await custom.text()).toBe('')
  })
  it('awaits async handlers', async () => {
    expect(await (await t().request('/', { method: 'POST' })).text()).toBe('"async result"')
  })
})

describeTargets('Answers declared in the return type', fixtureApp('returns'), (t) => {
  const get = (path: string, init?: RequestInit) => t().request(path, { redirect: 'manual', ...init })
  it("answers a declared Created with its status, its Location, and the body in its type's order", async () => {
    const res = await get('/glossaries/fresh', { method: 'POST' })
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe('/glossaries/g1')
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.text()).toBe('{"id":"g1","name":"fresh"}')
  })
  it('answers the other member of the union with its own status and body', async () => {
    const res = await get('/glossaries/taken', { method: 'POST' })
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ title: 'Taken', status: 409 })
    const missing = await get('/glossaries/g9')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ title: 'No glossary g9', status: 404 })
  })
  it('answers a plain member of the union as a 200', async () => {
    const res = await get('/glossaries/g1')
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('{"id":"g1","name":"first"}')
  })
  it('answers NoContent without a body, with its headers and those set on this.response', async () => {
    const res = await get('/glossaries/g1', { method: 'DELETE' })
    expect(res.status).toBe(204)
    expect(res.headers.get('etag')).toBe('"v2"')
    expect(res.headers.get('x-drafted')).toBe('kept')
    expect(res.headers.get('content-type')).toBeNull()
    expect(await res.text()).toBe('')
  })
  it('answers Accepted with Retry-After, and a redirect with Location and no body', async () => {
    const res = await get('/answers/accepted')
    expect(res.status).toBe(202)
    expect(res.headers.get('retry-after')).toBe('5')
    expect(await res.json()).toEqual({ job: 'j1' })
    const other = await get('/answers/see-other')
    expect(other.status).toBe(303)
    expect(other.headers.get('location')).toBe('/done')
    expect(await other.text()).toBe('')
  })
  it('answers 500, never a split answer, for a declared header whose value has a line break', async (ctx) => {
    const before = logged.length
    const res = await get('/answers/split')
    expect(res.status).toBe(500)
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(res.headers.get('location')).toBeNull()
    expect((await res.json()).message).toBe('The server could not answer this request')
    skipWhere(t(), 'logs', ctx) // the answer is checked; the log line is written elsewhere
    expect(String(logged.at(-1))).toMatch(/The header "location" has a line break or NUL in its value/)
    expect(logged.length).toBe(before + 1)
  })
  it('sends a text body under its own media type, as it is', async () => {
    const page = await get('/answers/html')
    expect(page.status).toBe(404)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await page.text()).toBe('<p>missing</p>')
    const csv = await get('/answers/csv')
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const gone = await get('/answers/gone')
    expect(gone.status).toBe(410)
    expect(gone.headers.get('content-type')).toBe('application/problem+json')
    expect(await gone.text()).toBe('{"title":"Retired","status":410,"retired":"2024-01-01"}')
    expect(await csv.text()).toBe('a,b\n1,2\n')
  })
  it('answers a declared answer without a body as its status, empty', async () => {
    const res = await get('/answers/created-empty')
    expect(res.status).toBe(201)
    expect(await res.text()).toBe('')
  })
  it('answers whichever status of a union of literals the answer has, leaving out a header it does not set', async () => {
    const old = await get('/either', { method: 'POST' })
    expect(old.status).toBe(200)
    expect(old.headers.get('etag')).toBe('"1"')
    expect(await old.json()).toEqual({ id: 'old' })
    const fresh = await get('/either/true', { method: 'POST' })
    expect(fresh.status).toBe(201)
    expect(fresh.headers.get('etag')).toBeNull()
    expect(await fresh.json()).toEqual({ id: 'new' })
  })
  it('answers HEAD with the status and headers of the answer, without its body', async () => {
    const res = await get('/answers/accepted', { method: 'HEAD' })
    expect(res.status).toBe(202)
    expect(res.headers.get('retry-after')).toBe('5')
    expect(await res.text()).toBe('')
  })
})

const warned: string[] = []
const reporting = { error: () => {}, warn: (m: string) => void warned.push(m) }

describeTargets(
  'checkReturns and declared answers',
  fixtureApp('returns', { checkReturns: true, logger: reporting }),
  (t) => {
    const report = async (path: string, init?: RequestInit) => {
      const before = warned.length
      const res = await t().request(path, { redirect: 'manual', ...init })
      await res.arrayBuffer()
      return { res, reported: warned.slice(before) }
    }
    it('reports an answer of a status its return type does not declare, and answers it all the same', async (ctx) => {
      const { res, reported } = await report('/answers/undeclared')
      expect(res.status).toBe(418)
      skipWhere(t(), 'logs', ctx)
      expect(reported).toEqual([
        expect.stringMatching(
          /Answers\.GET .*answered 418 \(a returned answer\), which its return type does not declare \(it declares 200, 201, 202, 303, 404, 410\)/,
        ),
      ])
    })
    it('reports a status set by hand on this.response that the return type does not declare', async (ctx) => {
      const { res, reported } = await report('/glossaries/g1', { method: 'PUT' })
      expect(res.status).toBe(202)
      skipWhere(t(), 'logs', ctx)
      expect(reported).toEqual([expect.stringMatching(/Glossaries\.PUT .*answered 202 \(this\.response\.status\)/)])
    })
    it("checks a declared answer's body against its status's type", async (ctx) => {
      const { res, reported } = await report('/answers/bad-body')
      expect(res.status).toBe(202)
      skipWhere(t(), 'logs', ctx)
      expect(reported).toEqual([
        expect.stringMatching(/Answers\.GET .*member \/job of the returned value must be string/),
      ])
    })
    it('reports nothing for the answers the type declares', async (ctx) => {
      const before = warned.length
      for (const path of ['/answers/accepted', '/answers/see-other', '/answers/html', '/answers/created-empty'])
        await (await t().request(path, { redirect: 'manual' })).arrayBuffer()
      for (const [path, method] of [
        ['/glossaries/x', 'POST'],
        ['/glossaries/taken', 'POST'],
        ['/glossaries/g1', 'GET'],
        ['/glossaries/g1', 'DELETE'],
      ])
        await (await t().request(path, { method })).arrayBuffer()
      skipWhere(t(), 'logs', ctx)
      expect(warned.slice(before)).toEqual([])
    })
  },
)

describeTargets('Errors', fixtureApp('returns'), (t) => {
  const get = (kind: string) => t().request(`/${kind}`, { redirect: 'manual' })
  it('renders an HttpError in the envelope with its status and headers', async () => {
    const res = await get('http-error')
    expect(res.status).toBe(418)
    expect(res.headers.get('x-tea')).toBe('earl grey')
    expect(await res.json()).toEqual({ status: 418, error: 'Error', message: "I'm a teapot" })
  })
  it('renders an HttpError body instead of the envelope', async () => {
    const res = await get('http-error-body')
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ configurations: [{ name: 'x' }] })
  })
  it('merges details into the envelope', async () => {
    expect(await (await get('http-error-details')).json()).toEqual({
      status: 400,
      error: 'Bad Request',
      message: 'Invalid parameters',
      errors: [{ name: 'page', reason: 'not a number' }],
    })
  })
  it('redirects with Location', async () => {
    const res = await get('redirect')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/elsewhere')
  })
  it('answers AccessDenied with 401 and WWW-Authenticate', async () => {
    const res = await get('access-denied')
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="test"')
    expect((await res.json()).message).toBe('Log in first')
  })
  it('answers CallStop with its status and body', async () => {
    const res = await get('call-stop')
    expect(res.status).toBe(202)
    expect(await res.json()).toEqual({ stopped: true })
  })
  it('answers 500 with a generic message for a thrown Error, and logs it', async (ctx) => {
    const before = logged.length
    for (const kind of ['crash', 'crash-async', 'bigint']) {
      const res = await get(kind)
      expect(res.status).toBe(500)
      const text = await res.text()
      expect(JSON.parse(text)).toEqual({
        status: 500,
        error: 'Internal Server Error',
        message: 'The server could not answer this request',
      })
      expect(text).not.toMatch(/secret|BigInt/)
    }
    skipWhere(t(), 'logs', ctx)
    expect(logged.length).toBe(before + 3)
  })
})

describeTargets('Response edge cases', fixtureApp('returns'), (t) => {
  it('answers 500 (never a hang) for a status outside 200–599', async () => {
    const res = await t().request('/edge/bad-status')
    expect(res.status).toBe(500)
    expect((await res.json()).message).toBe('The server could not answer this request')
  })
  it('answers a plain 500 once, logged, for an error whose answer cannot be made, with a body or without', async (ctx) => {
    const before = logged.length
    for (const init of [{}, { body: '{"a":1}', headers: { 'content-type': 'application/json' } }]) {
      const res = await t().request('/edge/unanswerable', { method: 'POST', ...init })
      expect(res.status).toBe(500)
      expect((await res.json()).message).toBe('The server could not answer this request')
    }
    skipWhere(t(), 'logs', ctx)
    expect(logged.length).toBe(before + 2)
    expect(String(logged.at(-1))).toMatch(/BigInt/)
  })
  it('adds this.response headers to a returned Response whose headers are immutable', async () => {
    const res = await t().request('/edge/immutable', { redirect: 'manual' })
    expect(res.status).toBe(307)
    expect(res.headers.get('location')).toBe('http://localhost/elsewhere')
    expect(res.headers.get('x-added')).toBe('1')
  })
})

describeTargets('Custom error rendering', fixtureApp('errors'), (t) => {
  it('uses the standard envelope outside modules that render their own', async () => {
    expect(await (await t().request('/plain')).json()).toEqual({
      status: 500,
      error: 'Internal Server Error',
      message: 'The server could not answer this request',
    })
  })
  it("uses a module's renderError for errors under it, 404 and 405 included", async () => {
    const conflict = await t().request('/admin', { method: 'POST' })
    expect(conflict.status).toBe(409)
    expect(await conflict.json()).toEqual({ admin_error: 'admin conflict', code: 409 })
    const notFound = await t().request('/admin/1/2/3', { method: 'POST' })
    expect(notFound.status).toBe(404)
    expect((await notFound.json()).code).toBe(404)
    const notAllowed = await t().request('/admin', { method: 'GET' })
    expect(notAllowed.status).toBe(405)
    expect(notAllowed.headers.get('allow')).toBe('POST, OPTIONS')
    expect((await notAllowed.json()).code).toBe(405)
  })
  it("prefers a class's static renderError", async () => {
    const res = await t().request('/admin/own')
    expect(res.status).toBe(422)
    expect(await res.text()).toBe('own:422')
    const notAllowed = await t().request('/admin/own', { method: 'PUT' })
    expect(await notAllowed.text()).toBe('own:405')
  })
  it('falls back to the module renderer when a class renderer returns undefined', async () => {
    const res = await t().request('/admin/fallback')
    expect(await res.json()).toEqual({ admin_error: 'falls back', code: 400 })
  })
})
