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
    expect(error.message).toMatch(
      /GET \/user is claimed by both .*conflict\/controllers\/(index|user)\.ts .* and .*conflict\/controllers\/(index|user)\.ts/,
    )
  })
  it('refuses two module files that answer one path', async () => {
    const error = await startupError(fixture('conflict/modules'))
    expect(error.code).toBe('ROUTELESS_ERR_MODULE_CONFLICT')
    expect(error.message).toMatch(/foo-bar(\/index)?\.ts and .*foo-bar(\/index)?\.ts both answer \/foo-bar/)
  })
  it('serves two files that differ only by - and _ at their own spellings, with no alias, and warns', async () => {
    const app = await createApp(fixture('conflict/aliases'))
    expect(
      app.table
        .list()
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual(['GET /foo-bar', 'POST /foo_bar'])
    expect((await app.fetch(new Request('http://x/foo-bar'))).status).toBe(200)
    expect((await app.fetch(new Request('http://x/foo_bar', { method: 'POST' }))).status).toBe(200)
    // Neither spelling reaches the other file: the separator decides, so it is not an alias here.
    expect((await app.fetch(new Request('http://x/foo_bar'))).status).toBe(405)
    expect((await app.fetch(new Request('http://x/foo-bar', { method: 'POST' }))).status).toBe(405)
    expect(app.table.warnings).toEqual([
      expect.stringMatching(
        /^\/foo-bar \(.*aliases\/foo-bar\.ts\) and \/foo_bar \(.*aliases\/foo_bar\.ts\) differ only by - and _/,
      ),
    ])
  })
  it('names the file and line of a module that fails to load', async () => {
    const error = await startupError(fixture('conflict/broken'))
    expect(error.code).toBe('ROUTELESS_ERR_MODULE_LOAD')
    expect(error.message).toMatch(/broken\/index\.ts failed to load: top-level failure \(.*index\.ts:6:\d+\)/)
  })
  it('refuses an auth object that names something other than a handler method', async () => {
    const error = await startupError({
      modules: {
        '': {
          Default: class {
            static auth = { Post: () => {} }
            POST() {
              return 1
            }
          },
        },
      },
    })
    expect(error.code).toBe('ROUTELESS_ERR_AUTH_SPEC')
    expect(error.message).toMatch(/static auth for Post/)
  })
  it('names both handlers when a sub-resource and another handler could answer the same request', async () => {
    const catchAll = await startupError({
      modules: {
        items: {
          Default: class {
            GET(...rest: string[]) {
              return rest
            }
            GET_$_entries(id: string) {
              return id
            }
          },
        },
      },
    })
    expect(catchAll.code).toBe('ROUTELESS_ERR_ROUTE_AMBIGUOUS')
    expect(catchAll.message).toMatch(
      /GET \/items\/\{id\}\/entries \(<module items>: Default\.GET_\$_entries\) is ambiguous: <module items> \(Default\.GET\) at \/items takes 0 or more path parts/,
    )
    const twoRoutes = await startupError({
      modules: {
        items: {
          Default: class {
            GET_entries(x: string) {
              return x
            }
            GET_$_entries(id: string) {
              return id
            }
          },
        },
      },
    })
    expect(twoRoutes.code).toBe('ROUTELESS_ERR_ROUTE_AMBIGUOUS')
    expect(twoRoutes.message).toMatch(/Default\.GET_\$_entries.*Default\.GET_entries/)
    // Different methods never conflict: a POST sub-resource beside a GET catch-all is fine.
    await expect(
      createApp({
        modules: {
          items: {
            Default: class {
              GET(...rest: string[]) {
                return rest
              }
              POST_$_entries(id: string) {
                return id
              }
            },
          },
        },
      }),
    ).resolves.toBeDefined()
  })
  it('refuses a handler name with more $ placeholders than positional parameters', async () => {
    const error = await startupError({
      modules: {
        items: {
          Default: class {
            GET_$_entries() {
              return 1
            }
          },
        },
      },
    })
    expect(error.code).toBe('ROUTELESS_ERR_HANDLER_NAME')
    expect(error.message).toMatch(/Default\.GET_\$_entries\) has 1 \$ placeholder but takes 0 positional parameters/)
  })
  it('refuses a body limit that is not a whole number of bytes', async () => {
    for (const bodyLimit of [NaN, -1, 1.5])
      await expect(createApp({ modules: {} }, { bodyLimit })).rejects.toThrow(/bodyLimit must be a whole number/)
  })
  it("refuses CORS with origins '*' and credentials", async () => {
    await expect(createApp({ modules: {} }, { cors: { origins: '*', credentials: true } })).rejects.toThrow(
      /origins '\*' with credentials/,
    )
  })
  it('refuses a prefix that does not exist', async () => {
    const error = await startupError(fixture('no-such-dir'))
    expect(error.code).toBe('ROUTELESS_ERR_PREFIX_NOT_FOUND')
  })
  it('documents every start-up error code in the guide (docs/controllers.md, "Errors")', () => {
    const page = readFileSync(new URL('../../docs/controllers.md', import.meta.url), 'utf8')
    for (const code of Object.keys(ERROR_CODES)) expect(page).toContain(code)
  })
})

