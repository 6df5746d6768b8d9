/**
 * Internal to assemble-table.ts: adds one controller module to the table — its classes' handler methods placed in the
 * tree (`GET_$_entries` below `{id}`), each with what start-up learned about it (signature, types, binders, guards,
 * body rules) — and the tree's nodes themselves.
 * @module
 */
import { BODY_KINDS, type BodyKind, type ErrorRenderer } from '../base/controller.ts'
import { RoutelessError } from '../base/errors.ts'
import { isControllerName, isReachableSegment, toSegment, writtenSegment } from '../base/naming.ts'
import { HTTP_METHODS, parseHandlerName, placeholders, type HandlerName } from '../base/handler-names.ts'
import { signatureFromTypes, type Signature } from './arity.ts'
import type { Signatures } from '../contract/signatures.ts'
import type { TypedPlan } from '../contract/typed-binder.ts'
import type { HandlerTypes } from '../contract/manifest.ts'
import type { Binder, ParamSpec } from '../contract/standard-schema.ts'
import type { TableParts } from './table-parts.ts'
import { guardsFor, unknownAuthKeys, type AuthSpec, type Guard } from '../guards/auth.ts'
import type { ModuleExports, ModuleSource } from '../base/module-source.ts'
import { childAt, newNode, type Endpoint, type Handler, type RouteNode, type RouteTable } from './table.ts'

/** `file` relative to `cwd`, for messages (as given when it lies outside). Pure string work: a Worker has no `node:path`. */
export function rel(cwd: string, file: string): string {
  const base = cwd.replace(/[\\/]+$/, '')
  const sep = file[base.length]
  return file.startsWith(base) && (sep === '/' || sep === '\\') ? file.slice(base.length + 1) : file
}

export function nodeAt(from: RouteNode, keys: string[]): RouteNode {
  let node = from
  for (const k of keys) node = childAt(node, k)
  return node
}

type Statics = {
  bodyLimit?: number
  accepts?: readonly string[]
  consumes?: readonly BodyKind[]
  renderError?: ErrorRenderer
  params?: Record<string, ParamSpec>
  auth?: AuthSpec
}

/** How `addModule` makes each handler: its types, its typed binder, and the parts of the assembly in use. */
export interface AddContext {
  cwd: string
  signatures: Signatures
  /** The plan of a handler's typed binder (`runtime/contract/typed-binder.ts`), or undefined when it checks nothing. */
  plan: (types: HandlerTypes) => TypedPlan | undefined
  parts: TableParts
}

