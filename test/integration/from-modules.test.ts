/**
 * `createAppFromModules`: an application from modules given directly (what a bundle does), typed by a manifest
 * object, reading no file; several prefixes as a list with roots; a Workers `ctx` reaching `this.env.waitUntil`.
 */
import { describe, expect, it } from 'vitest'
import { createAppFromModules, type Manifest } from 'routeless'
import { manifestOf, register } from '../_runtimes.ts'
import { fixture } from '../_apps.ts'
import * as typed from '../fixtures/typed/index.ts'
import * as alpha from '../fixtures/multi/one/alpha.ts'
import * as one from '../fixtures/multi/one/index.ts'
import * as beta from '../fixtures/multi/two/beta.ts'

const quiet = { error: () => {}, warn: () => {} }

describe('createAppFromModules', { timeout: 60_000 }, () => {
  it('binds by the manifest as createApp does: coercion, 400s', async () => {
    register({ prefixes: [fixture('typed')], options: {} })
    const manifest: Manifest = await manifestOf([fixture('typed')])
    const app = await createAppFromModules([{ path: '', exports: typed, file: 'test/fixtures/typed/index.ts' }], {
      manifest,
      logger: quiet,
    })
    expect(app.table.types).toBe('manifest')
    expect(await (await app.request('/add/1/2')).json()).toBe(3)
    const bad = await app.request('/add/1/x')
    expect(bad.status).toBe(400)
    expect((await bad.json()).message).toMatch(/^Invalid parameters: b: /)
  })

  it('binds by name without a manifest (types off), and says so nowhere it would read a file', async () => {
    const app = await createAppFromModules({ '': typed }, { logger: quiet })
    expect(app.table.types).toBe('none')
    expect(await (await app.request('/add/1/2')).json()).toBe('12')
  })

  it('merges several prefixes given as roots, as createApp does with two directories', async () => {
    const app = await createAppFromModules(
      [
        { path: '', exports: one, root: 'one' },
        { path: 'alpha', exports: alpha, root: 'one' },
        { path: 'beta', exports: beta, root: 'two' },
      ],
      { logger: quiet },
    )
    const reference = await (await import('routeless')).createApp([fixture('multi/one'), fixture('multi/two')], {
      logger: quiet,
      types: 'off',
    })
    expect(app.table.list().map((r) => `${r.method} ${r.path}`)).toEqual(
      reference.table.list().map((r) => `${r.method} ${r.path}`),
    )
  })

  it('refuses a module without exports, naming it', async () => {
    await expect(createAppFromModules([{ path: 'users', exports: null as never }])).rejects.toThrow(
      'createAppFromModules: module "users" has no exports',
    )
    await expect(createAppFromModules([{ exports: {} } as never])).rejects.toThrow(
      'createAppFromModules: module 0 must be { path, exports }',
    )
  })

  it("adds a Workers ctx's waitUntil to this.env, leaving the host's env untouched", async () => {
    const app = await createAppFromModules(
      {
        '': {
          Default: class {
            declare env: Record<string, unknown>
            GET() {
              ;(this.env.waitUntil as (p: Promise<unknown>) => void)(Promise.resolve('later'))
              return Object.keys(this.env).sort()
            }
          },
        },
      },
      { logger: quiet },
    )
    const waited: Promise<unknown>[] = []
    const env = { KV: 'binding' }
    const res = await app.fetch(new Request('http://x/'), env, { waitUntil: (p) => void waited.push(p) })
    expect(await res.json()).toEqual(['KV', 'waitUntil'])
    expect(await waited[0]).toBe('later')
    expect(env).toEqual({ KV: 'binding' })
  })
})
