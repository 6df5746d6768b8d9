/** Routing, part two: method routes, sub-resources after an id, ANY, acronyms, and no fallback to a parent's Default. */
import { describe, expect, it } from 'vitest'
import { createApp } from 'routeless'
import { describeTargets } from '../_targets.ts'
import { fixture, fixtureApp } from '../_apps.ts'

describeTargets('Routing, part two', fixtureApp('routes'), (t) => {
  const call = async (path: string, init?: RequestInit) => {
    const res = await t().request(path, init)
    const text = await res.text()
    return {
      status: res.status,
      allow: res.headers.get('allow'),
      body: text && res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text,
    }
  }

  it('answers a method route GET_bar at /foo/bar, its own parameters after it', async () => {
    expect((await call('/foo/bar')).body).toEqual({ at: 'Foo.GET_bar', x: '' })
    expect((await call('/foo/bar/7')).body).toEqual({ at: 'Foo.GET_bar', x: '7' })
    expect((await call('/foo/bar', { method: 'POST' })).body).toEqual({ at: 'Foo.POST_bar' })
    // Fixed words win over the class's own positional parameters, as in the original; no backtracking.
    expect((await call('/foo/zzz')).body).toEqual({ at: 'Foo.GET', rest: ['zzz'] })
    expect((await call('/foo/bar/7/8')).status).toBe(404)
  })

  it('spells a method route as written (GET_foo_bar → /foo/foo_bar), and takes - for _ as an alias', async () => {
    expect((await call('/foo/foo_bar')).body).toEqual({ at: 'Foo.GET_foo_bar' })
    expect((await call('/foo/foo-bar')).body).toEqual({ at: 'Foo.GET_foo_bar' })
  })

  it('answers 405 on a method route with its own Allow', async () => {
    const res = await call('/foo/bar', { method: 'DELETE' })
    expect(res.status).toBe(405)
    expect(res.allow).toBe('GET, HEAD, POST, OPTIONS')
  })

  it('answers a sub-resource after an id: GET_$_entries(id) at /glossaries/{id}/entries', async () => {
    expect((await call('/glossaries')).body).toEqual({ at: 'GET', id: '' })
    expect((await call('/glossaries/g1')).body).toEqual({ at: 'GET', id: 'g1' })
    expect((await call('/glossaries/g1/entries')).body).toEqual({ at: 'GET_$_entries', id: 'g1' })
    expect((await call('/glossaries/g%201/entries')).body).toEqual({ at: 'GET_$_entries', id: 'g 1' })
    expect((await call('/glossaries/g1/dictionaries', { method: 'PUT' })).body).toEqual({
      at: 'PUT_$_dictionaries',
      id: 'g1',
    })
    expect((await call('/glossaries/g1/dictionaries', { method: 'DELETE' })).body).toEqual({
      at: 'DELETE_$_dictionaries',
      id: 'g1',
    })
    expect((await call('/glossaries/g1', { method: 'DELETE' })).body).toEqual({ at: 'DELETE', id: 'g1' })
  })

  it('gives a sub-resource its own trailing parameters, nested sub-resources and several placeholders', async () => {
    expect((await call('/glossaries/g1/files')).body).toEqual({ at: 'GET_$_files', id: 'g1', fileId: '' })
    expect((await call('/glossaries/g1/files/f2')).body).toEqual({ at: 'GET_$_files', id: 'g1', fileId: 'f2' })
    expect((await call('/glossaries/g1/files/f2/meta')).body).toEqual({
      at: 'GET_$_files_$_meta',
      id: 'g1',
      fileId: 'f2',
    })
    expect((await call('/pairs/a/b/pair')).body).toEqual({ at: 'GET_$_$_pair', a: 'a', b: 'b' })
  })

  it('answers 404 for a sub-resource that does not exist and 405 (its own Allow) for a method it lacks', async () => {
    expect((await call('/glossaries/g1/nope')).status).toBe(404)
    expect((await call('/glossaries/g1/entries/extra')).status).toBe(404)
    const res = await call('/glossaries/g1/entries', { method: 'POST' })
    expect(res.status).toBe(405)
    expect(res.allow).toBe('GET, HEAD, OPTIONS')
    const options = await call('/glossaries/g1/dictionaries', { method: 'OPTIONS' })
    expect(options.status).toBe(204)
    expect(options.allow).toBe('PUT, DELETE, OPTIONS')
  })

  it('lets a fixed segment (a class) win over a captured id', async () => {
    expect((await call('/glossaries/stats')).body).toEqual({ at: 'Stats.GET' })
  })

  it('answers HEAD on a sub-resource from its GET, without a body', async () => {
    const res = await call('/glossaries/g1/entries', { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.body).toBe('')
  })

  it('lets ANY answer every method the class does not define, and only at its own path', async () => {
    expect((await call('/multi')).body).toEqual({ at: 'Multi.GET' })
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect((await call('/multi', { method })).body, method).toEqual({ at: 'Multi.ANY', method })
    }
    const options = await call('/multi', { method: 'OPTIONS' })
    expect(options.body).toEqual({ at: 'Multi.ANY', method: 'OPTIONS' })
    expect((await call('/multi/only')).body).toEqual({ at: 'Multi.GET_only' })
    const res = await call('/multi/only', { method: 'POST' })
    expect(res.status).toBe(405)
    expect(res.allow).toBe('GET, HEAD, OPTIONS')
  })

  it('maps acronyms and digits the way people read them', async () => {
    expect((await call('/http-server')).body).toEqual({ at: 'HTTPServer.GET' })
    expect((await call('/http_server')).body).toEqual({ at: 'HTTPServer.GET' })
    expect((await call('/xml-parser')).body).toEqual({ at: 'XMLParser.GET' })
    expect((await call('/abc')).body).toEqual({ at: 'ABC.GET' })
    expect((await call('/oauth2-token', { method: 'POST' })).body).toEqual({ at: 'OAuth2Token.POST' })
    expect((await call('/user-profile')).body).toEqual({ at: 'userProfile.Default.GET' })
    // The old spellings select nothing: the root Default takes them as positional parts.
    expect((await call('/h-t-t-p-server')).body).toEqual({ at: 'index.Default.GET', parts: ['h-t-t-p-server'] })
  })

  it("answers from the deepest module or not at all: a module without Default never falls back to its parent's", async () => {
    expect((await call('/deep/zzz')).body).toEqual({ at: 'deep.Default.GET', rest: ['zzz'] })
    expect((await call('/deep/boom/bang')).body).toEqual({ at: 'deep/boom.Bang.GET' })
    expect((await call('/deep/boom')).status).toBe(404)
    expect((await call('/deep/boom/zzz')).status).toBe(404)
    expect((await call('/v1')).status).toBe(404)
    expect((await call('/v1/items/3')).body).toEqual({ at: 'v1/items.Default.GET', id: '3' })
  })

  it('serves no method that only looks like a handler (get(), Post()): they are start-up warnings', async () => {
    // Lookalike has no handler, so it is no path: the root Default takes the part.
    expect((await call('/lookalike')).body).toEqual({ at: 'index.Default.GET', parts: ['lookalike'] })
    expect((await call('/lookalike', { method: 'POST' })).status).toBe(405)
    const app = await fixtureApp('routes')()
    expect(app.table.warnings.filter((w) => w.includes('Lookalike.'))).toEqual([
      expect.stringMatching(/routes\/index\.ts: Lookalike\.get\(\) looks like a handler/),
      expect.stringMatching(/routes\/index\.ts: Lookalike\.Post\(\) looks like a handler/),
    ])
  })

  it('answers every path the route table lists (no row is a 404)', async () => {
    const app = await fixtureApp('routes')()
    for (const h of app.table.handlers()) {
      if (h.method === 'WEBSOCKET') continue
      const path = h.path.replace(/\{[^}]+\}/g, 'p1') + '/q'.repeat(Math.max(0, h.signature.min - h.captures))
      const method = h.method === 'ANY' ? 'PATCH' : h.method
      const res = await t().request(path, { method })
      expect(res.status, `${method} ${path} (${h.className}.${h.name})`).toBeLessThan(400)
    }
  })
})

