/**
 * TypeScript 7's async API behind the synchronous `TypeReader` (compiler/analysis/reader-bridge.ts: a worker, a facade of
 * proxies), run here under node, where the sync API runs too: both read the same manifest from the same controllers.
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { fixture } from '../_apps.ts'
import { analyze, loadTypeScript } from '../../packages/routeless/src/compiler/analysis/analyze.ts'
import { bridgedCompiler } from '../../packages/routeless/src/compiler/analysis/reader-bridge.ts'

describe('the async API bridge', () => {
  it('reads the same signatures as the sync API', async () => {
    const dir = fixture('typed')
    const inputs = ['index.ts', 'servers.ts', 'scripted.js'].map((f) => ({
      file: path.join(dir, f),
      module: f === 'index.ts' ? '' : f.replace(/\.[jt]s$/, ''),
    }))
    const sync = (await loadTypeScript(dir))!
    expect(sync.backend).toBe('native')
    const require = createRequire(path.join(dir, 'package.json'))
    const url = (s: string) => pathToFileURL(require.resolve(s)).href
    const bridged = await bridgedCompiler(sync.version, {
      async: url('typescript/unstable/async'),
      ast: url('typescript/unstable/ast'),
    })
    const expected = analyze(sync, inputs, dir)
    const actual = analyze(bridged, inputs, dir)
    expect(Object.keys(actual.handlers).length).toBeGreaterThan(10)
    expect(actual).toEqual(expected)
  }, 120_000)

  it('answers undefined for a file outside the program, the classes of one in it, and closes', async () => {
    const dir = fixture('typed')
    const sync = (await loadTypeScript(dir))!
    const require = createRequire(path.join(dir, 'package.json'))
    const url = (s: string) => pathToFileURL(require.resolve(s)).href
    const bridged = await bridgedCompiler(sync.version, {
      async: url('typescript/unstable/async'),
      ast: url('typescript/unstable/ast'),
    })
    const reader = bridged.open([path.join(dir, 'index.ts')], dir)
    try {
      expect(reader.classes(path.join(dir, 'nowhere.ts'))).toBeUndefined()
      expect(reader.classes(path.join(dir, 'index.ts'))?.some((c) => c.name === 'Add')).toBe(true)
    } finally {
      reader.close()
    }
  }, 120_000)
})
