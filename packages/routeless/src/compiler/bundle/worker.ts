/**
 * `routeless build --target=worker`: one self-contained ES module for hosts with no filesystem at run time
 * (Cloudflare Workers; `deno serve` and Bun run it too). The controller tree is discovered and its signatures read
 * here, at build time; the module imports every controller statically, carries the manifest and the code generated
 * from it, and reads no file when it starts. Every package, routeless included (its `routeless/worker` entry, which
 * imports no `node:*` module), is bundled in; a `node:*` module a controller imports stays an import (the Worker then
 * needs `nodejs_compat`). TypeScript and its loader are not: a bundle has nothing left to compile.
 * @module
 */
import { builtinModules } from 'node:module'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Plugin } from 'esbuild'
import { RoutelessError } from '../../runtime/base/errors.ts'
import { collectSources } from '../../runtime/routing/discover.ts'
import type { ModuleSource } from '../../runtime/base/module-source.ts'
import { buildRouteTable } from '../../runtime/routing/route-table.ts'
import { JS_MARK, type Manifest } from '../../runtime/contract/manifest.ts'
import { returnsOnly } from '../../runtime/contract/responses.ts'
import type { CorsOptions } from '../../runtime/wrappers/cors.ts'
import { entrySource, type EntryModule, type EntryOptions, type EntryPart } from './entry.ts'
import { tableCode } from '../codegen/handler-source.ts'
import { ajvValidators } from '../codegen/ajv.ts'
import type { AuthSpec } from '../../runtime/guards/auth.ts'

export interface WorkerBuildOptions {
  /** Controller prefixes, relative to `cwd`. */
  prefixes: string[]
  /** The module to write, relative to `cwd`. */
  out: string
  cwd: string
  /** Absolute path of the `routeless.config.ts` to build in, when there is one. */
  config?: string
  /** App options given as data, over the config's (JSON-serialisable). */
  options?: Record<string, unknown>
  /**
   * The config's app options as loaded here (the CLI's): which of `cors`, `accessLog` and `explainNotFound` it asks
   * for decides the parts the bundle carries. Without it, a config carries all three.
   */
  settings?: { cors?: CorsOptions; accessLog?: boolean; explainNotFound?: boolean; auth?: AuthSpec }
  /** The tree's signature manifest when already made (else it is made here, with `typescript`). */
  manifest?: Manifest
  /** Also write `<out>.map`, through routeless's own source maps to its sources (`bench/worker-size.ts` reads it). */
  sourcemap?: boolean
}

export interface WorkerBuild {
  /** Absolute path of the module written. */
  file: string
  bytes: number
  modules: number
  handlers: number
  /** Parameters the manifest cannot check (bound by name), as `routeless build` prints them. */
  warnings: string[]
}

/** Packages a bundle never needs at run time: loading them means a file was to be compiled or analysed. */
const NOT_BUNDLED = /^(?:typescript|tsx|esbuild)(?:\/.*)?$/
const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')))

