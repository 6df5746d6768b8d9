/**
 * `--watch` with TypeScript 7's checker kept open (compiler/analysis/kept-analysis.ts, native-session.ts): one checker
 * process from the watcher's start to its close, told which files changed at each reload. The reloaded app binds by
 * the edited types: a parameter's type changed, a type changed in a local module a controller imports, a controller
 * added, one removed; and the process is gone after `close()`. Real files in a temporary directory, the repository's
 * TypeScript 7.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp, watchControllers, type Watcher } from 'routeless'
import { checkerProcesses } from '../_checker-processes.ts'

let dir = ''
let watcher: Watcher | undefined
afterEach(() => {
  watcher?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function until<T>(value: () => T, accept: (v: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms
  let v = value()
  while (!accept(v) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50))
    v = value()
  }
  return v
}

const handler = (type: string, imports = '') =>
  `${imports}export class Default {\n  GET(n: ${type}) {\n    return n\n  }\n}\n`

describe('Watch mode with a kept TypeScript 7 checker', () => {
  it('binds by the edited types through one checker process, and stops it on close', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'routeless-watch-checker-'))
    const controllers = path.join(dir, 'controllers')
    mkdirSync(path.join(controllers, '_lib'), { recursive: true })
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}')
    const file = (name: string) => path.join(controllers, name)
    writeFileSync(file('a.ts'), handler('number'))
    writeFileSync(file('_lib/kinds.ts'), "export type Kind = 'x' | 'y'\n")
    writeFileSync(file('b.ts'), handler('Kind', "import type { Kind } from './_lib/kinds.ts'\n"))
    const app = await createApp('controllers', { cwd: dir, logger: { warn() {}, error() {} } })
    expect(app.table.types).toBe('analysis')
    expect(checkerProcesses()).toEqual([])
    const errors: unknown[] = []
    watcher = watchControllers(app, ['controllers'], { cwd: dir, debounceMs: 50, onError: (e) => errors.push(e) })
    const status = async (url: string) => (await app.request(url)).status
    const edit = async (change: () => void) => {
      const reload = watcher!.nextReload()
      change()
      await reload
      expect(errors).toEqual([])
    }

    // The checker starts with the watcher, before any edit.
    const [pid] = await until(checkerProcesses, (p) => p.length > 0)
    expect(pid).toBeGreaterThan(0)

    // A parameter's type.
    expect([await status('/a/true'), await status('/a/3')]).toEqual([400, 200])
    await edit(() => writeFileSync(file('a.ts'), handler('boolean')))
    expect(app.table.analysed).toEqual(['controllers/a.ts'])
    expect([await status('/a/true'), await status('/a/3')]).toEqual([200, 400])

    // A type declared in a local module the controller imports.
    expect([await status('/b/x'), await status('/b/y'), await status('/b/z')]).toEqual([200, 200, 400])
    await edit(() => writeFileSync(file('_lib/kinds.ts'), "export type Kind = 'x' | 'z'\n"))
    expect(app.table.analysed).toEqual(['controllers/b.ts'])
    expect([await status('/b/x'), await status('/b/y'), await status('/b/z')]).toEqual([200, 400, 200])

    // A controller added.
    await edit(() => writeFileSync(file('c.ts'), handler('number')))
    expect(app.table.analysed).toEqual(['controllers/c.ts'])
    expect([await status('/c/x'), await status('/c/3')]).toEqual([400, 200])

    // A controller removed, then another edited: the analysis goes on without it.
    await edit(() => rmSync(file('a.ts')))
    expect(await status('/a/true')).toBe(404)
    await edit(() => writeFileSync(file('c.ts'), handler("'on' | 'off'")))
    expect(app.table.analysed).toEqual(['controllers/c.ts'])
    expect([await status('/c/3'), await status('/c/on')]).toEqual([400, 200])

    // A local module added and imported.
    writeFileSync(file('_lib/level.ts'), 'export type Level = 1 | 2\n')
    await edit(() => writeFileSync(file('c.ts'), handler('Level', "import type { Level } from './_lib/level.ts'\n")))
    expect([await status('/c/2'), await status('/c/3')]).toEqual([200, 400])

    // One process throughout, gone after close.
    expect(checkerProcesses()).toEqual([pid])
    watcher.close()
    watcher = undefined
    expect(await until(checkerProcesses, (p) => p.length === 0, 5_000)).toEqual([])
  }, 180_000)

  it('opens a checker per reload with keepChecker: false, and leaves none running', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'routeless-watch-fresh-'))
    const controllers = path.join(dir, 'controllers')
    mkdirSync(controllers)
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}')
    writeFileSync(path.join(controllers, 'a.ts'), handler('number'))
    const app = await createApp('controllers', { cwd: dir, logger: { warn() {}, error() {} } })
    watcher = watchControllers(app, ['controllers'], { cwd: dir, debounceMs: 50, keepChecker: false })
    const reload = watcher.nextReload()
    writeFileSync(path.join(controllers, 'a.ts'), handler('boolean'))
    await reload
    expect(app.table.analysed).toEqual(['controllers/a.ts'])
    expect((await app.request('/a/true')).status).toBe(200)
    expect(await until(checkerProcesses, (p) => p.length === 0, 5_000)).toEqual([])
  }, 120_000)
})
