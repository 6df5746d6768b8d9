/**
 * The route table's shape: a tree keyed by path segment whose nodes carry the handlers that answer there. Built by
 * `route-table.ts`, read by the resolver and the tooling.
 * @module
 */
import type { BodyKind, ErrorRenderer } from '../base/controller.ts'
import type { Signature } from './arity.ts'
import type { Signatures } from '../contract/type-source.ts'
import type { TypedPlan } from '../contract/typed-binder.ts'
import type { SerializerFactory } from '../contract/serializer-runtime.ts'
import type { HandlerTypes, JsonSchema } from '../contract/manifest.ts'
import type { ValidateFunction } from '../contract/validators.ts'
import type { Binder, ParamSpec } from '../contract/standard-schema.ts'
import type { AuthSpec, Guard } from '../guards/auth.ts'
import { HTTP_METHODS } from '../base/handler-names.ts'
import { aliasKey, toRequestKey } from '../base/naming.ts'

const METHOD_SET = new Set<string>(HTTP_METHODS)

export function isHttpMethod(method: string): boolean {
  return METHOD_SET.has(method)
}

export function newNode(): RouteNode {
  return {
    children: new Map(),
    names: [],
    nodes: [],
    aliases: new Map(),
    param: undefined,
    endpoint: undefined,
    renderError: undefined,
    auth: [],
  }
}

/** The child `key` names, created when missing; its alias (`-` for `_`) leads to it unless another child shares it. */
export function childAt(node: RouteNode, key: string): RouteNode {
  let child = node.children.get(key)
  if (child) return child
  node.children.set(key, (child = newNode()))
  if (node.names !== null && node.names.length < FEW_CHILDREN) {
    node.names.push(key)
    node.nodes!.push(child)
  } else {
    node.names = null
    node.nodes = null
  }
  const alias = aliasKey(key)
  node.aliases.set(alias, node.aliases.has(alias) ? null : child)
  return child
}

/**
 * The child a request path part selects: the one spelt exactly so, else the one it names with the other separator
 * (`style-rules` for `style_rules` and back) when only one child is spelt that way.
 */
export function childFor(node: RouteNode, part: string): RouteNode | undefined {
  const exact = node.names === null ? node.children.get(part) : among(node.names, node.nodes!, part)
  // Only a part with a separator can name a child by its alias (without one, the alias is the part itself).
  if (exact !== undefined || node.aliases.size === 0 || !hasSeparator(part)) return exact
  const alias = toRequestKey(part)
  return alias === undefined ? undefined : (node.aliases.get(alias) ?? undefined)
}

/**
 * The child of the few named `part`: compared one by one, lengths and first characters first (a part cut from a
 * request has no hash yet, and computing it and probing the map cost more than a few comparisons; a positional part
 * meets no child at all).
 */
function among(names: string[], nodes: RouteNode[], part: string): RouteNode | undefined {
  const n = part.length
  const first = part.charCodeAt(0)
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!
    if (name.length === n && name.charCodeAt(0) === first && name === part) return nodes[i]
  }
  return undefined
}

/** Most children a node compares one by one (`names`); a node with more looks a part up in `children`. */
export const FEW_CHILDREN = 8

function hasSeparator(part: string): boolean {
  return part.includes('-') || part.includes('_')
}

/** One handler: a class and one of its handler methods, with what was learned about it at start-up. */
export interface Handler {
  /** Its number in its table (0, 1, …, in the order the table took them): where an application keeps its function. */
  id: number
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
  /** How `types` are enforced before the call (undefined when they declare nothing to check, or `params` is given). */
  typed: TypedPlan | undefined
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
  /** Child nodes by segment, as written (`style_rules`, `foo-bar`, `v3`, `openapi.json`). */
  children: Map<string, RouteNode>
  /** The same children's segments and nodes in order while there are at most `FEW_CHILDREN`; null beyond. */
  names: string[] | null
  nodes: RouteNode[] | null
  /** Child nodes by their words joined by `-` (`style-rules`); null where two children share it (no alias then). */
  aliases: Map<string, RouteNode | null>
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
  /** The path template: `/v3/glossaries/{id}/entries`, `/v3/aml/monitoring/{jobId}/news/{reference}`. */
  path: string
  /** Every template of the handler when a method route's trailing parameter is optional (`/foo/bar`, `/foo/bar/{x}`). */
  paths?: string[]
  file: string
  handler: string
  /** `(id) {sort?, page?}`: positional parameters and keyword arguments (from the schema when declared). */
  params: string
}

