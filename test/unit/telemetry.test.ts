/** The telemetry's parts that need no server: route templates, the Host split, the peers' import, the version. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createApp, RoutelessError } from 'routeless'
import { VERSION } from '../../packages/routeless/src/runtime/base/version.ts'
import { templateOf, templatesOf } from '../../packages/routeless/src/runtime/routing/templates.ts'
import { splitHost } from '../../packages/routeless/src/runtime/wrappers/tracing.ts'
import { importPeer } from '../../packages/routeless/src/runtime/wrappers/telemetry.ts'
import { fixture } from '../_apps.ts'

describe('route templates', () => {
  it('are the paths routeless openapi lists, one per accepted number of path parts', async () => {
    const app = await createApp(fixture('telemetry'), { logger: { error: () => {} } })
    const documented = Object.keys(app.openapi().paths as object)
    for (const h of app.table.handlers()) {
      if (h.method === 'WEBSOCKET') continue
      for (const path of templatesOf(h).paths) expect(documented, `${h.className}.${h.name}`).toContain(path)
    }
  })
  it('pick the template by the number of path parts, a rest parameter’s extra parts sharing the last', async () => {
    const app = await createApp(
      {
        modules: {
          files: {
            Default: class {
              GET(...parts: string[]) {
                return parts
              }
            },
          },
          users: {
            Default: class {
              GET(id = '') {
                return id
              }
            },
          },
        },
      },
      { types: 'off' },
    )
    const handler = (path: string) => [...app.table.handlers()].find((h) => h.path === path)!
    expect(templateOf(handler('/users'), 0)).toBe('/users')
    expect(templateOf(handler('/users'), 1)).toBe('/users/{id}')
    expect(templateOf(handler('/files'), 0)).toBe('/files')
    expect(templateOf(handler('/files'), 1)).toBe('/files/{parts}')
    expect(templateOf(handler('/files'), 5)).toBe('/files/{parts}')
  })
})

describe('splitHost', () => {
  it('splits names, IPv4 and IPv6 authorities into address and port', () => {
    expect(splitHost('example.com')).toEqual({ address: 'example.com', port: undefined })
    expect(splitHost('example.com:8080')).toEqual({ address: 'example.com', port: 8080 })
    expect(splitHost('127.0.0.1:80')).toEqual({ address: '127.0.0.1', port: 80 })
    expect(splitHost('[::1]:8443')).toEqual({ address: '::1', port: 8443 })
    expect(splitHost('[::1]')).toEqual({ address: '::1', port: undefined })
    expect(splitHost('host:notaport')).toEqual({ address: 'host', port: undefined })
  })
})

describe('the optional peers', () => {
  it('names the package to install when tracing or metrics asks for one that is missing', async () => {
    const missing = () => import(/* @vite-ignore */ ['no-such-package', 'routeless-test'].join('-'))
    expect(await importPeer(missing, '@opentelemetry/api', false)).toBeUndefined()
    const error = await importPeer(missing, 'prom-client', true).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RoutelessError)
    expect((error as RoutelessError).code).toBe('ROUTELESS_ERR_TELEMETRY')
    expect((error as Error).message).toBe('metrics needs the optional peer prom-client: npm i prom-client')
  })
  it('lets any other failure of a required peer through, and leaves tracing off when detection cannot import it', async () => {
    const broken = () => Promise.reject(new SyntaxError('Unexpected token'))
    await expect(importPeer(broken, 'prom-client', true)).rejects.toThrow(SyntaxError)
    expect(await importPeer(broken, '@opentelemetry/api', false)).toBeUndefined()
  })
})

it('reports the version package.json has', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../packages/routeless/package.json', import.meta.url), 'utf8'))
  expect(VERSION).toBe(pkg.version)
})

describe('with neither tracing nor metrics', () => {
  it('does no telemetry work per request: no second resolution, no wrapper', async () => {
    const make = (metrics: boolean) =>
      createApp(fixture('telemetry'), { logger: { error: () => {} }, tracing: false, metrics })
    for (const metrics of [false, true]) {
      const app = await make(metrics)
      // Each resolution walks the table from its root: the core's, and the metrics' route template (`routeOf`).
      let walks = 0
      const table = app.table
      app.table = new Proxy(table, {
        get: (target, key) => (key === 'root' && walks++, Reflect.get(target, key, target)),
      })
      expect((await app.request('/users/7')).status).toBe(200)
      expect(walks, `metrics: ${metrics}`).toBe(metrics ? 2 : 1)
    }
  })
})
