/**
 * The optional base class of controllers. Any exported class with UPPERCASE HTTP-method methods is a controller;
 * extending `Controller` gives typed access to the request and the response being built.
 * @module
 */
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
  env: Record<string, unknown>
}

/** The response a handler is building: set `status` or add `headers`, return the body. */
export interface ResponseState {
  status?: number
  headers: Headers
}

/** Signature of an error renderer: return a Response to replace the default JSON envelope. */
export type ErrorRenderer = (error: HttpError, request: Request) => Response | undefined | Promise<Response | undefined>

export class Controller<Context = unknown> {
  /** The application's `context` option: the services (database, stores) controllers use. */
  declare context: Context
  declare request: Request
  declare url: URL
  declare kwargs: Kwargs
  declare body: unknown
  declare args: string[]
  declare env: Record<string, unknown>
  /** Status and headers of the response; a returned `Response` is used as is. */
  declare response: ResponseState
  /** Who the auth guards admitted (what their `verify` returned). */
  declare principal: unknown

  /** Largest request body this controller accepts, in bytes (default: the application's `bodyLimit`). */
  static bodyLimit?: number
  /**
   * Content types accepted as raw bytes (`this.body` is a `Uint8Array`), besides the parsed JSON, urlencoded and
   * multipart forms. `'*\/*'` accepts anything.
   */
  static accepts?: readonly string[]
  /** Shapes every error answered by this class (and its subclasses) — each example API has its own error format. */
  static renderError?: ErrorRenderer

  /** Runs before every handler of this class; throw an `HttpError` to stop (auth checks live here). */
  before?(): void | Promise<void>
}
