/**
 * Discovers controller modules under one or more prefixes and compiles them, once, into a `RouteTable`:
 * a tree keyed by path part whose nodes carry the handlers that answer there.
 * @module
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import type { ErrorRenderer } from './controller.ts'
import { RoutelessError } from './errors.ts'
import { isControllerName, toClassKey } from './_naming.ts'
import { readSignature, type Signature } from './_params.ts'
import { compileBinder, describeParams, type Binder, type ParamSpec } from './params.ts'
import { guardsFor, unknownAuthKeys, type AuthSpec, type Guard } from './auth.ts'

/** The methods a controller may define; any other request method is answered 501. */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY'] as const
const METHOD_SET = new Set<string>(HTTP_METHODS)
/** Handler names: the HTTP methods, plus `WEBSOCKET` for upgrades (never reachable as an HTTP method token). */
const HANDLER_NAMES = [...HTTP_METHODS, 'WEBSOCKET'] as const
const HANDLER_SET = new Set<string>(HANDLER_NAMES)

/** One handler: a class and one of its UPPERCASE methods, with what was learned about it at start-up. */
export interface Handler {
  method: string
  /** `/foo/bar` */
  path: string
  file: string
  className: string
  cls: new () => any
  fn: (...args: unknown[]) => unknown
  signature: Signature
  bodyLimit: number | undefined
  accepts: readonly string[] | undefined
  renderError: ErrorRenderer | undefined
  before: ((...args: unknown[]) => unknown) | undefined
  /** The method's parameter schemas (`static params = { GET: … }`) and their compiled binder. */
  params: ParamSpec | undefined
  binder: Binder | undefined
  /** Auth guards, module tree first, then the class's, then the method's; run before `before()`. */
  guards: Guard[]
  /** Keys of the module that defines the class (for module-tree guards). */
  moduleKeys: string[]
}

/** The handlers that answer one path, by method, with the precomputed `Allow` header. */
export interface Endpoint {
  path: string
  methods: Map<string, Handler>
  allow: string
  /** A class renderer of this path's controllers, for the errors no handler is running for (405). */
  renderError: ErrorRenderer | undefined
  /** Fewest and most positional parts any of its handlers takes (OPTIONS and 405 answer only within them). */
  minArgs: number
  maxArgs: number
}

export interface RouteNode {
  children: Map<string, RouteNode>
  endpoint: Endpoint | undefined
  /** A module's exported `renderError`, applying to its whole tree. */
  renderError: ErrorRenderer | undefined
  /** A module's exported `auth` spec, applying to its whole tree (per handler method when it is an object). */
  auth: AuthSpec[]
}

/** A module's exports, as given by `import()` or by a module map. */
export type ModuleExports = Record<string, unknown>

/** A module found under a prefix: the path parts it answers and where it came from. */
export interface ModuleSource {
  parts: string[]
  file: string
  /** The prefix it was found under: two modules answering one path conflict only within one prefix. */
  root?: string
  load: () => Promise<ModuleExports>
}

export interface RouteRow {
  method: string
  path: string
  file: string
  handler: string
  /** `(id) {sort?, page?}`: positional parameters and keyword arguments (from the schema when declared). */
  params: string
}

export class RouteTable {
  readonly root: RouteNode = newNode()
  readonly rows: RouteRow[] = []

  /** Every handler as `{ method, path, file, handler }`, sorted by path then method (for `routeless routes`). */
  list(): RouteRow[] {
    return [...this.rows].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
  }
}

function newNode(): RouteNode {
  return { children: new Map(), endpoint: undefined, renderError: undefined, auth: [] }
}

const MODULE_EXT = ['.ts', '.mts', '.js', '.mjs']

/** Files and folders under `prefix` that are controller modules. Files starting with `_` or `.` are private. */
export function discoverModules(prefix: string, cwd = process.cwd(), generation = 0): ModuleSource[] {
  const abs = path.resolve(cwd, prefix)
  const found: ModuleSource[] = []
  const asFile = resolveModuleFile(abs)
  if (!existsSync(abs) || !statSync(abs).isDirectory()) {
    if (!asFile) {
      throw new RoutelessError('ROUTELESS_ERR_PREFIX_NOT_FOUND', `Controller prefix "${prefix}" not found: ${abs} is neither a directory nor a module file`)
    }
    found.push(source([], asFile, abs, generation))
    return found
  }
  walk(abs, [], found, abs, generation)
  return found
}