/** Analyses the tree, writes the entry and bundles it with esbuild into `out`. */
export async function buildWorker(options: WorkerBuildOptions): Promise<WorkerBuild> {
  const { cwd } = options
  const sources = collectSources(options.prefixes, cwd)
  const rel = (file: string) => path.relative(cwd, file).split(path.sep).join('/')
  const manifest =
    options.manifest ??
    (await analyzeTree(
      sources.map((s) => ({ file: s.file, module: s.parts.join('/') })),
      cwd,
    ))
  // The config's `auth` guards are part of each handler's code.
  const { warnings, parts, handlers } = await checkStarts(sources, cwd, manifest, options.settings?.auth)
  parts.push(...servicesAsked(options))
  const modules: EntryModule[] = sources.map((s) => ({
    path: s.parts.join('/'),
    abs: s.file,
    file: rel(s.file),
    root: rel(s.root ?? s.file) || '.',
  }))
  const { build } = await import('esbuild')
  const file = path.resolve(cwd, options.out)
  const result = await build({
    stdin: {
      contents: entrySource({ modules, manifest, config: options.config, options: options.options, parts, handlers }),
      resolveDir: cwd,
      sourcefile: 'routeless-worker-entry.js',
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    // What Workers' own bundler resolves packages with; `main` for the CommonJS ones (ajv).
    conditions: ['workerd', 'worker', 'browser', 'import', 'default'],
    mainFields: ['module', 'main'],
    plugins: [routelessForWorkers, nodeBuiltins, notBundled],
    write: false,
    ...(options.sourcemap && { sourcemap: 'external', outfile: file }),
    logLevel: 'silent',
    legalComments: 'none',
    // No keepNames: controllers are named by their exports, and keeping every function's name costs ~10 % of the size.
  }).catch((cause: { errors?: { text: string; location?: { file: string; line: number } | null }[] }) => {
    const first = cause.errors?.[0]
    const where = first?.location ? ` (${first.location.file}:${first.location.line})` : ''
    throw new RoutelessError(
      'ROUTELESS_ERR_BUNDLE',
      `the worker bundle failed: ${first ? first.text + where : String(cause)}`,
      { cause },
    )
  })
  const code = result.outputFiles.find((o) => !o.path.endsWith('.map'))!.contents
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, code)
  const map = result.outputFiles.find((o) => o.path.endsWith('.map'))
  if (map) writeFileSync(`${file}.map`, map.contents)
  warnings.push(
    ...Object.entries(manifest.handlers).flatMap(([key, types]) =>
      (types.warnings ?? []).map((w) => `${key.replace('#', ': ')}: ${w}`),
    ),
  )
  return {
    file,
    bytes: code.byteLength,
    modules: modules.length,
    handlers: Object.keys(manifest.handlers).length,
    warnings,
  }
}

/**
 * Builds the route table here, as the Worker will when it starts: a tree that cannot start (two modules answering one
 * path, an ambiguous sub-resource, a bad `static` option) fails the build, not the deploy, and its warnings are the
 * build's. What the table needed decides the parts of its assembly the bundle carries (`runtime/routing/table-parts.ts`):
 * reading a signature from source only for a handler the manifest does not type, Standard Schema binders only for
 * `static params`, and the survey not at all — it ran here. A module node cannot load (one importing
 * `cloudflare:workers`) leaves every part to the Worker, which checks the tree when it starts.
 */
async function checkStarts(
  sources: ModuleSource[],
  cwd: string,
  manifest: Manifest,
  auth?: AuthSpec,
): Promise<{ warnings: string[]; parts: NonNullable<EntryOptions['parts']>; handlers: Record<string, string> }> {
  try {
    const table = await buildRouteTable(sources, { cwd, types: 'manifest', manifest, auth, validators: ajvValidators })
    const handlers = [...table.handlers()]
    const parts: NonNullable<EntryOptions['parts']> = []
    if (handlers.some((h) => !h.types)) parts.push('readSignature')
    if (handlers.some((h) => h.binder)) parts.push('compileBinder')
    // The typed binder revives `Date`s only where a type holds one (`runtime/contract/dates.ts`: `"x-js": "Date"`).
    if (JSON.stringify(manifest).includes(`"${JS_MARK}":"Date"`)) parts.push('dateReviver')
    // The body's reader, where a handler reads one: a GET's body never reaches a Worker (Fetch drops it).
    if (handlers.some((h) => !['GET', 'HEAD', 'OPTIONS', 'WEBSOCKET'].includes(h.method))) parts.push('readBody')
    // The writers of declared answers, where a handler declares more than its return type (`Created<T> | Conflict<E>`).
    if (handlers.some((h) => h.types && !returnsOnly(h.types))) parts.push('answers')
    if (handlers.some((h) => h.method === 'WEBSOCKET')) parts.push('sockets')
    // The manifest's own warnings are reported from it below. The table also gives each handler's function, as
    // code (a Worker evaluates none: `compiler/codegen/handler-source.ts`).
    const warnings = table.warnings.filter((w) => !isManifestWarning(w, manifest))
    return { warnings, parts, handlers: tableCode(table) }
  } catch (error) {
    if (error instanceof RoutelessError && error.code === 'ROUTELESS_ERR_MODULE_LOAD')
      return {
        warnings: [`the tree was not checked in node (${error.message}): the Worker checks it when it starts`],
        parts: ['readSignature', 'compileBinder', 'surveyTable', 'dateReviver', 'answers', 'sockets', 'readBody'],
        handlers: {},
      }
    throw error
  }
}

