/**
 * A Rollup plugin that bundles Ajv (and ajv-formats, and the packages they require) into the build-time chunks as one
 * ES module, where node would otherwise load Ajv's ~50 CommonJS files one by one. A start without a manifest compiles
 * its validators with Ajv: through node's CommonJS loader that took ~25 ms of node 22's main thread (resolving each
 * `require`, reading package scopes, lexing each file for its named exports), as one module ~6 ms (docs/BENCHMARKS.md,
 * "A start without a manifest: Ajv as one module …"). Request time never loads it: the ahead-of-time path runs
 * generated code.
 *
 * Each specifier the sources import (`VENDORED`) becomes a module with node's CommonJS interop: its default export is
 * the package's `module.exports`, its named exports that object's members (as node's `cjs-module-lexer` finds them).
 * They all read one bundle made by esbuild, so Ajv's classes are one copy (`_`'s code objects are checked by
 * `instanceof` inside Ajv). The bundled packages' licences go to `dist/THIRD-PARTY-LICENSES.txt`. The package keeps
 * `ajv` and `ajv-formats` as dependencies: the declarations name their types.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const PACKAGE = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(path.join(PACKAGE, 'package.json'))

/** What the sources import of Ajv, as they write it. */
export const VENDORED = ['ajv', 'ajv/dist/2020.js', 'ajv/dist/standalone/index.js', 'ajv-formats']

const BUNDLE = '\0routeless:ajv-bundle'
const PREFIX = '\0routeless:vendored:'
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

export function vendorAjv() {
  let licences = ''
  return {
    name: 'routeless:vendor-ajv',
    resolveId(id) {
      if (id === BUNDLE) return BUNDLE
      if (VENDORED.includes(id)) return PREFIX + id
      return null
    },
    async load(id) {
      if (id === BUNDLE) {
        const made = await bundle()
        licences = made.licences
        return made.code
      }
      if (!id.startsWith(PREFIX)) return null
      const specifier = id.slice(PREFIX.length)
      const index = VENDORED.indexOf(specifier)
      const names = Object.keys(require(specifier)).filter((name) => IDENTIFIER.test(name) && name !== 'default')
      return [
        `import { m${index} as m } from ${JSON.stringify(BUNDLE)}`,
        'export default m',
        ...names.map((name) => `export const ${name} = m.${name}`),
      ].join('\n')
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'THIRD-PARTY-LICENSES.txt', source: licences })
    },
  }
}

/** One ES module exporting each vendored specifier's `module.exports` as `m0`, `m1` …, and the bundled licences. */
async function bundle() {
  const contents = VENDORED.map((specifier, i) => `export const m${i} = require(${JSON.stringify(specifier)})`).join(
    '\n',
  )
  const out = await build({
    stdin: { contents, resolveDir: PACKAGE, sourcefile: 'ajv-bundle.js', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    metafile: true,
    legalComments: 'inline',
  })
  const code = out.outputFiles[0].text
  if (/(?<!function )\b__require\(/.test(code))
    throw new Error('vendor-ajv: the bundle requires a module it does not hold')
  return { code, licences: licencesOf(Object.keys(out.metafile.inputs)) }
}

/** The name, version and licence text of every package the bundle holds files of. */
function licencesOf(inputs) {
  const packages = new Set()
  for (const input of inputs) {
    const at = input.lastIndexOf('node_modules/')
    if (at < 0) continue
    const rest = input.slice(at + 'node_modules/'.length).split('/')
    packages.add(input.slice(0, at + 'node_modules/'.length) + rest.slice(0, rest[0].startsWith('@') ? 2 : 1).join('/'))
  }
  const texts = [...packages].sort().map((dir) => {
    const full = path.resolve(PACKAGE, dir)
    const { name, version, license } = JSON.parse(readFileSync(path.join(full, 'package.json'), 'utf8'))
    const file = readdirSync(full).find((f) => /^licen[cs]e/i.test(f))
    if (!file) throw new Error(`vendor-ajv: ${name} has no licence file to ship`)
    return `${name}@${version} (${license})\n\n${readFileSync(path.join(full, file), 'utf8').trim()}\n`
  })
  return `Packages bundled into routeless's build-time chunks (scripts/vendor-ajv.mjs):\n\n${texts.join('\n---\n\n')}`
}
