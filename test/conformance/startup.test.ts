import { describe, expect, it } from 'vitest'
import { createApp, ERROR_CODES, RoutelessError } from 'routeless'
import { readFileSync } from 'node:fs'
import { fixture } from '../_apps.ts'

async function startupError(source: Parameters<typeof createApp>[0]): Promise<RoutelessError> {
  try {
    await createApp(source)
  } catch (error) {
    expect(error).toBeInstanceOf(RoutelessError)
    return error as RoutelessError
  }
  throw new Error('expected a start-up error')
}

describe('Start-up errors', () => {
  it('names both files when two controllers claim one method on one path', async () => {
    const error = await startupError(fixture('conflict/controllers'))
    expect(error.code).toBe('ROUTELESS_ERR_ROUTE_CONFLICT')
    expect(error.message).toMatch(/GET \/user is claimed by both .*conflict\/controllers\/(index|user)\.ts .* and .*conflict\/controllers\/(index|user)\.ts/)
  })
  it('refuses two module files that answer one path', async () => {
    const error = await startupError(fixture('conflict/modules'))
    expect(error.code).toBe('ROUTELESS_ERR_MODULE_CONFLICT')
    expect(error.message).toMatch(/foo[-_]bar\.ts and .*foo[-_]bar\.ts both answer/)
  })
  it('names the file and line of a module that fails to load', async () => {
    const error = await startupError(fixture('conflict/broken'))
    expect(error.code).toBe('ROUTELESS_ERR_MODULE_LOAD')
    expect(error.message).toMatch(/broken\/index\.ts failed to load: top-level failure \(.*index\.ts:6:\d+\)/)
  })
  it('refuses an auth object that names something other than a handler method', async () => {
    const error = await startupError({ modules: { '': { Default: class { static auth = { Post: () => {} }; POST() { return 1 } } } } })
    expect(error.code).toBe('ROUTELESS_ERR_AUTH_SPEC')
    expect(error.message).toMatch(/static auth for Post/)
  })
  it('refuses a body limit that is not a whole number of bytes', async () => {
    for (const bodyLimit of [NaN, -1, 1.5]) await expect(createApp({ modules: {} }, { bodyLimit })).rejects.toThrow(/bodyLimit must be a whole number/)
  })
  it("refuses CORS with origins '*' and credentials", async () => {
    await expect(createApp({ modules: {} }, { cors: { origins: '*', credentials: true } })).rejects.toThrow(/origins '\*' with credentials/)
  })
  it('refuses a prefix that does not exist', async () => {
    const error = await startupError(fixture('no-such-dir'))
    expect(error.code).toBe('ROUTELESS_ERR_PREFIX_NOT_FOUND')
  })
  it('documents every start-up error code in the README', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    for (const code of Object.keys(ERROR_CODES)) expect(readme).toContain(code)
  })
})

describe('Module maps', () => {
  it('build the same table from already-imported modules (for bundlers)', async () => {
    const app = await createApp({ modules: { '': { Default: class { GET() { return 'root' } } }, 'v1/items': async () => ({ Default: class { GET(id = '') { return { id } } } }) } })
    expect(await (await app.request('/')).json()).toBe('root')
    expect(await (await app.request('/v1/items/3')).json()).toEqual({ id: '3' })
    expect(app.table.list().map((r) => `${r.method} ${r.path}`)).toEqual(['GET /', 'GET /v1/items'])
  })
})

describe('The application object', () => {
  it('answers through an unbound app.fetch (as serve({ fetch: app.fetch }) passes it)', async () => {
    const app = await createApp({ modules: { '': { Default: class { GET() { return 'ok' } } } } })
    const { fetch } = app
    expect(await (await fetch(new Request('http://localhost/'))).json()).toBe('ok')
  })
})