function resolveModuleFile(abs: string): string | undefined {
  if (MODULE_EXT.some((e) => abs.endsWith(e)) && existsSync(abs) && statSync(abs).isFile()) return abs
  for (const e of MODULE_EXT) if (existsSync(abs + e) && statSync(abs + e).isFile()) return abs + e
  return undefined
}

function isModuleFile(name: string): boolean {
  return MODULE_EXT.some((e) => name.endsWith(e)) && !name.endsWith('.d.ts') && !/\.(test|spec)\.[mc]?[jt]s$/.test(name)
}

function walk(dir: string, parts: string[], out: ModuleSource[], root: string, generation: number): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))
  for (const entry of entries) {
    if (entry.name.startsWith('_') || entry.name.startsWith('.') || entry.name === 'node_modules') continue
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) walk(full, [...parts, entry.name], out, root, generation)
    else if (entry.isFile() && isModuleFile(entry.name)) {
      const base = entry.name.replace(/\.[mc]?[jt]s$/, '')
      out.push(source(base === 'index' ? parts : [...parts, base], full, root, generation))
    }
  }
}

/** `generation` > 0 (watch mode) loads a fresh copy of the module: a new URL for ESM, a cleared cache for CommonJS. */
function source(parts: string[], file: string, root: string, generation: number): ModuleSource {
  const url = pathToFileURL(file).href + (generation > 0 ? `?routeless-generation=${generation}` : '')
  return {
    parts, file, root,
    load: async () => {
      if (generation > 0) delete requireCache[file]
      return unwrapCommonJs(await import(url))
    },
  }
}

const requireCache = createRequire(import.meta.url).cache

/** A `.ts` file outside a `"type": "module"` package loads as CommonJS: its exports arrive under `default`. */
function unwrapCommonJs(ns: ModuleExports): ModuleExports {
  const named = Object.keys(ns).filter((k) => k !== 'default' && k !== 'module.exports')
  const def = ns.default
  if (named.length === 0 && typeof def === 'object' && def !== null) return def as ModuleExports
  return ns
}

export interface BuildOptions {
  /** Base directory used to print file names (default: the working directory). */
  cwd?: string
}

