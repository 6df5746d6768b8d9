/**
 * The optional base class of controllers. Any exported class with UPPERCASE HTTP-method methods is a controller;
 * extending `Controller` gives typed access to the request and the response being built.
 * @module
 */
import type { RequestHeaders } from './headers.ts'
import type { HttpError } from './errors.ts'

/** A keyword argument's value: query and form fields are strings (arrays when repeated), JSON keeps its types. */
export type KwargValue = string | string[] | File | File[] | number | boolean | null | KwargObject | KwargValue[]
export interface KwargObject {
  [key: string]: KwargValue
}
export type Kwargs = Record<string, KwargValue | undefined>

/** What a controller instance is given for one request. */
export interface RequestContext {
  request: Request
  url: URL
  /** Keyword arguments: query parameters, then body fields on top (body over query). */
  kwargs: Kwargs
  /** The decoded request body: JSON value, form fields, raw bytes for accepted raw types, or undefined. */
  body: unknown
  /** Positional arguments (decoded path parts after the controller's path). */
  args: string[]
  /** Values set by the adapter, e.g. `remoteAddress`. */
  env: ServerEnv
}

/**
 * `this.env`: what the server that received the request tells about it. routeless/node and routeless/uws set both
 * members; under `app.fetch` it is what the caller passed (empty by default).
 */
export interface ServerEnv {
  [key: string]: unknown
  /** The peer's address. */
  remoteAddress?: string
  /**
   * The server is going away: its `close()` was called (SIGTERM under the CLI), and it goes on serving for its drain
   * delay so that a load balancer sees readiness fail and stops sending. A readiness check answers 503 when it is true.
   */
  draining?: boolean
}

/** The bodies routeless decodes: JSON, urlencoded forms, multipart forms (a class takes all by default). */
export const BODY_KINDS = ['json', 'form', 'multipart'] as const
export type BodyKind = (typeof BODY_KINDS)[number]

/** The response a handler is building: set `status` or add `headers`, return the body. */
export interface ResponseState {
  status?: number
  headers: Headers
}

/** Signature of an error renderer: return a Response to replace the default JSON envelope. */
export type ErrorRenderer = (error: HttpError, request: Request) => Response | undefined | Promise<Response | undefined>

/** The parameters of a handler after its path parts: its keyword object (`{ text, target_lang }`), else `Kwargs`. */
export type HandlerKwargs<H> = H extends (...args: infer P) => unknown
  ? P extends [...unknown[], infer K]
    ? NonNullable<K> extends object
      ? NonNullable<K>
      : Kwargs
    : Kwargs
  : Kwargs

/** The positional parameters of a handler, as its types convert them (`[id: number, part?: string]`). */
export type HandlerArgs<H> = H extends (...args: infer P) => unknown
  ? P extends [...infer A, infer K]
    ? NonNullable<K> extends object
      ? A
      : P
    : P
  : unknown[]

/**
 * `Context`: the application's services (`this.context`); `Principal`: what the class's auth guards admit
 * (`this.principal`), e.g. `class Admin extends Controller<Services, Session>`.
 */
export class Controller<Context = unknown, Principal = unknown> {
  /** The application's `context` option: the services (database, stores) controllers use. */
  declare context: Context
  declare request: Request
  declare url: URL
  /**
   * The request's headers, cookies (`this.headers.cookie('session')`) and content negotiation
   * (`this.headers.accepts('text/html', 'application/json')`), read without building a Fetch `Request`.
   */
  declare headers: RequestHeaders
  /**
   * Keyword arguments: query parameters, then body fields on top. In the handler, converted and checked by its
   * types (a `count: number` is a number here too); in guards and `before()`, as sent. Typed: `this.kwargsOf(this.GET)`.
   */
  declare kwargs: Kwargs
  declare body: unknown
  /** Positional arguments: path parts, converted by the handler's types once bound (strings before, or untyped). */
  declare args: unknown[]
  /** What the server tells about the request: `remoteAddress`, and `draining` while it is going away. */
  declare env: ServerEnv
  /** Status and headers of the response; a returned `Response` is used as is. */
  declare response: ResponseState
  /** Who the auth guards admitted (what their `verify` returned). */
  declare principal: Principal

  /** Largest request body this controller accepts, in bytes (default: the application's `bodyLimit`). */
  static bodyLimit?: number
  /**
   * Content types accepted as raw bytes (`this.body` is a `Uint8Array`), besides the parsed JSON, urlencoded and
   * multipart forms. `'*\/*'` accepts anything.
   */
  static accepts?: readonly string[]
  /**
   * The decoded body kinds this class takes (default all: `['json', 'form', 'multipart']`); any other body is a 415
   * whose `Accept-Post`/`Accept-Patch` list these. Raw types in `accepts` are taken besides.
   */
  static consumes?: readonly BodyKind[]
  /** Shapes every error answered by this class (and its subclasses) — each example API has its own error format. */
  static renderError?: ErrorRenderer

  /**
   * `this.kwargs` typed as `handler` declares its keyword parameter, in the handler (after binding):
   * `const { text } = this.kwargsOf(this.POST)`.
   */
  kwargsOf<H extends (...args: any[]) => unknown>(handler: H): HandlerKwargs<H> {
    void handler
    return this.kwargs as HandlerKwargs<H>
  }

  /** `this.args` typed as `handler` declares its positional parameters, in the handler (after binding). */
  argsOf<H extends (...args: any[]) => unknown>(handler: H): HandlerArgs<H> {
    void handler
    return this.args as HandlerArgs<H>
  }

  /** Runs before every handler of this class; throw an `HttpError` to stop (auth checks live here). */
  before?(): void | Promise<void>
}
