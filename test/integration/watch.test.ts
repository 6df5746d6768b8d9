import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp, watchControllers, type Watcher } from 'routeless'

let dir = ''
let watcher: Watcher | undefined
afterEach(() => {
  watcher?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('Watch mode', () => {
  it('rebuilds the table on change, keeps serving, and survives a broken module', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'routeless-watch-'))
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}')
    writeFileSync(path.join(dir, 'index.mjs'), 'export class Default { GET() { return "v1" } }\n')
    const app = await createApp(dir)
    const errors: unknown[] = []
    watcher = watchControllers(app, [dir], { debounceMs: 100, onError: (e) => errors.push(e) })
    expect(await (await app.request('/')).json()).toBe('v1')

    let reload = watcher.nextReload()
    writeFileSync(path.join(dir, 'index.mjs'), 'export class Default { GET() { return "v2" } }\n')
    writeFileSync(path.join(dir, 'extra.mjs'), 'export class Default { GET() { return "new module" } }\n')
    await reload
    expect(await (await app.request('/')).json()).toBe('v2')
    expect(await (await app.request('/extra')).json()).toBe('new module')

    reload = watcher.nextReload()
    writeFileSync(path.join(dir, 'index.mjs'), 'export class Default { GET() { return "v3" }\n')
    await reload
    expect(errors).toHaveLength(1)
    expect(String((errors[0] as Error).message)).toMatch(/index\.mjs failed to load/)
    expect(await (await app.request('/')).json()).toBe('v2')
  })
  it('analyses again, on a reload, only the typed controller that was edited', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'routeless-watch-types-'))
    const controllers = path.join(dir, 'controllers')
    mkdirSync(controllers)
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}')
    const handler = (type: string) => `export class Default {\n  GET(n: ${type}) {\n    return n\n  }\n}\n`
    writeFileSync(path.join(controllers, 'a.ts'), handler('number'))
    writeFileSync(path.join(controllers, 'b.ts'), handler('number'))
    const app = await createApp('controllers', { cwd: dir, logger: { warn() {}, error() {} } })
    expect(app.table.analysed.sort()).toEqual(['controllers/a.ts', 'controllers/b.ts'])
    watcher = watchControllers(app, ['controllers'], { cwd: dir, debounceMs: 100 })
    expect((await app.request('/b/true')).status).toBe(400)

    const reload = watcher.nextReload()
    writeFileSync(path.join(controllers, 'b.ts'), handler('boolean'))
    await reload
    expect(app.table.types).toBe('analysis')
    expect(app.table.analysed).toEqual(['controllers/b.ts'])
    expect((await app.request('/b/true')).status).toBe(200)
    expect((await app.request('/a/true')).status).toBe(400)
    const manifest = JSON.parse(readFileSync(path.join(dir, '.routeless/manifest.json'), 'utf8'))
    expect(manifest.handlers['controllers/b.ts#Default.GET'].positional[0].schema).toEqual({ type: 'boolean' })
  })
})