/** Loads every module (in parallel) and compiles the route table. Throws a coded `RoutelessError` on any mistake. */
export async function buildRouteTable(sources: ModuleSource[], options: BuildOptions = {}): Promise<RouteTable> {
  const cwd = options.cwd ?? process.cwd()
  const table = new RouteTable()
  const seen = new Map<string, string>()
  for (const s of sources) {
    const key = `${s.root ?? ''}\0${s.parts.map(toClassKey).join('/')}`
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
  for (const { s, exports } of loaded) addModule(table, s, exports, cwd)
  applyTreeGuards(table)
  return table
}

/** Prepends the guards of every module above a handler's module (root first). */
function applyTreeGuards(table: RouteTable): void {
  const visit = (node: RouteNode) => {
    for (const handler of node.endpoint?.methods.values() ?? []) {
      const ofNode = (n: RouteNode) => n.auth.flatMap((spec) => guardsFor(spec, handler.method))
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
    for (const child of node.children.values()) visit(child)
  }
  visit(table.root)
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

function nodeAt(table: RouteTable, keys: string[]): RouteNode {
  let node = table.root
  for (const k of keys) {
    let child = node.children.get(k)
    if (!child) node.children.set(k, (child = newNode()))
    node = child
  }
  return node
}

function addModule(table: RouteTable, s: ModuleSource, exports: ModuleExports, cwd: string): void {
  const keys = s.parts.map(toClassKey)
  const moduleNode = nodeAt(table, keys)
  if (typeof exports.renderError === 'function') moduleNode.renderError = exports.renderError as ErrorRenderer
  if (exports.auth !== undefined) {
    const spec = exports.auth as AuthSpec
    const unknown = unknownAuthKeys(spec)
    if (unknown.length) throw new RoutelessError('ROUTELESS_ERR_AUTH_SPEC', `${rel(cwd, s.file)} exports auth for ${unknown.join(', ')}, which are not handler methods`)
    moduleNode.auth.push(spec)
  }
  for (const [name, value] of Object.entries(exports)) {
    if (!isControllerName(name) || !isClass(value)) continue
    const methods = handlerMethods(value)
    if (methods.length === 0) continue
    const nodeKeys = name === 'Default' ? keys : [...keys, name]
    const urlPath = '/' + [...s.parts, ...(name === 'Default' ? [] : [kebab(name)])].join('/')
    const node = nodeAt(table, nodeKeys)
    const endpoint = (node.endpoint ??= { path: urlPath, methods: new Map(), allow: '', renderError: undefined, minArgs: Infinity, maxArgs: 0 })
    for (const method of methods) {
      const fn = (value.prototype as Record<string, unknown>)[method] as Handler['fn']
      const existing = endpoint.methods.get(method)
      const file = rel(cwd, s.file)
      if (existing) {
        throw new RoutelessError('ROUTELESS_ERR_ROUTE_CONFLICT', `${method} ${endpoint.path} is claimed by both ${existing.file} (${existing.className}.${method}) and ${file} (${name}.${method})`)
      }
      const statics = value as unknown as { bodyLimit?: number; accepts?: readonly string[]; renderError?: ErrorRenderer; params?: Record<string, ParamSpec>; auth?: AuthSpec }
      const signature = readSignature(fn)
      const spec = statics.params?.[method]
      endpoint.methods.set(method, {
        method, path: endpoint.path, file, className: name, cls: value, fn,
        signature,
        params: spec,
        binder: spec ? compileBinder(spec, signature.names) : undefined,
        guards: classGuards(statics.auth, method, `${file} (${name})`),
        moduleKeys: keys,
        bodyLimit: statics.bodyLimit,
        accepts: statics.accepts,
        renderError: typeof statics.renderError === 'function' ? statics.renderError.bind(value) : undefined,
        before: typeof value.prototype.before === 'function' ? value.prototype.before : undefined,
      })
      table.rows.push({ method, path: endpoint.path, file, handler: `${name}.${method}`, params: describeParams(signature.names, signature.min, spec, signature.kwargs) })
    }
    endpoint.allow = allowHeader(endpoint.methods)
    for (const h of endpoint.methods.values()) {
      endpoint.minArgs = Math.min(endpoint.minArgs, h.signature.min)
      endpoint.maxArgs = Math.max(endpoint.maxArgs, h.signature.max)
    }
    endpoint.renderError ??= [...endpoint.methods.values()].find((h) => h.renderError)?.renderError
  }
}

/** `Allow` lists the class's methods plus HEAD (from GET) and OPTIONS (always answered). */
function allowHeader(methods: Map<string, Handler>): string {
  const set = new Set(methods.keys())
  if (set.has('GET')) set.add('HEAD')
  set.add('OPTIONS')
  return HTTP_METHODS.filter((m) => set.has(m)).join(', ')
}

function classGuards(spec: AuthSpec | undefined, method: string, where: string): Guard[] {
  const unknown = unknownAuthKeys(spec)
  if (unknown.length) throw new RoutelessError('ROUTELESS_ERR_AUTH_SPEC', `${where} has static auth for ${unknown.join(', ')}, which are not handler methods`)
  return guardsFor(spec, method)
}

function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()
}

function isClass(value: unknown): value is new () => any {
  return typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value))
}

/** UPPERCASE HTTP-method names defined on the class or its bases (never inherited Object members). */
function handlerMethods(cls: Function): string[] {
  const out = new Set<string>()
  for (let proto = cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (HANDLER_SET.has(name) && typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function') out.add(name)
    }
  }
  return HANDLER_NAMES.filter((m) => out.has(m))
}

export function isHttpMethod(method: string): boolean {
  return METHOD_SET.has(method)
}
