/**
 * The route table assembled from controller modules and their handler types, reading no file: what a bundle (a
 * Worker) runs at start-up. `route-table.ts` adds what a host with a filesystem does first (discovery, the manifest
 * on disk, the TypeScript analysis). Throws a coded `RoutelessError` on any mistake in the tree.
 * @module
 */
import { RoutelessError } from '../base/errors.ts'
import { writtenSegment } from '../base/naming.ts'
import type { Signatures } from '../contract/signatures.ts'
import { planTypedBinder } from '../contract/typed-binder.ts'
import type { Validators } from '../contract/validators.ts'
import type { HandlerTypes, Manifest } from '../contract/manifest.ts'
import { guardsFor, unknownAuthKeys, type AuthSpec, type Guard } from '../guards/auth.ts'
import type { ModuleExports, ModuleSource } from '../base/module-source.ts'
import { addModule, rel } from './add-module.ts'
import { RouteTable, type RouteNode } from './table.ts'
import type { TableParts } from './table-parts.ts'

export interface AssembleOptions {
  /** Base directory used to print file names. */
  cwd: string
  /** Guards for the whole tree (the app's `auth` option): they run first, before the root module's. */
  auth?: AuthSpec
  /** The validators of the handlers' types (and their serializers), for the manifest in use (`runtime/handlers/load.ts`). */
  validators: (manifest: Manifest, served?: Manifest) => Promise<Validators>
  /** What the assembly may do besides placing the handlers (`table-parts.ts`: `ALL_PARTS` on a host with files). */
  parts: TableParts
}

/** A module and its exports, loaded. */
export interface LoadedModule {
  s: ModuleSource
  exports: ModuleExports
}

/** Loads every module (in parallel), refusing two that answer one path. */
export async function loadModules(sources: ModuleSource[], cwd: string): Promise<LoadedModule[]> {
  const seen = new Map<string, string>()
  for (const s of sources) {
    const key = `${s.root ?? ''}\0${s.parts.map(writtenSegment).join('/')}`
    const other = seen.get(key)
    if (other !== undefined) {
      throw new RoutelessError(
        'ROUTELESS_ERR_MODULE_CONFLICT',
        `Modules ${rel(cwd, other)} and ${rel(cwd, s.file)} both answer /${s.parts.join('/')}`,
      )
    }
    seen.set(key, s.file)
  }
  return Promise.all(
    sources.map(async (s) => {
      try {
        return { s, exports: await s.load() }
      } catch (cause) {
        throw new RoutelessError(
          'ROUTELESS_ERR_MODULE_LOAD',
          `Controller module ${rel(cwd, s.file)} failed to load: ${describeLoadError(cause)}`,
          { cause },
        )
      }
    }),
  )
}

/** Assembles the route table of `loaded` modules with the handler types `signatures` gives. */
export async function assembleRouteTable(
  loaded: LoadedModule[],
  signatures: Signatures,
  options: AssembleOptions,
): Promise<RouteTable> {
  const { cwd } = options
  const table = new RouteTable()
  table.warnings.push(...signatures.warnings)
  table.defs = signatures.defs as RouteTable['defs']
  table.types = signatures.origin
  table.analysed = signatures.analysed
  const validators = signatures.manifest && (await options.validators(signatures.manifest, signatures.served))
  table.validators = validators ? validators.origin : undefined
  if (validators?.notice) table.warnings.push(validators.notice)
  table.serializers = validators ? validators.serializers : undefined
  table.code = validators?.handlers
  table.validator = validators && ((schema) => validators.validator(schema))
  const plan = (types: HandlerTypes) =>
    validators ? planTypedBinder(types, validators, options.parts.dateReviver) : undefined
  if (options.auth !== undefined) {
    const unknown = unknownAuthKeys(options.auth)
    if (unknown.length)
      throw new RoutelessError(
        'ROUTELESS_ERR_AUTH_SPEC',
        `The app's auth option names ${unknown.join(', ')}, which are not handler methods`,
      )
    table.root.auth.push(options.auth)
  }
  for (const { s, exports } of loaded) addModule(table, s, exports, { cwd, signatures, plan, parts: options.parts })
  applyTreeGuards(table)
  if (options.parts.surveyTable) table.warnings.push(...options.parts.surveyTable(table))
  if (table.handlers().next().done) {
    const where = [...new Set(loaded.map(({ s }) => rel(cwd, s.root ?? s.file)))].join(', ') || 'the given modules'
    table.warnings.push(
      `No handlers found in ${where}: every request will answer 404 (a handler is an UPPERCASE method such as GET() on an exported class)`,
    )
  }
  return table
}

/** Prepends the guards of every module above a handler's module (root first). */
function applyTreeGuards(table: RouteTable): void {
  for (const handler of table.handlers()) {
    const ofNode = (n: RouteNode) => n.auth.flatMap((spec) => guardsFor(spec, handler.name, handler.method))
    const tree: Guard[] = ofNode(table.root)
    let at = table.root
    for (const key of handler.moduleKeys) {
      const next = at.children.get(key)
      if (!next) break
      at = next
      tree.push(...ofNode(at))
    }
    handler.guards = [...tree, ...handler.guards]
  }
}

function describeLoadError(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause)
  // Keep the first stack frame that points into user code: it carries file and line.
  const frame = (cause.stack ?? '')
    .split('\n')
    .find((l) => /^\s+at .*:\d+:\d+\)?$/.test(l) && !l.includes('node:internal'))
  const where = frame
    ?.trim()
    .replace(/^at /, '')
    .replace(/^.*\((.*)\)$/, '$1')
  return where ? `${cause.message} (${where})` : cause.message
}
