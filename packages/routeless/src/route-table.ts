/**
 * Compiles controller modules, once, into a `RouteTable`: a tree keyed by path segment whose nodes carry the handlers
 * that answer there. Module discovery lives in `_discover.ts`, handler names in `_handler-names.ts`.
 * @module
 */
import path from 'node:path'
import type { ErrorRenderer } from './controller.ts'
import { RoutelessError } from './errors.ts'
import { isControllerName, isReachableSegment, toRequestKey, toSegment } from './_naming.ts'
import { HTTP_METHODS, parseHandlerName, placeholders, type HandlerName } from './_handler-names.ts'
import { readSignature, signatureFromTypes, type Signature } from './_params.ts'
import { loadSignatures, type Signatures, type TypesMode } from './signatures.ts'
import { compileTypedBinder, TypeValidators, type TypedBinder } from './typed-binder.ts'
import type { HandlerTypes, Manifest } from './manifest.ts'
import { compileBinder, describeParams, type Binder, type ParamSpec } from './params.ts'
import type { BodyKind } from './request.ts'
import { guardsFor, unknownAuthKeys, type AuthSpec, type Guard } from './auth.ts'
import { findAmbiguity } from './_ambiguity.ts'
import type { ModuleExports, ModuleSource } from './_discover.ts'

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

function newNode(): RouteNode {
  return { children: new Map(), param: undefined, endpoint: undefined, renderError: undefined, auth: [] }
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

function rel(cwd: string, file: string): string {
  const r = path.relative(cwd, file)
  return r.startsWith('..') ? file : r
}

function nodeAt(from: RouteNode, keys: string[]): RouteNode {
  let node = from
  for (const k of keys) {
    let child = node.children.get(k)
    if (!child) node.children.set(k, (child = newNode()))
    node = child
  }
  return node
}

type Statics = { bodyLimit?: number; accepts?: readonly string[]; consumes?: readonly BodyKind[]; renderError?: ErrorRenderer; params?: Record<string, ParamSpec>; auth?: AuthSpec }

function addModule(table: RouteTable, s: ModuleSource, exports: ModuleExports, cwd: string, signatures: Signatures, compile: (types: HandlerTypes) => TypedBinder | undefined): void {
  const file = rel(cwd, s.file)
  const keys = s.parts.map(toSegment)
  const unreachable = s.parts.find((_, i) => !isReachableSegment(keys[i]!))
  if (unreachable !== undefined) {
    table.warnings.push(`${file}: no request path can name "${unreachable}" (use lower-case letters, digits, dots, and - or _ between words): its controllers are not served`)
    return
  }
  // Listed as written when a request may spell it so (`biometric_kyc`), else as requests must (`userProfile` → `user-profile`).
  const shown = s.parts.map((p, i) => (toRequestKey(p) === undefined ? keys[i]! : p))
  const moduleNode = nodeAt(table.root, keys)
  if (typeof exports.renderError === 'function') moduleNode.renderError = exports.renderError as ErrorRenderer
  if (exports.auth !== undefined) {
    const spec = exports.auth as AuthSpec
    const unknown = unknownAuthKeys(spec)
    if (unknown.length) throw new RoutelessError('ROUTELESS_ERR_AUTH_SPEC', `${file} exports auth for ${unknown.join(', ')}, which are not handler methods`)
    moduleNode.auth.push(spec)
  }
  const touched = new Set<Endpoint>()
  for (const [className, value] of Object.entries(exports)) {
    if (!isClass(value)) continue
    const { handlers, malformed } = handlerMethods(value)
    for (const name of malformed) {
      table.warnings.push(`${file}: ${className}.${name}() looks like a handler but is not one: handlers are named GET, POST … QUERY, ANY or WEBSOCKET, optionally followed by _words and _$ (GET_bar, GET_$_entries)`)
    }
    if (handlers.length === 0) continue
    if (!isControllerName(className)) {
      table.warnings.push(`${file}: class ${className} has handlers but its name cannot name a path (export it under a name such as ${className.replace(/^[^A-Za-z]+/, '').replace(/^./, (c) => c.toUpperCase()) || 'Default'})`)
      continue
    }
    const classKeys = className === 'Default' ? [] : [toSegment(className)]
    const classNode = nodeAt(moduleNode, classKeys)
    const statics = value as unknown as Statics
    for (const { name, parsed } of handlers) {
      const fn = (value.prototype as Record<string, unknown>)[name] as Handler['fn']
      const types = signatures.lookup(s, className, name)
      const signature = types ? signatureFromTypes(types) : readSignature(fn)
      const captures = placeholders(parsed.steps)
      if (signature.max < captures) {
        throw new RoutelessError('ROUTELESS_ERR_HANDLER_NAME', `${file} (${className}.${name}) has ${captures} $ placeholder${captures === 1 ? '' : 's'} but takes ${signature.max} positional parameter${signature.max === 1 ? '' : 's'}`)
      }
      let node = classNode
      const shownPath = [...shown, ...classKeys]
      let arg = 0
      for (const step of parsed.steps) {
        if (step === '$') {
          node = node.param ??= newNode()
          shownPath.push(`{${signature.names[arg] ?? `arg${arg}`}}`)
          arg++
        } else {
          node = nodeAt(node, [step.segment])
          shownPath.push(step.segment)
        }
      }
      const urlPath = '/' + shownPath.join('/')
      const endpoint = (node.endpoint ??= { path: urlPath, methods: new Map(), allow: '', renderError: undefined, minArgs: Infinity, maxArgs: 0 })
      const existing = endpoint.methods.get(parsed.verb)
      if (existing) {
        throw new RoutelessError('ROUTELESS_ERR_ROUTE_CONFLICT', `${parsed.verb} ${endpoint.path} is claimed by both ${existing.file} (${existing.className}.${existing.name}) and ${file} (${className}.${name})`)
      }
      const spec = statics.params?.[name]
      endpoint.methods.set(parsed.verb, {
        method: parsed.verb, name, path: urlPath, captures, file, className, cls: value, fn,
        signature,
        params: spec,
        // A spec with schemas binds by them; one that only documents (summary, tags, responses) leaves the types to bind.
        binder: spec && (spec.args || spec.kwargs) ? compileBinder(spec, signature.names) : undefined,
        types,
        typed: types && !(spec?.args || spec?.kwargs) ? compileTyped(compile, types, `${file} (${className}.${name})`) : undefined,
        guards: classGuards(statics.auth, name, parsed.verb, `${file} (${className})`),
        moduleKeys: keys,
        bodyLimit: statics.bodyLimit,
        accepts: statics.accepts,
        consumes: consumesOf(statics.consumes, `${file} (${className})`),
        renderError: typeof statics.renderError === 'function' ? statics.renderError.bind(value) : undefined,
        before: typeof value.prototype.before === 'function' ? value.prototype.before : undefined,
      })
      touched.add(endpoint)
      table.rows.push({ method: parsed.verb, path: urlPath, file, handler: `${className}.${name}`, params: describeParams(signature.names, signature.min, spec, signature.kwargs, kwargsObject(types, signatures.defs)) })
    }
  }
  for (const endpoint of touched) {
    endpoint.allow = allowHeader(endpoint.methods)
    for (const h of endpoint.methods.values()) {
      endpoint.minArgs = Math.min(endpoint.minArgs, h.signature.min)
      endpoint.maxArgs = Math.max(endpoint.maxArgs, h.signature.max)
    }
    endpoint.renderError ??= [...endpoint.methods.values()].find((h) => h.renderError)?.renderError
  }
}

/** The object schema of a handler's typed keyword parameter (a named type looked up), for `routeless routes`. */
function kwargsObject(types: HandlerTypes | undefined, defs: Record<string, Record<string, any>>): Record<string, any> | undefined {
  const schema = types?.kwargs?.schema
  const ref = typeof schema?.$ref === 'string' && schema.$ref.startsWith('#/$defs/') ? defs[schema.$ref.slice(8)] : schema
  return ref?.type === 'object' && ref.additionalProperties === false ? ref : undefined
}

function compileTyped(compile: (types: HandlerTypes) => TypedBinder | undefined, types: HandlerTypes, where: string): TypedBinder | undefined {
  try {
    return compile(types)
  } catch (cause) {
    throw new RoutelessError('ROUTELESS_ERR_TYPES', `${where}: its parameter types cannot be checked: ${(cause as Error).message}`, { cause })
  }
}

/** `Allow` lists the class's methods plus HEAD (from GET) and OPTIONS (always answered); with `ANY`, every method. */
function allowHeader(methods: Map<string, Handler>): string {
  const set = new Set(methods.keys())
  if (set.has('ANY')) return HTTP_METHODS.join(', ')
  if (set.has('GET')) set.add('HEAD')
  set.add('OPTIONS')
  return HTTP_METHODS.filter((m) => set.has(m)).join(', ')
}

function classGuards(spec: AuthSpec | undefined, name: string, verb: string, where: string): Guard[] {
  const unknown = unknownAuthKeys(spec)
  if (unknown.length) throw new RoutelessError('ROUTELESS_ERR_AUTH_SPEC', `${where} has static auth for ${unknown.join(', ')}, which are not handler methods`)
  return guardsFor(spec, name, verb)
}

function isClass(value: unknown): value is new () => any {
  return typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value))
}

