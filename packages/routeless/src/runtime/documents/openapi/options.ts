/**
 * The options of the OpenAPI document (`app.openapi(options)`, the config's `openapi`, `routeless openapi`).
 * @module
 */
import type { JsonSchema } from '../../contract/manifest.ts'

export interface OpenAPIInfo {
  title: string
  version: string
  description?: string
  contact?: { name?: string; url?: string; email?: string }
  license?: { name: string; identifier?: string; url?: string }
}

/** Where the framework answers an error on its own: what `errorSchema` is asked about. */
export interface ErrorSite {
  /** The status (400, 401, 403, 413, 415, 429, and 500 for `5XX`). */
  status: number
  /** The operation's path template (`/v3/glossaries/{id}`) and method (`GET`). */
  path: string
  method: string
  /** The controller's module file, class and method name. */
  file: string
  className: string
  name: string
}

/** An error body as the API sends it: its schema (`null`: no body) and media type (default `application/json`). */
export interface ErrorBody {
  schema: JsonSchema | null
  mediaType?: string
}

export interface OpenAPIOptions {
  info?: OpenAPIInfo
  /**
   * `servers`; default: `origin`'s, else `[{ url: '/' }]` (the document's own host, as OpenAPI reads a relative URL).
   */
  servers?: { url: string; description?: string }[]
  /**
   * The origin the document is served from (`https://api.example.com`, or the request asking for it): becomes the
   * one server when `servers` is not given.
   */
  origin?: string | Request
  /** `'3.1'` (default) or `'3.2'`: `query` operations and `itemSchema` for streamed answers. */
  version?: '3.1' | '3.2'
  /**
   * The API's error body (`#/components/schemas/Error`); default: the routeless envelope. A function says it per
   * place (an error renderer of one controller sends its own; undefined: the default) and may give another media type.
   */
  errorSchema?: JsonSchema | ((site: ErrorSite) => ErrorBody | undefined)
  /**
   * `components.securitySchemes`, e.g. `{ key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } }`. A guard's own
   * scheme (`bearerAuth`, `describeGuard`) equal to one of these is published under its name here.
   */
  securitySchemes?: Record<string, Record<string, unknown>>
  /**
   * Top-level `security`, e.g. `[{ key: [] }]`: for the operations whose guards do not say what they check. An
   * operation with no guard gets `security: []`.
   */
  security?: Record<string, string[]>[]
}

export type { JsonSchema }