export function addModule(
  table: RouteTable,
  s: ModuleSource,
  exports: ModuleExports,
  { cwd, signatures, plan, parts }: AddContext,
): void {
  const file = rel(cwd, s.file)
  // As written when a request may spell it so (`biometric_kyc`), else kebab-cased (`userProfile` → `user-profile`).
  const keys = s.parts.map(writtenSegment)
  const unreachable = s.parts.find((_, i) => !isReachableSegment(keys[i]!))
  if (unreachable !== undefined) {
    table.warnings.push(
      `${file}: no request path can name "${unreachable}" ` +
        '(use lower-case letters, digits, dots, and - or _ between words): its controllers are not served',
    )
    return
  }
  const moduleNode = nodeAt(table.root, keys)
  if (typeof exports.renderError === 'function') moduleNode.renderError = exports.renderError as ErrorRenderer
  if (exports.auth !== undefined) {
    const spec = exports.auth as AuthSpec
    checkAuthKeys(spec, `${file} exports auth`)
    moduleNode.auth.push(spec)
  }
  const touched = new Set<Endpoint>()
  for (const [className, value] of Object.entries(exports)) {
    if (!isClass(value)) continue
    const { handlers, malformed } = handlerMethods(value)
    for (const name of malformed) {
      table.warnings.push(
        `${file}: ${className}.${name}() looks like a handler but is not one: handlers are named ` +
          'GET, POST … QUERY, ANY or WEBSOCKET, optionally followed by _words and _$ (GET_bar, GET_$_entries)',
      )
    }
    if (handlers.length === 0) continue
    if (!isControllerName(className)) {
      const better = className.replace(/^[^A-Za-z]+/, '').replace(/^./, (c) => c.toUpperCase()) || 'Default'
      table.warnings.push(
        `${file}: class ${className} has handlers but its name cannot name a path (export it under a name such as ${better})`,
      )
      continue
    }
    const classKeys = className === 'Default' ? [] : [toSegment(className)]
    const classNode = nodeAt(moduleNode, classKeys)
    const statics = value as unknown as Statics
    for (const { name, parsed } of handlers) {
      const fn = (value.prototype as Record<string, unknown>)[name] as Handler['fn']
      const types = signatures.lookup(s, className, name)
      const where = `${file} (${className}.${name})`
      const signature = types ? signatureFromTypes(types) : signatureOf(fn, parts, where)
      const captures = placeholders(parsed.steps)
      if (signature.max < captures) {
        throw new RoutelessError(
          'ROUTELESS_ERR_HANDLER_NAME',
          `${where} has ${captures} $ placeholder${captures === 1 ? '' : 's'} ` +
            `but takes ${signature.max} positional parameter${signature.max === 1 ? '' : 's'}`,
        )
      }
      let node = classNode
      const shownPath = [...keys, ...classKeys]
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
      const urlPath = `/${shownPath.join('/')}`
      const endpoint = (node.endpoint ??= {
        path: urlPath,
        methods: new Map(),
        allow: '',
        renderError: undefined,
        minArgs: Infinity,
        maxArgs: 0,
      })
      const existing = endpoint.methods.get(parsed.verb)
      if (existing) {
        throw new RoutelessError(
          'ROUTELESS_ERR_ROUTE_CONFLICT',
          `${parsed.verb} ${endpoint.path} is claimed by both ` +
            `${existing.file} (${existing.className}.${existing.name}) and ${file} (${className}.${name})`,
        )
      }
      const spec = statics.params?.[name]
      const handler: Handler = {
        id: table.handlerCount++,
        method: parsed.verb,
        name,
        path: urlPath,
        captures,
        file,
        className,
        cls: value,
        fn,
        signature,
        params: spec,
        // A spec with schemas binds by them; one that only documents (summary, tags, responses) leaves the types to bind.
        binder: spec && (spec.args || spec.kwargs) ? binderOf(spec, signature.names, parts, where) : undefined,
        types,
        typed: types && !(spec?.args || spec?.kwargs) ? planTyped(plan, types, where) : undefined,
        guards: classGuards(statics.auth, name, parsed.verb, `${file} (${className})`),
        moduleKeys: keys,
        bodyLimit: statics.bodyLimit,
        accepts: statics.accepts,
        consumes: consumesOf(statics.consumes, `${file} (${className})`),
        renderError: typeof statics.renderError === 'function' ? statics.renderError.bind(value) : undefined,
        before: typeof value.prototype.before === 'function' ? value.prototype.before : undefined,
      }
      endpoint.methods.set(parsed.verb, handler)
      touched.add(endpoint)
      if (parts.routeRow) table.rows.push(parts.routeRow(handler, parsed.steps.length > 0, signatures.defs))
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

/** The signature of a handler the manifest does not type, read from its source (a bundle without: a stale build). */
function signatureOf(fn: Function, parts: TableParts, where: string): Signature {
  if (parts.readSignature) return parts.readSignature(fn)
  throw new RoutelessError(
    'ROUTELESS_ERR_TYPES',
    `${where}: the manifest this bundle was built with does not type it: run routeless build --target=worker again`,
  )
}

/** The binder of a `static params` spec with schemas (a bundle without one: a stale build). */
function binderOf(spec: ParamSpec, names: string[], parts: TableParts, where: string): Binder {
  if (parts.compileBinder) return parts.compileBinder(spec, names)
  throw new RoutelessError(
    'ROUTELESS_ERR_CONTROLLER',
    `${where}: its static params were not there when this bundle was built: run routeless build --target=worker again`,
  )
}

function planTyped(
  plan: (types: HandlerTypes) => TypedPlan | undefined,
  types: HandlerTypes,
  where: string,
): TypedPlan | undefined {
  try {
    return plan(types)
  } catch (cause) {
    throw new RoutelessError(
      'ROUTELESS_ERR_TYPES',
      `${where}: its parameter types cannot be checked: ${(cause as Error).message}`,
      { cause },
    )
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
  checkAuthKeys(spec, `${where} has static auth`)
  return guardsFor(spec, name, verb)
}

/** A start-up error when an `AuthSpec` names keys that are not handler methods (`{ Post: … }`). */
function checkAuthKeys(spec: AuthSpec | undefined, owner: string): void {
  const unknown = unknownAuthKeys(spec)
  if (unknown.length)
    throw new RoutelessError(
      'ROUTELESS_ERR_AUTH_SPEC',
      `${owner} for ${unknown.join(', ')}, which are not handler methods`,
    )
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
      if (
        handlers.has(name) ||
        malformed.has(name) ||
        typeof Object.getOwnPropertyDescriptor(proto, name)?.value !== 'function'
      )
        continue
      const parsed = parseHandlerName(name)
      if (parsed === 'malformed') malformed.add(name)
      else if (parsed) handlers.set(name, parsed)
    }
  }
  const sorted = [...handlers].sort(([a], [b]) => a.localeCompare(b)).map(([name, parsed]) => ({ name, parsed }))
  return { handlers: sorted, malformed: [...malformed] }
}

/** `static consumes`, checked once: a misspelt kind would silently refuse every body. */
function consumesOf(value: unknown, where: string): readonly BodyKind[] | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value) || value.some((k) => !BODY_KINDS.includes(k))) {
    throw new RoutelessError(
      'ROUTELESS_ERR_CONTROLLER',
      `${where}: static consumes must list some of ${BODY_KINDS.map((k) => `'${k}'`).join(', ')}, got ${JSON.stringify(value)}`,
    )
  }
  return value as BodyKind[]
}
