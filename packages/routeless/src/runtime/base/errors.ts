/**
 * The one error model of routeless: `HttpError` and its named cases, plus the coded
 * start-up errors (`RoutelessError`) raised while the route table is built.
 * @module
 */
import type { HeadersInput } from './headers.ts'

const BRAND = Symbol.for('routeless.HttpError')

/** Reason phrases for the statuses routeless produces itself. */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  456: 'Quota Exceeded',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

export interface HttpErrorOptions {
  /** Headers added to the error response (`Allow`, `WWW-Authenticate`, `Retry-After` …). */
  headers?: HeadersInput
  /** A body that replaces the standard envelope; rendered like a handler's return value. */
  body?: unknown
  /** Extra members merged into the standard envelope (for example `errors: [...]`). */
  details?: Record<string, unknown>
  cause?: unknown
}

/** An error that becomes an HTTP response with `status`. Throw it from any handler. */
export class HttpError extends Error {
  readonly status: number
  readonly headers: Headers
  readonly body: unknown
  readonly details: Record<string, unknown> | undefined
  /** True when `body` was given: render it instead of the envelope. */
  readonly hasBody: boolean

  constructor(status: number, message?: string, options: HttpErrorOptions = {}) {
    super(
      message ?? STATUS_TEXT[status] ?? `HTTP ${status}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    )
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw new RangeError(`HttpError status must be an integer from 200 to 599, got ${status}`)
    }
    this.name = 'HttpError'
    this.status = status
    this.headers = new Headers(options.headers)
    this.hasBody = 'body' in options
    this.body = options.body
    this.details = options.details
  }

  /** The reason phrase of `status` ("Not Found"). */
  get statusText(): string {
    return STATUS_TEXT[this.status] ?? 'Error'
  }

  /** The documented JSON envelope: `{ status, error, message, ...details }`. */
  toJSON(): Record<string, unknown> {
    return { status: this.status, error: this.statusText, message: this.message, ...this.details }
  }
}
Object.defineProperty(HttpError.prototype, BRAND, { value: true })

/** Brand check that still works when two copies of routeless are loaded. */
export function isHttpError(value: unknown): value is HttpError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true
}

/** Alias kept for users of the Python original. */
export const CallError = HttpError

/** Redirect to `location` (302 by default). */
export class Redirect extends HttpError {
  constructor(location: string, status = 302, options: HttpErrorOptions = {}) {
    const headers = new Headers(options.headers)
    headers.set('Location', location)
    super(status, `Redirect to ${location}`, { ...options, headers, body: options.body ?? null })
    this.name = 'Redirect'
  }
}

/** 401 with a `WWW-Authenticate` challenge (`scheme` is for example `Basic` or `Bearer`). */
export class AccessDenied extends HttpError {
  constructor(
    message = 'Authentication required',
    options: HttpErrorOptions & { scheme?: string; realm?: string } = {},
  ) {
    const headers = new Headers(options.headers)
    if (!headers.has('WWW-Authenticate')) {
      headers.set('WWW-Authenticate', `${options.scheme ?? 'Bearer'} realm="${options.realm ?? 'routeless'}"`)
    }
    super(401, message, { ...options, headers })
    this.name = 'AccessDenied'
  }
}

/** Stop processing and answer `status` with `body` as a success (not logged as an error). */
export class CallStop extends HttpError {
  constructor(status: number, body: unknown = null, options: Omit<HttpErrorOptions, 'body'> = {}) {
    super(status, 'CallStop', { ...options, body })
    this.name = 'CallStop'
  }
}

/** Stable codes for developer mistakes found while the route table is built. */
export const ERROR_CODES = {
  ROUTELESS_ERR_PREFIX_NOT_FOUND: 'a --prefix names no directory or module file',
  ROUTELESS_ERR_MODULE_LOAD: 'a controller module failed to load (syntax error, failing import, throw at top level)',
  ROUTELESS_ERR_ROUTE_CONFLICT: 'two controllers claim the same method on the same path',
  ROUTELESS_ERR_AUTH_SPEC: 'an `auth` object names something that is not a handler method (`{ Post: … }`)',
  ROUTELESS_ERR_MODULE_CONFLICT:
    'two module files under one prefix map to the same path (a.ts and a.js, foo-bar.ts and foo_bar.ts)',
  ROUTELESS_ERR_ROUTE_AMBIGUOUS:
    'a sub-resource handler (`GET_$_entries`) and another handler of the same method could answer the same request',
  ROUTELESS_ERR_TYPES:
    "a handler's types cannot be read as a contract: a JSDoc constraint with a bad value or on the wrong type " +
    '(`@minimum abc`, `@pattern` on a number)',
  ROUTELESS_ERR_CONTROLLER:
    "a controller's static option has a value routeless cannot use (`static consumes = ['xml']`)",
  ROUTELESS_ERR_HANDLER_NAME: 'a handler name has more `$` placeholders than the handler takes positional parameters',
  ROUTELESS_ERR_TELEMETRY:
    '`tracing` or `metrics` asked for without its optional peer installed (`@opentelemetry/api`, `prom-client`), ' +
    'or a metrics path that is not absolute or that a controller answers',
  ROUTELESS_ERR_BUNDLE:
    '`routeless build --target=worker` could not bundle the tree (an import esbuild cannot resolve)',
} as const

export type RoutelessErrorCode = keyof typeof ERROR_CODES

/** A start-up error with a stable `code`. */
export class RoutelessError extends Error {
  readonly code: RoutelessErrorCode
  constructor(code: RoutelessErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'RoutelessError'
    this.code = code
  }
}