/** Path lengths `RouteTable.staticByLength` tells apart; a longer path is always looked up in `staticPaths`. */
export const STATIC_LENGTHS = 256
/** Most remembered paths of one length compared one by one; a length with more is looked up in `staticPaths`. */
export const FEW_STATIC = 4

/** A path remembered as naming an endpoint through the tree's segments alone. */
export interface StaticPath {
  path: string
  endpoint: Endpoint
  renderError: ErrorRenderer | undefined
}

export class RouteTable {
  readonly root: RouteNode = newNode()
  /**
   * The paths requests named an endpoint by through its segments alone, with the endpoint and its error renderer
   * (the resolver's memory: a table does not change once built).
   */
  readonly staticPaths = new Map<string, StaticPath>()
  /**
   * The same paths by length, up to `STATIC_LENGTHS`: undefined where none has that length (a path of it is not looked
   * up: most often one with arguments), the few that have (up to `FEW_STATIC`, compared one by one: no hash of the new
   * string), or null where more have (looked up in `staticPaths`).
   */
  readonly staticByLength: (StaticPath[] | null | undefined)[] = new Array(STATIC_LENGTHS).fill(undefined)
  readonly rows: RouteRow[] = []
  /** How many handlers the table holds (the next handler's `id`). */
  handlerCount = 0
  /** What start-up noticed and did not refuse: unreachable names, methods that look like handlers, no handlers. */
  readonly warnings: string[] = []
  /** Named types the handlers' schemas refer to (`#/$defs/Name`). */
  defs: Record<string, Record<string, unknown>> = {}
  /** Where the handler types came from: the manifest, a fresh analysis, or nowhere (names only). */
  types: Signatures['origin'] = 'none'
  /** The controller files whose types this build analysed (the stale ones; the others came from the manifest). */
  analysed: string[] = []
  /**
   * Where the validators of the handler types came from: the module `routeless build` generated (`generated`), the
   * same source evaluated at start-up (`evaluated`), Ajv at start-up (`ajv`); undefined when no types were read.
   */
  validators: 'generated' | 'evaluated' | 'ajv' | undefined = undefined
  /** The return types' serializer factories generated with the validators (`compiler/codegen/serializer.ts`). */
  serializers: Record<string, SerializerFactory | null> | undefined = undefined
  /** The handlers' functions `routeless build` generated, by the key of their source (`runtime/handlers/handlers.ts`). */
  code: Record<string, Function> | undefined = undefined
  /**
   * The evaluator of a handler's code the build lacks (`runtime/handlers/handlers.ts`'s `Evaluate`), when the table was built
   * with development's tools at hand (`routeless`'s `buildRouteTable`); an app's own service comes first.
   */
  evaluate: Function | undefined = undefined
  /** The lifecycle parts (`runtime/handlers/handlers.ts`) for `new Application(table)`, when built with them at hand. */
  lifecycle: object | undefined = undefined
  /** The validator of a schema the types hold (a WebSocket's incoming messages), from the same validators. */
  validator: ((schema: JsonSchema) => ValidateFunction) | undefined = undefined

  /** Every listed path of every handler as `{ method, path, file, handler }`, sorted by path then method (for `routeless routes`). */
  list(): RouteRow[] {
    return this.rows
      .flatMap((row) => (row.paths ? row.paths.map((path) => ({ ...row, path })) : [row]))
      .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
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
