/**
 * The resolver's memory of static paths (`RouteTable.staticPaths`): a path that named an endpoint through the tree's
 * segments alone is answered again without a walk, with the same resolution; nothing else is remembered.
 */
import { describe, expect, it } from 'vitest'
import { createAppFromModules, resolve } from 'routeless'
import { FEW_CHILDREN, STATIC_LENGTHS } from '../../packages/routeless/src/runtime/routing/table.ts'

class Default {
  GET() {
    return 'root'
  }
}
class StyleRules {
  GET(id = 'all') {
    return id
  }
  POST() {
    return 'made'
  }
}
class Users {
  GET_$_posts(user: string, post: string) {
    return [user, post]
  }
}

async function table() {
  const app = await createAppFromModules({ '': { Default, StyleRules, Users } })
  return app.table
}

describe('the resolver remembers static paths', () => {
  it('answers a remembered path as the walk does, with a new arguments array each time', async () => {
    const t = await table()
    const first = resolve(t, 'GET', '/style-rules')
    expect([...t.staticPaths.keys()]).toEqual(['/style-rules'])
    const again = resolve(t, 'GET', '/style-rules')
    expect(again).toEqual(first)
    expect(again.kind === 'match' && first.kind === 'match' && again.args !== first.args).toBe(true)
    // the method is still decided per request
    expect(resolve(t, 'POST', '/style-rules').kind).toBe('match')
    expect(resolve(t, 'DELETE', '/style-rules').kind).toBe('method-not-allowed')
    expect(resolve(t, 'HEAD', '/style-rules')).toMatchObject({ kind: 'match', head: true })
    expect(resolve(t, 'BREW', '/style-rules').kind).toBe('not-implemented')
    expect(resolve(t, 'GET', '/')).toMatchObject({ kind: 'match', args: [] })
    expect(t.staticPaths.has('/')).toBe(true)
  })

  it('remembers no path with arguments, empty parts or escapes', async () => {
    const t = await table()
    for (const path of ['/style-rules/7', '/style-rules/', '//style-rules', '/style%2Drules'])
      expect(resolve(t, 'GET', path).kind, path).toBe('match')
    expect(resolve(t, 'GET', '/users/1/posts/2')).toMatchObject({ kind: 'match', args: ['1', '2'] })
    expect(resolve(t, 'GET', '/nowhere').kind).toBe('not-found')
    expect([...t.staticPaths.keys()]).toEqual([])
  })

  it('compares a path with the few remembered of its length, looks it up where more are, never where none is', async () => {
    const long = 'x'.repeat(STATIC_LENGTHS + 10)
    // Six endpoints at paths of one length (`/aaaa`…`/ffff`), more than FEW_STATIC.
    const same = Object.fromEntries(['aaaa', 'bbbb', 'cccc', 'dddd', 'eeee', 'ffff'].map((n) => [n, { Default }]))
    const t = (await createAppFromModules({ '': { Default, StyleRules, Users }, [long]: { Default }, ...same })).table
    const lookups: string[] = []
    const get = t.staticPaths.get.bind(t.staticPaths)
    t.staticPaths.get = (path: string) => {
      lookups.push(path)
      return get(path)
    }
    expect(resolve(t, 'GET', '/style-rules').kind).toBe('match')
    expect(t.staticByLength['/style-rules'.length]!.map((k) => k.path)).toEqual(['/style-rules'])
    expect(resolve(t, 'GET', '/style-rules').kind).toBe('match')
    expect(resolve(t, 'GET', '/users/1/posts/2')).toMatchObject({ kind: 'match', args: ['1', '2'] })
    expect(resolve(t, 'GET', '/style-rules/7')).toMatchObject({ kind: 'match', args: ['7'] })
    expect(resolve(t, 'GET', '/nowhere-xyz').kind).toBe('not-found') // as long as /style-rules: compared, no match
    expect(lookups).toEqual([]) // a few of one length are compared, not looked up
    // Up to FEW_STATIC of one length are compared; with more, the length is looked up.
    for (const n of ['aaaa', 'bbbb', 'cccc', 'dddd']) expect(resolve(t, 'GET', `/${n}`).kind).toBe('match')
    expect(t.staticByLength[5]!.map((k) => k.path)).toEqual(['/aaaa', '/bbbb', '/cccc', '/dddd'])
    for (const n of ['eeee', 'ffff', 'aaaa', 'ffff']) expect(resolve(t, 'GET', `/${n}`).kind).toBe('match')
    expect(t.staticByLength[5]).toBeNull()
    expect(lookups).toEqual(['/ffff', '/aaaa', '/ffff'])
    lookups.length = 0
    for (let i = 0; i < 2; i++) expect(resolve(t, 'GET', `/${long}`)).toMatchObject({ kind: 'match', args: [] })
    expect(lookups).toEqual([`/${long}`, `/${long}`])
    expect(t.staticPaths.has(`/${long}`)).toBe(true)
  })

  it('reads the path of a target up to its end (the query left where it is), as the path cut out of it', async () => {
    const t = await table()
    for (const [target, path] of [
      ['/style-rules?x=1', '/style-rules'],
      ['/style-rules/7?x=/a/..', '/style-rules/7'],
      ['/users/1/posts/2?', '/users/1/posts/2'],
      ['/users/1/posts/2/more?x', '/users/1/posts/2/more'],
      ['/nowhere?x', '/nowhere'],
      ['/style-rules/%2e%2e?x', '/style-rules/%2e%2e'],
    ])
      expect(resolve(t, 'GET', target, path.length), target).toEqual(resolve(t, 'GET', path))
    // remembered without the query, and found again with another one or none
    expect([...t.staticPaths.keys()]).toEqual(['/style-rules'])
    expect(resolve(t, 'GET', '/style-rules?y=2', '/style-rules'.length)).toMatchObject({ kind: 'match', args: [] })
    expect(resolve(t, 'GET', '/style-rulez?y=2', '/style-rulez'.length).kind).toBe('not-found')
  })

  it('finds a child among a few named ones as among many (compared below nine, looked up beyond)', async () => {
    for (const count of [1, FEW_CHILDREN, FEW_CHILDREN + 1, 20]) {
      const names = Array.from({ length: count }, (_, i) => `m${i}`)
      const t = (await createAppFromModules(Object.fromEntries(names.map((n) => [n, { Default, Users }])))).table
      expect(t.root.names === null, `${count}`).toBe(count > FEW_CHILDREN)
      for (const n of names) {
        expect(resolve(t, 'GET', `/${n}`)).toMatchObject({ kind: 'match', args: [] })
        expect(resolve(t, 'GET', `/${n}/users/1/posts/2`)).toMatchObject({ kind: 'match', args: ['1', '2'] })
      }
      for (const miss of ['/m', `/m${count}`, '/m0x', '/users', '/M0'])
        expect(resolve(t, 'GET', miss).kind, `${count} ${miss}`).toBe('not-found')
    }
  })

  it('remembers a segment as written, not as reached through its alias', async () => {
    const t = (await createAppFromModules({ '': { Default }, style_rules: { Default } })).table
    expect(resolve(t, 'GET', '/style-rules').kind).toBe('match')
    expect([...t.staticPaths.keys()]).toEqual([])
    expect(resolve(t, 'GET', '/style_rules').kind).toBe('match')
    expect([...t.staticPaths.keys()]).toEqual(['/style_rules'])
  })
})
