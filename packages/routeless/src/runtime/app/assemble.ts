/**
 * Internal: an application from controller modules given directly and the parts that differ between where it runs
 * (the validators of handler types and the serializers of return types: compiled at start-up, or a bundle's
 * generated code). Reads no file and imports no `node:*` module.
 * @module
 */
import type { ModuleExports, ModuleSource } from '../base/module-source.ts'
import { assembleRouteTable, loadModules, type AssembleOptions } from '../routing/assemble-table.ts'
import { fromManifest, NO_SIGNATURES } from '../contract/signatures.ts'
import { Application } from './application.ts'
import type { AppOptions, ModuleMap } from './options.ts'
import type { AppServices } from './services.ts'
import { lacksCode, type Evaluate } from '../handlers/handlers.ts'

/** One controller module of a bundle: what a prefix's file would be, already imported. */
export interface ControllerModule {
  /** Its path below the prefix, as a file's would be: `''` for the root (`index.ts`), `'users'`, `'v3/status'`. */
  path: string
  /** The module's exports (`import * as users from "../../app/controllers/users.ts"`), or a function importing them. */
  exports: ModuleExports | (() => Promise<ModuleExports>)
  /** The file it was built from, as the signature manifest names it (`controllers/users.ts`): its types are found so. */
  file?: string
  /**
   * The prefix it belongs to, when there are several: their modules merge (rule 9), and two modules answering one
   * path conflict only within one prefix.
   */
  root?: string
}

/**
 * The modules, their table assembled with `validators` and `parts`, the app made with `services` (and the `evaluator`,
 * loaded when some handler's code is not built).
 */
export async function assembleApp(
  modules: ModuleMap | readonly ControllerModule[],
  options: AppOptions,
  {
    validators,
    parts,
    evaluator,
  }: Pick<AssembleOptions, 'validators' | 'parts'> & { evaluator?: () => Promise<Evaluate> },
  services: AppServices = {},
): Promise<Application> {
  const manifest = options.manifest
  if (typeof manifest === 'string')
    throw new TypeError('createAppFromModules reads no file: give the manifest as an object (import its JSON)')
  const cwd = options.cwd ?? '/'
  const loaded = await loadModules(moduleSources(modules), cwd)
  const typed = manifest !== undefined && (options.types ?? 'manifest') !== 'off'
  const signatures = typed ? fromManifest(manifest, { rel: (file) => file, served: new Set() }) : NO_SIGNATURES
  const table = await assembleRouteTable(loaded, signatures, { cwd, auth: options.auth, validators, parts })
  if (evaluator && lacksCode(table, !!options.checkReturns)) services = { ...services, evaluate: await evaluator() }
  const app = new Application(table, { ...options, cwd }, services)
  for (const warning of table.warnings) app.warn(warning)
  return app
}

function moduleSources(modules: ModuleMap | readonly ControllerModule[]): ModuleSource[] {
  const list: ControllerModule[] = Array.isArray(modules)
    ? [...modules]
    : Object.entries(modules).map(([path, exports]) => ({ path, exports }))
  return list.map((m, i) => {
    if (typeof m !== 'object' || m === null || typeof m.path !== 'string')
      throw new TypeError(`createAppFromModules: module ${i} must be { path, exports }`)
    const exports = m.exports
    if ((typeof exports !== 'object' && typeof exports !== 'function') || exports === null)
      throw new TypeError(`createAppFromModules: module "${m.path}" has no exports`)
    return {
      parts: m.path.split('/').filter(Boolean),
      file: `<${m.file ?? `module ${m.path || 'index'}`}>`,
      root: m.root,
      manifestFile: m.file,
      load: typeof exports === 'function' ? (exports as () => Promise<ModuleExports>) : async () => exports,
    }
  })
}
