/**
 * Auth helpers: guards that run before a handler. A guard throws `AccessDenied` (401 with `WWW-Authenticate`) when
 * credentials are missing or wrong, and a 403 `HttpError` when they are right but not enough.
 *
 * Apply them to a method (`static auth = { POST: guard }`), a class (`static auth = guard`, or an array), or a
 * module tree (a module exporting `auth` guards every controller in it and under it).
 * @module
 */
import type { Controller } from '../base/controller.ts'
import { AccessDenied, HttpError } from '../base/errors.ts'
import { parseHandlerName } from '../base/handler-names.ts'
import { describeGuard, type SecurityScheme } from './guard-info.ts'

/**
 * The request's headers as a guard reads them: `this.headers` (no Fetch `Request` is built), or the `Request`'s for a
 * controller made outside routeless.
 */
function headersOf(controller: Controller<any>): { get(name: string): string | null } {
  return controller.headers ?? controller.request.headers
}

/** Runs before the handler, with the controller instance (request, kwargs, context …). */
export type Guard = (controller: Controller<any>) => void | Promise<void>

/** What `static auth` or a module's `auth` export may hold. */
export type AuthSpec = Guard | readonly Guard[] | Partial<Record<string, Guard | readonly Guard[]>>

/** What a `verify` returns: the principal, or a falsy value to refuse (401). */
type Verdict<P> = P | undefined | null | false | Promise<P | undefined | null | false>

interface VerifyOptions<P> {
  /** The realm of the `WWW-Authenticate` challenge. */
  realm?: string
  /**
   * Decides, once authenticated, whether this principal may call this handler; false → 403.
   */
  authorize?: (principal: P, controller: Controller<any>) => boolean | Promise<boolean>
}

/** HTTP Basic: `verify(username, password)` returns the principal (stored on `controller.principal`) or a falsy value. */
export function basicAuth<P>(
  options: VerifyOptions<P> & {
    verify: (username: string, password: string, controller: Controller<any>) => Verdict<P>
  },
): Guard {
  const realm = options.realm ?? 'routeless'
  const guard: Guard = async (controller) => {
    const header = headersOf(controller).get('authorization') ?? ''
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)
    if (!m) throw new AccessDenied('Authentication required', { scheme: 'Basic', realm })
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) throw new AccessDenied('Malformed Basic credentials', { scheme: 'Basic', realm })
    const principal = await options.verify(decoded.slice(0, colon), decoded.slice(colon + 1), controller)
    if (!principal) throw new AccessDenied('Invalid credentials', { scheme: 'Basic', realm })
    await admit(principal, controller, options.authorize)
  }
  return describeGuard(guard, {
    security: [{ scheme: { type: 'http', scheme: 'basic' } }],
    refuses: options.authorize ? [401, 403] : [401],
    headers: { 401: ['WWW-Authenticate'] },
  })
}

/** Options of `bearerAuth` beyond `verify`. */
export interface BearerOptions {
  /** Authorization scheme (default `Bearer`): `Authorization: <scheme> <token>`. */
  scheme?: string
  /** Read the token from this header instead, whole (`SmileID-Token: <token>`). */
  header?: string
  /**
   * Status of a failure (default 401 with a `WWW-Authenticate` challenge). APIs whose clients expect 403 for a bad
   * key (DeepL) set 403: no challenge is sent.
   */
  status?: 401 | 403
  /** Messages of the two failures. */
  messages?: { missing?: string; invalid?: string }
}

