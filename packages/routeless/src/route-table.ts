/**
 * Compiles controller modules, once, into a `RouteTable`: a tree keyed by path segment whose nodes carry the handlers
 * that answer there. Module discovery lives in `_discover.ts`, handler names in `_handler-names.ts`, placing a
 * module's handlers in the tree in `_add-module.ts`.
 * @module
 */
import type { ErrorRenderer } from './controller.ts'
import { RoutelessError } from './errors.ts'
import { toSegment } from './_naming.ts'
import { HTTP_METHODS } from './_handler-names.ts'
import type { Signature } from './_params.ts'
import { loadSignatures, type Signatures, type TypesMode } from './signatures.ts'
import { compileTypedBinder, TypeValidators, type TypedBinder } from './typed-binder.ts'
import type { HandlerTypes, Manifest } from './manifest.ts'
import type { Binder, ParamSpec } from './params.ts'
import type { BodyKind } from './request.ts'
import { guardsFor, unknownAuthKeys, type AuthSpec, type Guard } from './auth.ts'
import { findAmbiguity } from './_ambiguity.ts'
import type { ModuleSource } from './_discover.ts'
import { addModule, newNode, rel } from './_add-module.ts'

export { discoverModules, type ModuleExports, type ModuleSource } from './_discover.ts'
export { HTTP_METHODS } from './_handler-names.ts'
const METHOD_SET = new Set<string>(HTTP_METHODS)

/** One handler: a class and one of its handler methods, with what was learned about it at start-up. */
export interface Handler {
  /** The HTTP method it answers (`GET` …), `WEBSOCKET`, or `ANY`. */
  method: string
  /** The method's own name: `GET`, `GET_bar`, `GET_$_entries`. */
  name: string
  /** The path it answers, `$` placeholders named after its parameters: `/foo/bar`, `/v3/glossaries/{id}/entries`. */
  path: string
  /** Positional parameters filled from `$` placeholders (they come first). */
  captures: number
  file: string
  className: string
  cls: new () => any
  fn: (...args: unknown[]) => unknown
  signature: Signature
  bodyLimit: number | undefined
  accepts: readonly string[] | undefined
  /** The decoded body kinds the class takes (`static consumes`); undefined: all. */
  consumes: readonly BodyKind[] | undefined
  renderError: ErrorRenderer | undefined
  before: ((...args: unknown[]) => unknown) | undefined
  /** The method's parameter schemas (`static params = { GET: … }`) and their compiled binder. */
  params: ParamSpec | undefined
  binder: Binder | undefined
  /** What the handler's TypeScript signature declares (from the manifest), when known. */
  types: HandlerTypes | undefined
  /** Enforces `types` before the call (undefined when they declare nothing to check, or `params` is given). */
  typed: TypedBinder | undefined
  /** Auth guards, module tree first, then the class's, then the method's; run before `before()`. */
  guards: Guard[]
  /** Keys of the module that defines the class (for module-tree guards). */
  moduleKeys: string[]
}

/** The handlers that answer one path, by method (`ANY` included), with the precomputed `Allow` header. */
export interface Endpoint {
  path: string
  methods: Map<string, Handler>
  allow: string
  /** A class renderer of this path's controllers, for the errors no handler is running for (405). */
  renderError: ErrorRenderer | undefined
  /** Fewest and most positional arguments any of its handlers takes (OPTIONS and 405 answer only within them). */
  minArgs: number
  maxArgs: number
}

export interface RouteNode {
  /** Child nodes by segment (`foo-bar`, `v3`, `openapi.json`). */
  children: Map<string, RouteNode>
  /** The `$` edge: any one path part, taken as a positional argument, when the part after it names a child. */
  param: RouteNode | undefined
  endpoint: Endpoint | undefined
  /** A module's exported `renderError`, applying to its whole tree. */
  renderError: ErrorRenderer | undefined
  /** A module's exported `auth` spec, applying to its whole tree (per handler method when it is an object). */
  auth: AuthSpec[]
}

export interface RouteRow {
  method: string
  /** The path template: `/v3/glossaries/{id}/entries`. */
  path: string
  file: string
  handler: string
  /** `(id) {sort?, page?}`: positional parameters and keyword arguments (from the schema when declared). */
  params: string
}

