/** `routeless explain`: what resolve() decides, said for a person; and the development 404 hint. */
import { describe, expect, it } from 'vitest'
import { STAGES } from '../../packages/routeless/src/compiler/codegen/stages.ts'
import { explain } from '../../packages/routeless/src/compiler/tooling/explain.ts'
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

describe('explain with the handler code (routeless explain --code)', () => {
  const typed = fixtureApp('typed')

  it("prints a typed handler's generated function: its stages, where it came from, its binding as straight-line code", async () => {
    const app = await typed()
    const { lines } = explain(app.table, 'GET', '/pages/2?size=3', (h) => app.pipelineOf(h))
    const at = lines.findIndex((l) => l.startsWith('  function '))
    expect(lines[at]).toMatch(
      /^ {2}function {7}construct → read → distinct → bind → invoke → reply; (evaluated at start-up|written by routeless)/,
    )
    // Then what each of its stages does, in its order, as the stages' records say it.
    const names = ['construct', 'read', 'distinct', 'bind', 'invoke', 'reply']
    const does = names.map((name) => STAGES.find((s) => s.name === name)!.does)
    expect(lines.slice(at + 1, at + 7)).toEqual(names.map((name, i) => `    ${name.padEnd(15)}${does[i]}`))
    const source = lines.slice(at + 7).join('\n')
    expect(source).toMatch(/^function \(p, rt\) \{\n/)
    expect(source).toContain('return function run(call) {')
    // The positional `page` and the keyword `size`: coerced and validated by name, the 400 worded by a helper.
    expect(source).toContain('else issues = rt.invalid(issues, Ka0, args[0], "page")')
    expect(source).toContain('case "size": {')
    expect(source).toMatch(/default:\n +issues = rt\.unknownKey\(issues, key, kw\.unknownReason\)/)
    // What this GET does not need is absent: no guard, no before(); its body is read only when the GET declares one.
    expect(source).not.toMatch(/guard|before/)
    expect(source).toContain("if (call.incoming.method === 'GET' && rt.declaresBody(call.incoming)) {\n")
    expect(explain(app.table, 'GET', '/pages/2').lines).not.toContainEqual(expect.stringMatching(/^ {2}function/))
  })

  it("splits the function where a stage may wait: a body read, an async handler's value", async () => {
    const app = await typed()
    const { lines } = explain(app.table, 'POST', '/users', (h) => app.pipelineOf(h))
    const source = lines.slice(lines.indexOf('function (p, rt) {')).join('\n')
    // After a wait, a failure is the application's error answer (`fail`): the function's promise never rejects.
    expect(source).toContain(
      [
        '    return rt.readBody(call.incoming, bodyOptions, (parsed) => {',
        '      try {',
        '        rt.takeBody(call, parsed)',
        '        return s1(call)',
        '      } catch (e) {',
        '        return fail(call, e)',
        '      }',
        '    }, (e) => fail(call, e))',
      ].join('\n'),
    )
    expect(source).toContain('function s1(call) {')
    // A JSON body's members are validated as sent, not coerced from text.
    expect(source).toContain('const v = json !== undefined && Object.hasOwn(json, key) ? raw : Ck0(raw)')
    expect(source).toContain('if (rt.isThenable(v)) return Promise.resolve(v).then((x) => {')
  })

  it('an untyped, unguarded handler constructs, calls and replies: no binding, no guard', async () => {
    const app = await tree()
    const { lines } = explain(app.table, 'GET', '/users/posts/7', (h) => app.pipelineOf(h))
    expect(lines.find((l) => l.startsWith('  function '))).toMatch(
      /function {7}construct → read → distinct → invoke → reply;/,
    )
    expect(lines.join('\n')).not.toMatch(/the TypeScript types|issues|guard|isThenable\(w\)/)
  })
})
