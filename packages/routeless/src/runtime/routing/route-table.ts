/**
 * The route table of a controller tree on a host with a filesystem: the modules found (`discover.ts`) or given,
 * their handler types read from the manifest on disk or the TypeScript analysis (`type-source.ts`), the validators
 * given, and the table assembled (`assemble-table.ts`, all a bundle runs).
 * @module
 */
import { loadSignatures, type Analysis, type Signatures, type TypesMode } from '../contract/type-source.ts'
import type { Validators } from '../contract/validators.ts'
import type { Manifest } from '../contract/manifest.ts'
import type { AuthSpec } from '../guards/auth.ts'
import type { ModuleSource } from '../base/module-source.ts'
import { assembleRouteTable, loadModules, type LoadedModule } from './assemble-table.ts'
import { loadsWithoutTsx } from './ts-loader.ts'
import { ALL_PARTS } from './table-parts.ts'
import type { RouteTable } from './table.ts'

export { discoverModules } from './discover.ts'
export { HTTP_METHODS } from '../base/handler-names.ts'
export { isHttpMethod, RouteTable, type Endpoint, type Handler, type RouteNode, type RouteRow } from './table.ts'

export interface BuildOptions {
  /** Base directory used to print file names, and where `.routeless/manifest.json` lives (default: the working directory). */
  cwd?: string
  /** How handler types are read: `'auto'` (manifest, else analysis, else names), `'manifest'` or `'off'`. */
  types?: TypesMode
  /** A signature manifest, or its path (default `.routeless/manifest.json`). */
  manifest?: Manifest | string
  /** Guards for the whole tree (the app's `auth` option): they run first, before the root module's. */
  auth?: AuthSpec
  /**
   * The validators of the handlers' types, for the manifest in use (the app's: the generated module, or its source
   * evaluated at start-up, `runtime/handlers/load.ts`; or Ajv compiling at start-up, `compiler/codegen/ajv.ts`'s
   * `ajvValidators`). `served` is the part of it the served files use (`Signatures.served`).
   */
  validators: (manifest: Manifest, served?: Manifest) => Promise<Validators>
  /** TypeScript's analysis of the files the manifest does not describe (development: `runtime/app/build-tools.ts`). */
  analysis?: () => Promise<Analysis>
}

/**
 * Loads every module (in parallel) and assembles the route table. Throws a coded `RoutelessError` on any mistake.
 *
 * Where a controller will need tsx (node before 22.18, a `.cts`, a `.ts` outside a `"type": "module"` package), the
 * handler types and their validators come first and the modules after: the first such controller registers tsx, whose
 * loader every later `import()` then crosses (its worker thread), and the analysis (`typescript`'s API) and the
 * validators' generator (Ajv) load in half the time before it. Neither reads the modules. Everywhere else the modules
 * come first: the checker the CLI started early (`compiler/analysis/early-analysis.ts`) opens its program in its own
 * process while they load, where after the analysis they would wait for it. (A file node's type stripping refuses,
 * an `enum`, is only known when it fails to load: it registers tsx then, and what loads after it crosses tsx's loader,
 * slower but the same.) The errors keep their order either way: a module that fails to load (or two that answer one
 * path) is the error reported, ahead of one of the types or the validators.
 */
export async function buildRouteTable(sources: ModuleSource[], options: BuildOptions): Promise<RouteTable> {
  const cwd = options.cwd ?? process.cwd()
  let loaded: LoadedModule[] | undefined
  if (sources.every((s) => loadsWithoutTsx(s.file))) loaded = await loadModules(sources, cwd)
  const typed = await settled(typesOf(sources, options, cwd))
  loaded ??= await loadModules(sources, cwd)
  const { signatures, validators } = typed()
  return assembleRouteTable(loaded, signatures, {
    cwd,
    auth: options.auth,
    // The validators made already, for the manifest the signatures carry (the only one asked for).
    validators: async () => validators!,
    parts: ALL_PARTS,
  })
}

/** The signatures of `sources` (manifest or analysis), and the validators of their manifest when they have one. */
async function typesOf(
  sources: ModuleSource[],
  options: BuildOptions,
  cwd: string,
): Promise<{ signatures: Signatures; validators: Validators | undefined }> {
  const signatures = await loadSignatures(sources, {
    cwd,
    mode: options.types,
    manifest: options.manifest,
    analysis: options.analysis,
  })
  const { manifest, served } = signatures
  return { signatures, validators: manifest && (await options.validators(manifest, served)) }
}

/** `promise` settled: a function that gives its value or throws its error, when called. */
async function settled<T>(promise: Promise<T>): Promise<() => T> {
  try {
    const value = await promise
    return () => value
  } catch (error) {
    return () => {
      throw error
    }
  }
}
