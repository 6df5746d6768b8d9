/**
 * Internal: what `routeless build` writes for node beside the manifest, so that a built app starts without a
 * TypeScript loader — the controllers and the config file compiled to JavaScript by esbuild, in `.routeless/node/`:
 * `controllers.mjs` (every controller module and the local files they import), `config.mjs` (the config file), one
 * chunk for what both import (a module shared by the config and a controller stays one instance, as it is when node
 * loads the sources), and `built.json`: which files went in and their hashes (`node-load.ts` serves from it only
 * while every one of them is unchanged). Packages stay imports (node_modules is not bundled), except those whose
 * entry is TypeScript (a workspace package's sources), which only a loader could import.
 * @module
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Metafile, Plugin } from 'esbuild'
import type { ModuleSource } from '../../runtime/base/module-source.ts'
import { VERSION } from '../../runtime/base/version.ts'
import { sha256 } from '../../runtime/contract/manifest-file.ts'
import { ABSENT, BUILT_DIR, BUILT_RECORD, type BuiltRecord, relativeTo } from './node-load.ts'

export interface NodeBuildOptions {
  cwd: string
  /** The controller modules, as `collectSources` finds them under the build's prefixes. */
  sources: ModuleSource[]
  /** The prefix `routeless` serves without a flag: the config's, else `controllers` (absolute). */
  prefix: string[]
  /** The config file, when there is one. */
  config?: string
  /** The config sets `watch`: serving it stays on the sources, so nothing is written. */
  watch?: boolean
}

/** Where it was written, or why not (the app then starts from its sources, as without a build). */
export type NodeBuild = { dir: string; files: number } | { skipped: string }

/** Compiles the controllers and the config into `.routeless/node/` under `cwd`; removes an older one first. */
export async function buildNode(options: NodeBuildOptions): Promise<NodeBuild> {
  const { cwd, sources } = options
  const dir = path.join(cwd, BUILT_DIR)
  rmSync(dir, { recursive: true, force: true })
  const files = sources.map((s) => s.file).filter((f) => !f.startsWith('<'))
  const notModule = [...files, ...(options.config ? [options.config] : [])].find((f) => !loadsAsEsm(f))
  if (notModule) return { skipped: `${relativeTo(cwd, notModule)} loads as CommonJS` }
  if (options.watch) return { skipped: 'the config sets watch' }
  const { build } = await import('esbuild')
  const entryPoints = [{ in: ENTRY, out: 'controllers' }]
  if (options.config) entryPoints.push({ in: options.config, out: 'config' })
  let result: Metafile
  try {
    const built = await build({
      entryPoints,
      absWorkingDir: cwd,
      outdir: dir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'linked',
      keepNames: true,
      metafile: true,
      // A workspace package is a package (kept an import), not the folder its link points to.
      preserveSymlinks: true,
      logLevel: 'silent',
      plugins: [controllersEntry(files), packagesExternal, fileLocations],
    })
    result = built.metafile
  } catch (cause) {
    // A file esbuild cannot compile (an import it cannot resolve, a loader it has not): the sources serve, as before.
    rmSync(dir, { recursive: true, force: true })
    const first = (cause as { errors?: { text: string; location?: { file: string; line: number } | null }[] })
      .errors?.[0]
    const where = first?.location ? ` (${first.location.file}:${first.location.line})` : ''
    return { skipped: first ? first.text + where : String(cause) }
  }
  const inputs: Record<string, string> = {}
  for (const input of Object.keys(result.inputs)) {
    const file = path.resolve(cwd, input.replace(/^file:/, ''))
    if (existsSync(file)) inputs[relativeTo(cwd, file)] = sha256(file)
  }
  const compiled = Object.keys(inputs).length
  // The tsconfig says how TypeScript compiles (decorators, class fields, paths): once it changes, the sources serve.
  const tsconfig = path.join(cwd, 'tsconfig.json')
  inputs['tsconfig.json'] = existsSync(tsconfig) ? sha256(tsconfig) : ABSENT
  const record: BuiltRecord = {
    routeless: VERSION,
    config: options.config ? relativeTo(cwd, options.config) : null,
    prefix: options.prefix.map((p) => relativeTo(cwd, path.resolve(cwd, p))),
    modules: files.map((f) => relativeTo(cwd, f)),
    inputs,
  }
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, BUILT_RECORD), `${JSON.stringify(record, null, 2)}\n`)
  return { dir, files: compiled }
}

const ENTRY = 'routeless:controllers'

/** The controllers' entry: each module imported, its namespace in `modules` in the order found. */
function controllersEntry(files: string[]): Plugin {
  return {
    name: 'routeless-controllers',
    setup(build) {
      build.onResolve({ filter: /^routeless:controllers$/ }, () => ({ path: ENTRY, namespace: 'routeless' }))
      build.onLoad({ filter: /.*/, namespace: 'routeless' }, () => ({
        contents: [
          ...files.map((f, i) => `import * as m${i} from ${JSON.stringify(f)}`),
          `export const modules = [${files.map((_, i) => `m${i}`).join(', ')}]`,
        ].join('\n'),
        resolveDir: build.initialOptions.absWorkingDir,
        loader: 'js',
      }))
    },
  }
}

const TYPESCRIPT = /\.[mc]?tsx?$/

/** A package stays an import, unless it resolves to TypeScript (node could not load it without tsx) or is local. */
const packagesExternal: Plugin = {
  name: 'routeless-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'routeless-resolving' || args.path.startsWith('/')) return undefined
      if (args.path.startsWith('node:')) return { path: args.path, external: true }
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'routeless-resolving',
      })
      // A path alias of the tsconfig (`@/lib/db`) names a local file: bundled, as node could not resolve it.
      const local = !resolved.path.split(path.sep).includes('node_modules')
      if (resolved.errors.length === 0 && (local || TYPESCRIPT.test(resolved.path))) return resolved
      return { path: args.path, external: true }
    })
  },
}

/**
 * A bundled file keeps its own `import.meta.url`, `dirname` and `filename` (a controller reading a file beside it
 * finds it where it was): each is replaced with the file's own before esbuild compiles it.
 */
const fileLocations: Plugin = {
  name: 'routeless-file-locations',
  setup(build) {
    build.onLoad({ filter: /\.[mc]?[jt]sx?$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8')
      if (!text.includes('import.meta')) return undefined
      const own: Record<string, string> = {
        url: pathToFileURL(args.path).href,
        filename: args.path,
        dirname: path.dirname(args.path),
      }
      const ext = path.extname(args.path).slice(1)
      const loader = ext.endsWith('x') ? (ext.startsWith('t') ? 'tsx' : 'jsx') : ext.includes('t') ? 'ts' : 'js'
      return {
        contents: text.replace(/\bimport\.meta\.(url|filename|dirname)\b/g, (_, k: string) => JSON.stringify(own[k])),
        loader,
      }
    })
  },
}

const scopes = new Map<string, boolean>()

/** `.mts`/`.mjs`, or a `.ts`/`.js` whose nearest package.json says `"type": "module"`: what node loads as ESM. */
function loadsAsEsm(file: string): boolean {
  if (/\.m[jt]s$/.test(file)) return true
  if (/\.c[jt]s$/.test(file)) return false
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json')
    let esm = scopes.get(pkg)
    if (esm === undefined && existsSync(pkg)) {
      try {
        esm = JSON.parse(readFileSync(pkg, 'utf8')).type === 'module'
      } catch {
        esm = false
      }
      scopes.set(pkg, esm)
    }
    if (esm !== undefined) return esm
    if (path.dirname(dir) === dir) return false
  }
}
