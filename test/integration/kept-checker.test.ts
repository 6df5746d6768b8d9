/**
 * The kept checker of `--watch` (compiler/analysis/kept-analysis.ts over native-session.ts): edit after edit, it
 * writes the manifest a fresh checker writes — a parameter's type changed, a type in an imported local module changed,
 * a file added, a file removed, a module imported before it exists then written, deleted and written again — through TypeScript 7's sync API, and through its async API behind the worker bridge
 * (reader-bridge.ts, as on Bun and Deno).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { analyze, loadTypeScript } from '../../packages/routeless/src/compiler/analysis/analyze.ts'
import { KeptChecking } from '../../packages/routeless/src/compiler/analysis/kept-analysis.ts'
import { bridgedCompiler } from '../../packages/routeless/src/compiler/analysis/reader-bridge.ts'

let dir = ''
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const handler = (type: string, imports = '') =>
  `${imports}export class Default {\n  GET(n: ${type}) {\n    return n\n  }\n}\n`

/** A project of two controllers (`b.ts` imports its type from `_lib/kinds.ts`) and the edits made to it, in order. */
function project() {
  dir = mkdtempSync(path.join(tmpdir(), 'routeless-kept-'))
  mkdirSync(path.join(dir, '_lib'))
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}')
  const write = (name: string, text: string) => () => writeFileSync(path.join(dir, name), text)
  write('a.ts', handler('number'))()
  write('_lib/kinds.ts', "export type Kind = 'x' | 'y'\n")()
  write('b.ts', handler('Kind', "import type { Kind } from './_lib/kinds.ts'\n"))()
  const edits = [
    () => {},
    write('a.ts', handler('boolean')),
    write('_lib/kinds.ts', "export type Kind = 'x' | 'z'\n"),
    write('c.ts', handler('string[]')),
    () => rmSync(path.join(dir, 'a.ts')),
    write('b.ts', handler('Level', "import type { Level } from './_lib/level.ts'\n")),
  ]
  // The file `b.ts` imports last is created with it.
  const last = edits.length - 1
  const finalEdit = edits[last]!
  edits[last] = () => {
    writeFileSync(path.join(dir, '_lib/level.ts'), 'export type Level = 1 | 2\n')
    finalEdit()
  }
  // A module imported before it exists, then written (the importer unchanged); deleted, then written again.
  edits.push(
    write('c.ts', handler('Later', "import type { Later } from './_lib/later.ts'\n")),
    write('_lib/later.ts', 'export type Later = 3 | 4\n'),
    () => rmSync(path.join(dir, '_lib/later.ts')),
    write('_lib/later.ts', 'export type Later = 5 | 6\n'),
  )
  const inputs = () =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => ({ file: path.join(dir, f), module: f.slice(0, -3) }))
  return { edits, inputs }
}

describe('a kept TypeScript 7 checker', () => {
  it('writes what a fresh checker writes, edit after edit (the sync API)', async () => {
    const { edits, inputs } = project()
    const fresh = (await loadTypeScript(dir))!
    expect(fresh.backend).toBe('native')
    const kept = new KeptChecking()
    try {
      for (const edit of edits) {
        edit()
        const expected = analyze(fresh, inputs(), dir)
        expect(await kept.analyse(inputs(), dir)).toEqual(expected)
      }
      // The last edits' types, read: `b.ts` and `c.ts` bind the literal unions of the modules they import now.
      const last = await kept.analyse(inputs(), dir)
      expect(last?.handlers['b.ts#Default.GET']?.positional[0]?.schema).toEqual({ enum: [1, 2] })
      expect(last?.handlers['c.ts#Default.GET']?.positional[0]?.schema).toEqual({ enum: [5, 6] })
    } finally {
      kept.close()
    }
  }, 180_000)

  it('writes what a fresh checker writes after an edit (the async API behind the bridge)', async () => {
    const { edits, inputs } = project()
    const fresh = (await loadTypeScript(dir))!
    const require = createRequire(import.meta.url)
    const url = (s: string) => pathToFileURL(require.resolve(s)).href
    const bridged = await bridgedCompiler(fresh.version, {
      async: url('typescript/unstable/async'),
      ast: url('typescript/unstable/ast'),
    })
    const kept = bridged.keep!(dir)
    try {
      for (const edit of edits.slice(0, 3)) {
        edit()
        expect(analyze(kept, inputs(), dir)).toEqual(analyze(fresh, inputs(), dir))
      }
    } finally {
      kept.close()
    }
  }, 240_000)
})
