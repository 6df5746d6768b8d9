/**
 * The signature analysis on both TypeScripts: the native checker of TypeScript 7 (the repository's `typescript`) and
 * the classic compiler API of TypeScript 5.9 (the `typescript-classic` alias devDependency) write the same manifest
 * for every fixture tree and every example's controllers.
 *
 * One difference is allowed, and normalised before comparing: the ORDER of an object's properties (the keys of
 * `properties`, the entries of `required`) where the checker merges several declarations — an interface that extends
 * another, an intersection, an object spread of a union. TypeScript 7 lists an extended interface's inherited members
 * and a spread's members in another order than 5.9; the properties and their schemas are the same, so the same
 * requests pass and fail (a 400 that lists several fields lists them in that order). Union members are ordered by
 * routeless itself (`type-schema.ts`), so enums and `anyOf` are compared as they are.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { collectSources } from '../../packages/routeless/src/runtime/app/options.ts'
import { analyze, loadTypeScript } from '../../packages/routeless/src/compiler/analysis/analyze.ts'
import type { Manifest } from '../../packages/routeless/src/runtime/contract/manifest.ts'
import { propertyOrderFree } from '../_property-order.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** [cwd, prefix] of every tree: the fixtures (from the repository root, as the tests serve them), then the examples. */
const trees: [string, string][] = [
  ...readdirSync(path.join(ROOT, 'test/fixtures'))
    .filter((d) => !d.startsWith('.')) // (a build's own `.routeless/` is not a tree)
    .map((d): [string, string] => [ROOT, `test/fixtures/${d}`]),
  ...readdirSync(path.join(ROOT, 'examples')).map((e): [string, string] => [
    path.join(ROOT, 'examples', e),
    'controllers',
  ]),
]

/** A manifest less what names its writer (`typescript`, and `analyzer`: the cache key includes the version). */
const comparable = (m: Manifest) => propertyOrderFree({ ...m, typescript: undefined, analyzer: undefined })

describe('the analysis on TypeScript 7 (native) and 5.9 (classic)', { timeout: 120_000 }, async () => {
  const native = await loadTypeScript(ROOT)
  const classic = await loadTypeScript(ROOT, 'typescript-classic')

  it('loads the backend each version needs', () => {
    expect(native?.backend).toBe('native')
    expect(native?.version).toMatch(/^7\./)
    expect(classic?.backend).toBe('classic')
    expect(classic?.version).toMatch(/^5\.9\./)
  })

  it.each(trees)('writes the same manifest for %s %s', (cwd, prefix) => {
    const sources = collectSources(prefix, cwd).filter((s) => !s.file.startsWith('<'))
    const inputs = sources.map((s) => ({ file: s.file, module: s.parts.join('/') }))
    const a = analyze(classic!, inputs, cwd)
    const b = analyze(native!, inputs, cwd)
    expect(Object.keys(b.handlers).length).toBe(Object.keys(a.handlers).length)
    expect(b.typescript).toBe(native!.version)
    expect(comparable(b)).toEqual(comparable(a))
  })

  // (The native analysis writes its tsconfig in the app's `.routeless/`, or, where it cannot, in the system's
  // temporary folder: where a file named `.routeless` is in the way.)
  it.each([
    ['', false],
    [', with no `.routeless/` to write in', true],
  ])(
    'reads the @types a tsconfig names in `types` (`NodeJS.Dict` with `types: ["node"]`) as the app does%s',
    (_, blocked) => {
      const root = mkdtempSync(path.join(tmpdir(), 'routeless-types-node-'))
      try {
        mkdirSync(path.join(root, 'controllers'))
        if (blocked) writeFileSync(path.join(root, '.routeless'), '')
        symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'))
        const options = { target: 'ES2022', module: 'NodeNext', strict: true, types: ['node'], noEmit: true }
        writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: options }))
        const file = path.join(root, 'controllers/index.ts')
        writeFileSync(
          file,
          'export class Default {\n  GET(q: { tags?: NodeJS.Dict<string> }) {\n    return q\n  }\n}\n',
        )
        const inputs = [{ file, module: '' }]
        const a = analyze(classic!, inputs, root)
        const b = analyze(native!, inputs, root)
        const tags = { type: 'object', properties: {}, additionalProperties: { type: 'string' } }
        for (const m of [a, b]) {
          const [handler] = Object.values(m.handlers)
          expect(handler!.kwargs!.schema).toMatchObject({ properties: { tags } })
        }
        expect(comparable(b)).toEqual(comparable(a))
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    },
  )

  it('reads what a tsconfig names in `types` from a package of its own (`mypkg`, `mypkg/globals`) as tsc does', () => {
    // Not under `@types`: TypeScript looks such a name up in the node_modules above the tsconfig.
    const root = mkdtempSync(path.join(tmpdir(), 'routeless-types-pkg-'))
    try {
      mkdirSync(path.join(root, 'controllers'))
      mkdirSync(path.join(root, 'node_modules/mypkg'), { recursive: true })
      const pkg = path.join(root, 'node_modules/mypkg')
      writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'mypkg', types: 'index.d.ts' }))
      writeFileSync(path.join(pkg, 'index.d.ts'), 'declare global { type Colour = "red" | "green" }\nexport {}\n')
      writeFileSync(path.join(pkg, 'globals.d.ts'), 'declare global { type Size = "s" | "m" }\nexport {}\n')
      const options = { target: 'ES2022', module: 'NodeNext', strict: true, types: ['mypkg', 'mypkg/globals'] }
      writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...options, noEmit: true } }))
      const file = path.join(root, 'controllers/index.ts')
      writeFileSync(file, 'export class Default {\n  GET(q: { colour: Colour; size: Size }) {\n    return q\n  }\n}\n')
      const inputs = [{ file, module: '' }]
      const a = analyze(classic!, inputs, root)
      const b = analyze(native!, inputs, root)
      for (const m of [a, b]) {
        const [handler] = Object.values(m.handlers)
        expect(handler!.kwargs!.schema, m.typescript).toMatchObject({
          properties: { colour: { enum: ['green', 'red'] }, size: { enum: ['m', 's'] } },
        })
      }
      expect(comparable(b)).toEqual(comparable(a))
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
