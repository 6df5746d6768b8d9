import { expect, it } from 'vitest'
import { describeTargets } from '../_targets.ts'
import { fixtureApp } from '../_apps.ts'

describeTargets('Document 3 example', fixtureApp('basic'), (t) => {
  it('answers / with the Default handler as a JSON string', async () => {
    const res = await t().request('/')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await res.text()).toBe('"Default handler"')
  })
  it('answers /foo with class Foo', async () => {
    expect(await (await t().request('/foo')).text()).toBe('"Foo handler"')
  })
  it('passes a form field as a keyword argument', async () => {
    const res = await t().request('/', {
      method: 'POST',
      body: 'name=Awesome+you',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(await res.text()).toBe('"hello Awesome you"')
  })
})

describeTargets('Modules, classes and Default', fixtureApp('tree'), (t) => {
  const get = async (path: string, init?: RequestInit) => {
    const res = await t().request(path, init)
    return { status: res.status, body: res.status === 200 ? await res.json() : await res.text() }
  }
  it('uses the root Default for / and keeps unmatched parts positional', async () => {
    expect(await get('/')).toEqual({ status: 200, body: { at: 'index.Default', parts: [] } })
    expect(await get('/nothing/here')).toEqual({
      status: 200,
      body: { at: 'index.Default', parts: ['nothing', 'here'] },
    })
  })
  it('maps foo-bar and foo_bar to class FooBar', async () => {
    expect((await get('/foo-bar')).body).toEqual({ at: 'index.FooBar' })
    expect((await get('/foo_bar')).body).toEqual({ at: 'index.FooBar' })
  })
  it('selects a module file and its Default', async () => {
    expect((await get('/users')).body).toEqual({ at: 'users.Default', id: '' })
    expect((await get('/users/42')).body).toEqual({ at: 'users.Default', id: '42' })
  })
  it('selects a class inside a module', async () => {
    expect((await get('/users/posts/7')).body).toEqual({ at: 'users.Posts', postId: '7' })
  })
  it('descends into a folder next to a module of the same name', async () => {
    expect((await get('/users/profile')).body).toEqual({ at: 'users/profile.Default' })
  })
  it('descends into a folder without index.ts', async () => {
    expect((await get('/v3/status/job_1')).body).toEqual({ at: 'v3/status.Default', jobId: 'job_1' })
  })
  it('lets a folder without index.ts answer nothing itself (404: no fallback to the root Default)', async () => {
    expect((await get('/v3')).status).toBe(404)
    expect((await get('/v3/nothing')).status).toBe(404)
  })
  it('uses a folder index.ts as the folder module, goes as deep as modules exist', async () => {
    expect((await get('/a')).body).toEqual({ at: 'a/index.Default', rest: [] })
    expect((await get('/a/zzz')).body).toEqual({ at: 'a/index.Default', rest: ['zzz'] })
    expect((await get('/a/b')).body).toEqual({ at: 'a/b.Default' })
    expect((await get('/a/b/c/9')).body).toEqual({ at: 'a/b.C', x: '9' })
  })
  it('selects classes and modules only with the documented spelling (lower case, single - or _)', async () => {
    for (const path of ['/Foo-Bar', '/fooBar', '/foo--bar', '/-foo-bar', '/foo-bar-', '/Users/posts/7', '/USERS']) {
      const res = await get(path)
      // Not a class match: the root Default takes the parts as positional arguments.
      expect(res.body, path).toEqual({ at: 'index.Default', parts: path.split('/').filter(Boolean) })
    }
  })
  it('maps kebab-case file names', async () => {
    expect((await get('/developer-keys', { method: 'PUT' })).body).toEqual({ at: 'developer-keys.Default' })
    expect((await get('/developer_keys', { method: 'PUT' })).body).toEqual({ at: 'developer-keys.Default' })
  })
  it('never routes _private modules, test files, plain functions or classes without handlers', async () => {
    expect((await get('/_private')).body).toEqual({ at: 'index.Default', parts: ['_private'] })
    expect((await get('/helper')).body).toEqual({ at: 'index.Default', parts: ['helper'] })
    expect((await get('/users', { method: 'DELETE' })).status).toBe(405)
  })
  it('ignores empty path parts and a trailing slash', async () => {
    expect((await get('/users/posts/7/')).body).toEqual({ at: 'users.Posts', postId: '7' })
    expect((await get('/users//posts/7')).body).toEqual({ at: 'users.Posts', postId: '7' })
  })
  it('decodes positional arguments', async () => {
    expect((await get('/users/a%20b%C3%A9')).body).toEqual({ at: 'users.Default', id: 'a bé' })
  })
  it('answers 404 for more positional parts than the handler accepts', async () => {
    const res = await t().request('/users/1/2')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({
      status: 404,
      error: 'Not Found',
      message: 'No controller answers GET /users/1/2',
    })
  })
  it('answers 404 for fewer positional parts than the handler needs', async () => {
    expect((await get('/users/posts')).status).toBe(404)
  })
})

describeTargets('A module and a class answering one path', fixtureApp('merge/controllers'), (t) => {
  it('merges their methods', async () => {
    expect(await (await t().request('/user')).text()).toBe('"User.GET from index.ts"')
    expect(await (await t().request('/user', { method: 'POST' })).text()).toBe('"Default.POST from user.ts"')
    const options = await t().request('/user', { method: 'OPTIONS' })
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS')
  })
})

describeTargets('Several prefixes', fixtureApp(['multi/one', 'multi/two']), (t) => {
  it('share one root', async () => {
    expect(await (await t().request('/')).text()).toBe('"root from one"')
    expect(await (await t().request('/alpha')).text()).toBe('"alpha from one"')
    expect(await (await t().request('/beta')).text()).toBe('"beta from two"')
  })
})

describeTargets('A single module file as prefix', fixtureApp('single/api.ts'), (t) => {
  it('is the root module', async () => {
    expect(await (await t().request('/')).text()).toBe('"single module root"')
    expect(await (await t().request('/ping')).text()).toBe('"pong"')
  })
})

describeTargets('JavaScript controllers', fixtureApp('js'), (t) => {
  it('loads .js and .mjs modules', async () => {
    expect(await (await t().request('/')).text()).toBe('"from .js"')
    expect(await (await t().request('/other/5')).json()).toEqual({ from: '.mjs', id: '5' })
  })
})
