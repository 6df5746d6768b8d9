/** `routeless explain`: what resolve() decides, said for a person; and the development 404 hint. */
import { describe, expect, it } from 'vitest'
import { explain } from '../../packages/routeless/src/tooling/explain.ts'
import { fixtureApp } from '../_apps.ts'

const tree = fixtureApp('tree')

describe('explain', () => {
  it('names file, class, method, positional and keyword arguments of a match', async () => {
    const { table } = await tree()
    const e = explain(table, 'get', '/users/posts/7?x=1&x=2')
    expect(e.status).toBe(200)
    expect(e.lines[0]).toMatch(/^GET \/users\/posts\/7 → .*tree\/users\.ts Posts\.GET$/)
    expect(e.lines).toContain('  positional     postId="7"')
    expect(e.lines[3]).toContain('{"x":["1","2"]}')
  })

  it('says which handler a 404 misses by arity, and what may follow where the walk stopped', async () => {
    const { table } = await tree()
    expect(explain(table, 'GET', '/users/posts').lines[0]).toMatch(
      /^GET \/users\/posts → 404: Posts\.GET takes 1 path part, got 0 \(.*tree\/users\.ts\)$/,
    )
    expect(explain(table, 'GET', '/users/a/b').lines[0]).toMatch(/404: Default\.GET takes 0–1 path parts, got 2/)
    expect(explain(table, 'GET', '/v3').lines[0]).toBe(
      'GET /v3 → 404: nothing answers at /v3 (a module without Default and no class there); names that may follow it: status',
    )
    expect(explain(table, 'GET', '/users/%2e%2e').lines[0]).toContain(
      '404: the path has a part no controller may receive',
    )
  })

  it("explains a 405 with Allow and the handlers there, a 501, and routeless's own OPTIONS", async () => {
    const { table } = await tree()
    const e = explain(table, 'DELETE', '/users/posts/7')
    expect(e.status).toBe(405)
    expect(e.lines[0]).toBe(
      'DELETE /users/posts/7 → 405: /users/posts has no DELETE handler; Allow: GET, HEAD, OPTIONS',
    )
    expect(e.lines[1]).toMatch(/Posts\.GET takes 1 path part/)
    expect(explain(table, 'BREW', '/users').status).toBe(501)
    expect(explain(table, 'OPTIONS', '/users').lines[0]).toBe(
      'OPTIONS /users → 204 answered by routeless, Allow: GET, HEAD, OPTIONS (/users)',
    )
  })
})

describe('the development 404 hint', () => {
  it('is in 404 messages only with explainNotFound', async () => {
    const dev = await fixtureApp('tree', { explainNotFound: true })()
    const body = await (await dev.request('/users/posts')).json()
    expect(body.message).toMatch(/^No controller answers GET \/users\/posts: Posts\.GET takes 1 path part, got 0/)
    const prod = await tree()
    expect((await (await prod.request('/users/posts')).json()).message).toBe('No controller answers GET /users/posts')
  })
})
