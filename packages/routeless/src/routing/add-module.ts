/**
 * Internal to compile-table.ts: adds one controller module to the table — its classes' handler methods placed in the
 * tree (`GET_$_entries` below `{id}`), each with what start-up learned about it (signature, types, binders, guards,
 * body rules) — and the tree's nodes themselves.
 * @module
 */
import { BODY_KINDS, type BodyKind, type ErrorRenderer } from '../base/controller.ts'
import { RoutelessError } from '../base/errors.ts'
import { isControllerName, isReachableSegment, toSegment, writtenSegment } from '../base/naming.ts'
import { HTTP_METHODS, parseHandlerName, placeholders, type HandlerName } from '../base/handler-names.ts'
import { readSignature, signatureFromTypes, type Signature } from './arity.ts'
import type { Signatures } from '../binding/signatures.ts'
import type { TypedPlan } from '../binding/typed-binder.ts'
import type { HandlerTypes } from '../binding/manifest.ts'
import { compileBinder, describeParams, type ParamSpec } from '../binding/standard-schema.ts'
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

export function addModule(
  table: RouteTable,
  s: ModuleSource,
  exports: ModuleExports,
  cwd: string,
  signatures: Signatures,
  compile: (types: HandlerTypes) => TypedPlan | undefined,
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
      const signature = types ? signatureFromTypes(types) : readSignature(fn)
      const captures = placeholders(parsed.steps)
      if (signature.max < captures) {
        throw new RoutelessError(
          'ROUTELESS_ERR_HANDLER_NAME',
          `${file} (${className}.${name}) has ${captures} $ placeholder${captures === 1 ? '' : 's'} ` +
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
      endpoint.methods.set(parsed.verb, {
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
        binder: spec && (spec.args || spec.kwargs) ? compileBinder(spec, signature.names) : undefined,
        types,
        typed:
          types && !(spec?.args || spec?.kwargs)
            ? compileTyped(compile, types, `${file} (${className}.${name})`)
            : undefined,
        guards: classGuards(statics.auth, name, parsed.verb, `${file} (${className})`),
        moduleKeys: keys,
        bodyLimit: statics.bodyLimit,
        accepts: statics.accepts,
        consumes: consumesOf(statics.consumes, `${file} (${className})`),
        renderError: typeof statics.renderError === 'function' ? statics.renderError.bind(value) : undefined,
        before: typeof value.prototype.before === 'function' ? value.prototype.before : undefined,
      })
      touched.add(endpoint)
      const listed = listedPaths(urlPath, parsed.steps.length > 0, captures, signature)
      table.rows.push({
        method: parsed.verb,
        path: listed[0]!,
        ...(listed.length > 1 ? { paths: listed } : {}),
        file,
        handler: `${className}.${name}`,
        params: describeParams(
          signature.names,
          signature.min,
          spec,
          signature.kwargs,
          kwargsObject(types, signatures.defs),
        ),
      })
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

/**
 * The path templates a handler is listed at. A method route's trailing positional parameters are part of its template
 * (`GET_$_news(jobId, reference)` → `/monitoring/{jobId}/news/{reference}`), one template per accepted count when
 * they are optional (a rest parameter: one more); a class's own `GET(id)` is listed at the class's path.
 */
function listedPaths(urlPath: string, methodRoute: boolean, captures: number, signature: Signature): string[] {
  const { min, max, names } = signature
  if (!methodRoute || max <= captures) return [urlPath]
  const from = Math.max(min, captures)
  const upper = Number.isFinite(max) ? max : from + 1
  const out: string[] = []
  for (let n = from; n <= upper; n++) {
    out.push(
      urlPath +
        names
          .slice(captures, n)
          .map((name, i) => `/{${name ?? `arg${captures + i}`}}`)
          .join(''),
    )
  }
  return out
}

/** The object schema of a handler's typed keyword parameter (a named type looked up), for `routeless routes`. */
function kwargsObject(
  types: HandlerTypes | undefined,
  defs: Record<string, Record<string, any>>,
): Record<string, any> | undefined {
  const schema = types?.kwargs?.schema
  const ref =
    typeof schema?.$ref === 'string' && schema.$ref.startsWith('#/$defs/') ? defs[schema.$ref.slice(8)] : schema
  return ref?.type === 'object' && ref.additionalProperties === false ? ref : undefined
}

function compileTyped(
  compile: (types: HandlerTypes) => TypedPlan | undefined,
  types: HandlerTypes,
  where: string,
): TypedPlan | undefined {
  try {
    return compile(types)
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