export class RouteTable {
  readonly root: RouteNode = newNode()
  readonly rows: RouteRow[] = []
  /** What start-up noticed and did not refuse: unreachable names, methods that look like handlers, no handlers. */
  readonly warnings: string[] = []
  /** Named types the handlers' schemas refer to (`#/$defs/Name`). */
  defs: Record<string, Record<string, unknown>> = {}
  /** Where the handler types came from: the manifest, a fresh analysis, or nowhere (names only). */
  types: Signatures['origin'] = 'none'

  /** Every handler as `{ method, path, file, handler }`, sorted by path then method (for `routeless routes`). */
  list(): RouteRow[] {
    return [...this.rows].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
  }

  /** Every handler in the table. */
  *handlers(): Generator<Handler> {
    const stack = [this.root]
    for (let node = stack.pop(); node; node = stack.pop()) {
      if (node.endpoint) yield* node.endpoint.methods.values()
      stack.push(...node.children.values())
      if (node.param) stack.push(node.param)
    }
  }
}

export interface BuildOptions {
  /** Base directory used to print file names, and where `.routeless/manifest.json` lives (default: the working directory). */
  cwd?: string
  /** How handler types are read: `'auto'` (manifest, else analysis, else names), `'manifest'` or `'off'`. */
  types?: TypesMode
  /** A signature manifest, or its path (default `.routeless/manifest.json`). */
  manifest?: Manifest | string
  /** Guards for the whole tree (the app's `auth` option): they run first, before the root module's. */
  auth?: AuthSpec
}

/** Loads every module (in parallel) and compiles the route table. Throws a coded `RoutelessError` on any mistake. */
export async function buildRouteTable(sources: ModuleSource[], options: BuildOptions = {}): Promise<RouteTable> {
  const cwd = options.cwd ?? process.cwd()
  const table = new RouteTable()
  const seen = new Map<string, string>()
  for (const s of sources) {
    const key = `${s.root ?? ''}\0${s.parts.map(toSegment).join('/')}`
    const other = seen.get(key)
    if (other !== undefined) {
      throw new RoutelessError('ROUTELESS_ERR_MODULE_CONFLICT', `Modules ${rel(cwd, other)} and ${rel(cwd, s.file)} both answer /${s.parts.join('/')}`)
    }
    seen.set(key, s.file)
  }
  const loaded = await Promise.all(sources.map(async (s) => {
    try {
      return { s, exports: await s.load() }
    } catch (cause) {
      throw new RoutelessError('ROUTELESS_ERR_MODULE_LOAD', `Controller module ${rel(cwd, s.file)} failed to load: ${describeLoadError(cause)}`, { cause })
    }
  }))
  const signatures = await loadSignatures(sources, { cwd, mode: options.types, manifest: options.manifest })
  table.warnings.push(...signatures.warnings)
  table.defs = signatures.defs as RouteTable['defs']
  table.types = signatures.origin
  let validators: TypeValidators | undefined
  const compile = (types: HandlerTypes) => compileTypedBinder(types, (validators ??= new TypeValidators(signatures.defs)))
  if (options.auth !== undefined) {
    const unknown = unknownAuthKeys(options.auth)
    if (unknown.length) throw new RoutelessError('ROUTELESS_ERR_AUTH_SPEC', `The app's auth option names ${unknown.join(', ')}, which are not handler methods`)
    table.root.auth.push(options.auth)
  }
  for (const { s, exports } of loaded) addModule(table, s, exports, cwd, signatures, compile)
  applyTreeGuards(table)
  const ambiguity = findAmbiguity(table.root)
  if (ambiguity) throw new RoutelessError('ROUTELESS_ERR_ROUTE_AMBIGUOUS', ambiguity)
  if (table.rows.length === 0) {
    const where = [...new Set(sources.map((s) => rel(cwd, s.root ?? s.file)))].join(', ') || 'the given modules'
    table.warnings.push(`No handlers found in ${where}: every request will answer 404 (a handler is an UPPERCASE method such as GET() on an exported class)`)
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
  const frame = (cause.stack ?? '').split('\n').find((l) => /^\s+at .*:\d+:\d+\)?$/.test(l) && !l.includes('node:internal'))
  const where = frame?.trim().replace(/^at /, '').replace(/^.*\((.*)\)$/, '$1')
  return where ? `${cause.message} (${where})` : cause.message
}

export function isHttpMethod(method: string): boolean {
  return METHOD_SET.has(method)
}