/** Bearer tokens (RFC 6750), another scheme name, or a header of its own; see `BearerOptions`. */
export function bearerAuth<P>(
  options: VerifyOptions<P> &
    BearerOptions & {
      verify: (token: string, controller: Controller<any>) => Verdict<P>
    },
): Guard {
  const realm = options.realm ?? 'routeless'
  const scheme = options.scheme ?? (options.header ? options.header : 'Bearer')
  const header = options.header?.toLowerCase()
  const pattern = new RegExp(`^${scheme.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+(\\S+)\\s*$`, 'i')
  const missing = options.messages?.missing ?? 'Authentication required'
  const invalid = options.messages?.invalid ?? 'Invalid token'
  const fail = (message: string, error?: string): HttpError =>
    options.status === 403
      ? new HttpError(403, message)
      : new AccessDenied(message, {
          scheme,
          realm,
          headers: error ? { 'WWW-Authenticate': `${scheme} realm="${realm}", error="${error}"` } : undefined,
        })
  // Synchronous when `verify` (and `authorize`) are: the lifecycle then answers in the same tick.
  const guard: Guard = (controller) => {
    const headers = headersOf(controller)
    const token = header
      ? headers.get(header)?.trim() || undefined
      : pattern.exec(headers.get('authorization') ?? '')?.[1]
    if (token === undefined) throw fail(missing)
    return andThen(options.verify(token, controller), (principal) => {
      if (!principal) throw fail(invalid, 'invalid_token')
      return admit(principal, controller, options.authorize)
    })
  }
  const refuses = options.status === 403 ? [403] : options.authorize ? [401, 403] : [401]
  return describeGuard(guard, {
    security: [{ scheme: bearerScheme(scheme, options.header) }],
    refuses,
    ...(options.status === 403 ? {} : { headers: { 401: ['WWW-Authenticate'] } }),
  })
}

/** The OpenAPI security scheme `bearerAuth` checks: HTTP Bearer, a header of its own, or another scheme's header. */
function bearerScheme(scheme: string, header: string | undefined): SecurityScheme {
  if (header) return { type: 'apiKey', in: 'header', name: header }
  if (scheme.toLowerCase() === 'bearer') return { type: 'http', scheme: 'bearer' }
  return { type: 'apiKey', in: 'header', name: 'Authorization', description: `\`Authorization: ${scheme} <token>\`` }
}

/** A custom check: a falsy result → 403 (or the given status and message). */
export function check(
  fn: (controller: Controller<any>) => unknown,
  options: { status?: number; message?: string } = {},
): Guard {
  const guard: Guard = async (controller) => {
    const result = await fn(controller)
    if (!result) throw new HttpError(options.status ?? 403, options.message ?? 'Forbidden')
    // A check that returns who passed (not just `true`) sets the principal, as `verify` does.
    if (result !== true) controller.principal = result
  }
  return describeGuard(guard, { refuses: [options.status ?? 403] })
}

function admit<P>(
  principal: P,
  controller: Controller<any>,
  authorize: VerifyOptions<P>['authorize'],
): void | Promise<void> {
  controller.principal = principal
  if (!authorize) return
  return andThen(authorize(principal, controller), (allowed) => {
    if (!allowed) throw new HttpError(403, 'Forbidden')
  })
}

/** `fn(value)`, after `value` settles when it is a promise: synchronous code stays synchronous. */
function andThen<T, R>(value: T | PromiseLike<T>, fn: (value: T) => R): R | Promise<Awaited<R>> {
  if (typeof (value as PromiseLike<T> | undefined)?.then === 'function')
    return Promise.resolve(value).then(fn) as Promise<Awaited<R>>
  return fn(value as T)
}

/** Names the keys of a per-method `AuthSpec` that are not handler names (`{ Post: … }`): a start-up error. */
export function unknownAuthKeys(spec: AuthSpec | undefined): string[] {
  if (!spec || typeof spec === 'function' || Array.isArray(spec)) return []
  return Object.keys(spec).filter((k) => typeof parseHandlerName(k) !== 'object')
}

/**
 * The guards an `AuthSpec` gives to the handler `name` answering `verb`: its own entry (`GET_$_entries`), else its
 * verb's (`GET` covers every GET handler of the class), else GET's for HEAD.
 */
export function guardsFor(spec: AuthSpec | undefined, name: string, verb: string = name): Guard[] {
  if (!spec) return []
  if (typeof spec === 'function') return [spec]
  if (Array.isArray(spec)) return [...spec]
  const entries = spec as Partial<Record<string, Guard | readonly Guard[]>>
  const own = entries[name] ?? entries[verb] ?? (verb === 'HEAD' ? entries.GET : undefined)
  return own === undefined ? [] : typeof own === 'function' ? [own] : [...own]
}