describe('Routing, part two: the route table', () => {
  it('lists method routes and sub-resources as their own rows with path templates', async () => {
    const app = await createApp(fixture('routes'), { logger: { error: () => {} } })
    const rows = app.table.list().map((r) => `${r.method} ${r.path} ${r.handler}`)
    expect(rows).toEqual(
      expect.arrayContaining([
        'GET /foo/bar Foo.GET_bar',
        'GET /foo/foo_bar Foo.GET_foo_bar',
        'GET /glossaries/{id}/entries Default.GET_$_entries',
        'GET /glossaries/{id}/files/{fileId}/meta Default.GET_$_files_$_meta',
        'GET /pairs/{a}/{b}/pair Default.GET_$_$_pair',
        'ANY /multi Multi.ANY',
        'GET /http-server HTTPServer.GET',
        'POST /oauth2-token OAuth2Token.POST',
        'GET /user-profile Default.GET',
      ]),
    )
  })

  it("lists a method route's trailing positional parameters in its template, both paths when they are optional", async () => {
    const app = await createApp(fixture('routes'), { logger: { error: () => {} } })
    const rows = app.table.list().map((r) => `${r.method} ${r.path} ${r.handler}`)
    // GET_bar(x = '') and GET_$_files(id, fileId = ''): one row per accepted path; the class's own GET(...rest) is not expanded.
    expect(rows.filter((r) => r.endsWith('Foo.GET_bar'))).toEqual([
      'GET /foo/bar Foo.GET_bar',
      'GET /foo/bar/{x} Foo.GET_bar',
    ])
    expect(rows.filter((r) => r.endsWith('Default.GET_$_files'))).toEqual([
      'GET /glossaries/{id}/files Default.GET_$_files',
      'GET /glossaries/{id}/files/{fileId} Default.GET_$_files',
    ])
    expect(rows.filter((r) => r.endsWith(' Foo.GET'))).toEqual(['GET /foo Foo.GET'])
    // The alias spelling is never listed, nor in OpenAPI.
    expect(rows.some((r) => r.includes('/foo/foo-bar'))).toBe(false)
    expect(Object.keys(app.openapi().paths as object).filter((p) => p.startsWith('/foo/foo'))).toEqual(['/foo/foo_bar'])
    // The table counts handlers, not listed paths.
    expect(app.table.rows.filter((r) => r.handler === 'Foo.GET_bar')).toHaveLength(1)
  })

  it('gives each sub-resource its own OpenAPI operation and path template', async () => {
    const app = await createApp(fixture('routes'), { logger: { error: () => {} } })
    const paths = app.openapi().paths as Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/glossaries/{id}/entries',
        '/glossaries/{id}/dictionaries',
        '/glossaries/{id}/files',
        '/glossaries/{id}/files/{fileId}',
        '/glossaries/{id}/files/{fileId}/meta',
      ]),
    )
    expect(paths['/glossaries/{id}/entries']!.get!.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ])
    expect(Object.keys(paths['/glossaries/{id}/dictionaries']!).sort()).toEqual(['delete', 'put'])
  })
})
