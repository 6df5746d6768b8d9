/**
 * The API reference page (`docs: true`): Swagger UI, from the `swagger-ui-dist` package routeless depends on (never
 * a CDN: many intranets have no internet), showing an OpenAPI document with "try it out". This module knows the
 * page's files; `runtime/wrappers/docs.ts` answers the requests for them.
 * @module
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { RoutelessError } from '../base/errors.ts'
import type { RouteTable } from '../routing/route-table.ts'
import { JSON_TYPE } from '../lifecycle/response.ts'
import type { OpenAPIOptions } from './openapi.ts'

export interface DocsOptions {
  /**
   * The OpenAPI document the page shows: a path of this app that serves one (`'/openapi.json'`, for an API that
   * serves its own), or the options of the document routeless generates from the controllers (`info`, `servers`,
   * security schemes), then served at `/docs/openapi.json` (the default, with no options).
   */
  openapi?: string | OpenAPIOptions
}

/** Where the page lives. */
export const DOCS_PATH = '/docs'

/** A file of the page: its bytes or text, its type, and an entity tag when it never changes for this version. */
export interface DocsFile {
  type: string
  body: string | Uint8Array
  etag?: string
}

/** The files of swagger-ui-dist the page uses (nothing else of the package is served). */
const PACKAGE_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'oauth2-redirect.html': 'text/html; charset=utf-8',
  'oauth2-redirect.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
}

/** The page's own files: the HTML, the script starting Swagger UI, and the generated document. */
export const PAGE = ''
const INIT = 'init.js'
export const DOCUMENT = 'openapi.json'
/** The AsyncAPI document of the WebSockets and event streams, beside the OpenAPI one (`asyncapi.ts`). */
const ASYNC_DOCUMENT = 'asyncapi.json'

/** The `docs` option, checked (a path that is not one is a mistake the app should not start with). */
export function docsOptionsOf(docs: boolean | DocsOptions | undefined): DocsOptions | undefined {
  if (!docs) return undefined
  const options = docs === true ? {} : docs
  if (typeof options.openapi === 'string' && !/^\/(?!\/)/.test(options.openapi))
    throw new RangeError(`docs.openapi must be a path of this app starting with /, got "${options.openapi}"`)
  return options
}

/** With `docs` on, `/docs` is the page's: a controller answering there is a start-up error naming it. */
export function checkDocsPath(table: RouteTable): void {
  for (const h of table.handlers()) {
    if (h.path === DOCS_PATH || h.path.startsWith(`${DOCS_PATH}/`))
      throw new RoutelessError(
        'ROUTELESS_ERR_ROUTE_CONFLICT',
        `${h.method} ${h.path} (${h.file} ${h.className}.${h.name}) is under ${DOCS_PATH}, ` +
          'where the docs option serves the API reference page',
      )
  }
}

/**
 * The files of the page. `document` makes the generated OpenAPI document (used when `options.openapi` is not a
 * path). Package files are read once, when first asked for.
 */
export class ApiReference {
  private readonly dir: string
  private readonly version: string
  private readonly cache = new Map<string, Promise<Uint8Array>>()
  private readonly documentUrl: string

  constructor(
    private readonly options: DocsOptions,
    private readonly document: (options: OpenAPIOptions | undefined) => Record<string, unknown>,
    private readonly asyncDocument?: (options: OpenAPIOptions | undefined) => Record<string, unknown>,
  ) {
    const require = createRequire(import.meta.url)
    const manifest = require.resolve('swagger-ui-dist/package.json')
    this.dir = path.dirname(manifest)
    this.version = (require(manifest) as { version: string }).version
    this.documentUrl = typeof options.openapi === 'string' ? options.openapi : `${DOCS_PATH}/${DOCUMENT}`
  }

  /** Whether `name` (the part of the path after `/docs/`, or `PAGE`) is a file of the page. */
  has(name: string): boolean {
    return (
      name === PAGE ||
      name === INIT ||
      Object.hasOwn(PACKAGE_FILES, name) ||
      (name === DOCUMENT && typeof this.options.openapi !== 'string') ||
      (name === ASYNC_DOCUMENT && this.asyncDocument !== undefined)
    )
  }

  /**
   * The file `name` (one `has` accepts); the generated document's `servers` default to `request.origin` (where it is
   * asked from), and `request.version` asks for OpenAPI 3.2.
   */
  async file(name: string, request: { origin?: string; version?: '3.1' | '3.2' } = {}): Promise<DocsFile> {
    if (name === PAGE) return { type: 'text/html; charset=utf-8', body: this.page() }
    if (name === INIT) return { type: 'text/javascript; charset=utf-8', body: this.init() }
    if (name === DOCUMENT || name === ASYNC_DOCUMENT) {
      const options = typeof this.options.openapi === 'string' ? undefined : this.options.openapi
      if (name === ASYNC_DOCUMENT) {
        const servers = options?.servers ?? (request.origin ? [{ url: request.origin }] : undefined)
        return { type: JSON_TYPE, body: JSON.stringify(this.asyncDocument!({ ...options, servers })) }
      }
      const asked = {
        ...(request.origin ? { origin: request.origin } : {}),
        ...(request.version ? { version: request.version } : {}),
      }
      return { type: JSON_TYPE, body: JSON.stringify(this.document({ ...options, ...asked })) }
    }
    let bytes = this.cache.get(name)
    if (!bytes) {
      bytes = readFile(path.join(this.dir, name)).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength))
      this.cache.set(name, bytes)
      bytes.catch(() => this.cache.delete(name)) // a failed read is tried again next time
    }
    return { type: PACKAGE_FILES[name]!, body: await bytes, etag: `"swagger-ui-${this.version}-${name}"` }
  }

  private page(): string {
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
<link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-16x16.png" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/${INIT}"></script>
</body>
</html>
`
  }

  /** Starts Swagger UI on the document (a script file rather than inline: a strict Content-Security-Policy allows it). */
  private init(): string {
    const settings = {
      url: this.documentUrl,
      dom_id: '#swagger-ui',
      deepLinking: true,
      layout: 'BaseLayout',
      oauth2RedirectUrl: `${DOCS_PATH}/oauth2-redirect.html`,
    }
    return `window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(settings)}, {
  oauth2RedirectUrl: new URL(${JSON.stringify(settings.oauth2RedirectUrl)}, location.href).href,
  presets: [SwaggerUIBundle.presets.apis],
}))
`
  }
}