describe('Start-up warnings', () => {
  const warningsOf = async (modules: Record<string, Record<string, unknown>>) => {
    const warnings: string[] = []
    const app = await createApp({ modules }, { logger: { error: () => {}, warn: (m) => void warnings.push(m) } })
    expect(app.table.warnings).toEqual(warnings)
    return warnings
  }
  it('names file and class of methods that look like handlers but are not', async () => {
    const warnings = await warningsOf({
      '': {
        Default: class {
          GET() {
            return 1
          }
          get() {
            return 2
          }
          Get() {
            return 3
          }
          GET_() {
            return 4
          }
          GET_$() {
            return 5
          }
          GETbar() {
            return 6
          }
          getUser() {
            return 7
          }
        },
      },
    })
    expect(warnings).toHaveLength(5)
    for (const name of ['get', 'Get', 'GET_', 'GET_$', 'GETbar'])
      expect(warnings.join('\n')).toContain(`<module index>: Default.${name}() looks like a handler`)
  })
  it('warns about a tree with no handlers at all', async () => {
    expect(
      await warningsOf({
        '': {
          Default: class {
            get() {
              return 1
            }
          },
        },
      }),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/^No handlers found in <module index>/)]))
  })
  it('warns about names no request can reach, naming the file, and serves them nowhere', async () => {
    const warnings = await warningsOf({
      '': {
        Default: class {
          GET() {
            return 1
          }
        },
      },
      über: {
        Default: class {
          GET() {
            return 2
          }
        },
      },
      x: {
        lower: class {
          GET() {
            return 3
          }
        },
      },
    })
    expect(warnings).toEqual([
      '<module über>: no request path can name "über" (use lower-case letters, digits, dots, and - or _ between words): its controllers are not served',
      '<module x>: class lower has handlers but its name cannot name a path (export it under a name such as Lower)',
    ])
  })
  it('keeps a clean tree silent', async () => {
    expect(
      await warningsOf({
        '': {
          Default: class {
            GET() {
              return 1
            }
            GET_bar() {
              return 2
            }
            ANY() {
              return 3
            }
          },
        },
      }),
    ).toEqual([])
  })
})

describe('Module maps', () => {
  it('build the same table from already-imported modules (for bundlers)', async () => {
    const app = await createApp({
      modules: {
        '': {
          Default: class {
            GET() {
              return 'root'
            }
          },
        },
        'v1/items': async () => ({
          Default: class {
            GET(id = '') {
              return { id }
            }
          },
        }),
      },
    })
    expect(await (await app.request('/')).json()).toBe('root')
    expect(await (await app.request('/v1/items/3')).json()).toEqual({ id: '3' })
    expect(app.table.list().map((r) => `${r.method} ${r.path}`)).toEqual(['GET /', 'GET /v1/items'])
  })
})

describe('The application object', () => {
  it('answers through an unbound app.fetch (as serve({ fetch: app.fetch }) passes it)', async () => {
    const app = await createApp({
      modules: {
        '': {
          Default: class {
            GET() {
              return 'ok'
            }
          },
        },
      },
    })
    const { fetch } = app
    expect(await (await fetch(new Request('http://localhost/'))).json()).toBe('ok')
  })
})