/** Handler methods defined on the class or its bases (never inherited Object members), and names that only look like one. */
function handlerMethods(cls: Function): { handlers: { name: string; parsed: HandlerName }[]; malformed: string[] } {
  const handlers = new Map<string, HandlerName>()
  const malformed = new Set<string>()
  for (let proto = cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (handlers.has(name) || malformed.has(name) || typeof Object.getOwnPropertyDescriptor(proto, name)?.value !== 'function') continue
      const parsed = parseHandlerName(name)
      if (parsed === 'malformed') malformed.add(name)
      else if (parsed) handlers.set(name, parsed)
    }
  }
  const sorted = [...handlers].sort(([a], [b]) => a.localeCompare(b)).map(([name, parsed]) => ({ name, parsed }))
  return { handlers: sorted, malformed: [...malformed] }
}

export function isHttpMethod(method: string): boolean {
  return METHOD_SET.has(method)
}

const BODY_KINDS: readonly BodyKind[] = ['json', 'form', 'multipart']

/** `static consumes`, checked once: a misspelt kind would silently refuse every body. */
function consumesOf(value: unknown, where: string): readonly BodyKind[] | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value) || value.some((k) => !BODY_KINDS.includes(k))) {
    throw new RoutelessError('ROUTELESS_ERR_CONTROLLER', `${where}: static consumes must list some of ${BODY_KINDS.map((k) => `'${k}'`).join(', ')}, got ${JSON.stringify(value)}`)
  }
  return value as BodyKind[]
}