/**
 * The wrappers and the 404's hint the app's options ask for: the config's as loaded here, and the options given as
 * data. A config not loaded here may ask for any of them.
 */
function servicesAsked({ config, settings, options }: WorkerBuildOptions): EntryPart[] {
  if (config !== undefined && settings === undefined) return ['accessLog', 'cors', 'notFoundHint']
  const asked = { ...settings, ...options }
  const parts: EntryPart[] = []
  if (asked.accessLog) parts.push('accessLog')
  if (asked.cors) parts.push('cors')
  if (asked.explainNotFound) parts.push('notFoundHint')
  return parts
}

/** A warning the manifest holds for one of its handlers (`<file>: <Class>.<method>: …`). */
function isManifestWarning(warning: string, manifest: Manifest): boolean {
  return Object.entries(manifest.handlers).some(([key, types]) =>
    (types.warnings ?? []).some((w) => warning === `${key.replace('#', ': ')}: ${w}`),
  )
}

async function analyzeTree(inputs: { file: string; module: string }[], cwd: string): Promise<Manifest> {
  const { analyze, loadTypeScript } = await import('../analysis/analyze.ts')
  const ts = await loadTypeScript(cwd)
  if (!ts)
    throw new RoutelessError(
      'ROUTELESS_ERR_TYPES',
      "build reads the handlers' types with the TypeScript compiler: install typescript (npm i -D typescript)",
    )
  return analyze(ts, inputs, cwd)
}

/**
 * `routeless`, imported by a controller or the config, is read from `routeless/worker`: the same names, but for
 * those a Worker cannot run (`createApp`, discovery, the OpenAPI generator, watch mode), which then fail the build.
 */
const routelessForWorkers: Plugin = {
  name: 'routeless-for-workers',
  setup(build) {
    build.onResolve({ filter: /^routeless$/ }, (args) =>
      build.resolve('routeless/worker', { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer }),
    )
  },
}

/**
 * `fs`, `node:fs`, `node:fs/promises` …: left as `node:` imports, which Workers serve under `nodejs_compat`; and
 * `cloudflare:*`, as they are.
 */
const nodeBuiltins: Plugin = {
  name: 'routeless-node-builtins',
  setup(build) {
    // The Workers runtime's own modules (`cloudflare:workers`, `cloudflare:sockets`) are the host's too.
    build.onResolve({ filter: /^cloudflare:/ }, (args) => ({ path: args.path, external: true }))
    build.onResolve({ filter: /^[a-z_/:]+$/ }, (args) => {
      const name = args.path.startsWith('node:') ? args.path.slice(5) : args.path
      if (!args.path.startsWith('node:') && !BUILTINS.has(name)) return undefined
      return { path: `node:${name}`, external: true }
    })
  },
}

/** TypeScript, tsx and esbuild: a module that says why, in place of code a bundle never runs. */
const notBundled: Plugin = {
  name: 'routeless-not-bundled',
  setup(build) {
    build.onResolve({ filter: NOT_BUNDLED }, (args) => ({ path: args.path, namespace: 'routeless-not-bundled' }))
    build.onLoad({ filter: /.*/, namespace: 'routeless-not-bundled' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`routeless: ${args.path} is not part of a bundle (its controllers are compiled in)`)})`,
      loader: 'js',
    }))
  },
}
