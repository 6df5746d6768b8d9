/**
 * The application: a route table built once at start-up and `fetch(request) → Promise<Response>`, the whole core.
 * @module
 */
import type { ErrorRenderer, Kwargs, ResponseState } from './controller.ts'
import { HttpError, isHttpError } from './errors.ts'
import { getQuery, readBody } from './request.ts'
import { generateOpenAPI, type OpenAPIOptions } from './openapi.ts'
import { resolve } from './resolver.ts'
import { errorResponse, toResponse } from './response.ts'
import { buildRouteTable, discoverModules, type ModuleExports, type ModuleSource, type RouteTable } from './route-table.ts'

export interface Logger {
  error(message: string, error?: unknown): void
  info?(message: string): void
}

export interface AppOptions {
  /** Largest request body accepted, in bytes (default 1 MiB). A controller may set its own `static bodyLimit`. */
  bodyLimit?: number
  /** Renders every error no controller or module renders itself. */
  renderError?: ErrorRenderer
  /** Where 500s are logged (default: `console.error`). */
  logger?: Logger
  /** Directory used to resolve prefixes and print file names (default: `process.cwd()`). */
  cwd?: string
  /** Services given to every controller as `this.context` (a database handle, stores, configuration). */
  context?: unknown
}

/** Controllers given directly as modules, keyed by their path (`''` is the root module, `'v3/status'` …). */
export type ModuleMap = Record<string, ModuleExports | (() => Promise<ModuleExports>)>

/** A prefix (`'controllers'`), several (`['a', 'b']` or `'a:b'`), or a module map for bundlers and tests. */
export type ControllerSource = string | string[] | { modules: ModuleMap }

export const DEFAULT_BODY_LIMIT = 1024 * 1024

const SERVER_ERROR_MESSAGE = 'The server could not answer this request'

export class Application {
  readonly table: RouteTable
  readonly options: Required<Pick<AppOptions, 'bodyLimit'>> & AppOptions
  private readonly logger: Logger

  constructor(table: RouteTable, options: AppOptions = {}) {
    this.table = table
    this.options = { ...options, bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT }
    this.logger = options.logger ?? { error: (m, e) => console.error(m, e) }
    this.fetch = this.fetch.bind(this)
  }

  /** Loads every controller module under `source` and builds the route table. */
  static async create(source: ControllerSource, options: AppOptions = {}): Promise<Application> {
    const cwd = options.cwd ?? process.cwd()
    const table = await buildRouteTable(collectSources(source, cwd), { cwd })
    return new Application(table, options)
  }

  /** Answers one request. Never rejects: every failure becomes an error response. */
  async fetch(request: Request, env: Record<string, unknown> = {}): Promise<Response> {
    let url: URL
    try {
      url = new URL(request.url)
    } catch {
      return this.renderError(new HttpError(400, 'Invalid request URL'), request, undefined)
    }
    const method = request.method
    const r = resolve(this.table, method, url.pathname)
    switch (r.kind) {
      case 'not-found':
        return this.renderError(new HttpError(404, `No controller answers ${method} ${url.pathname}`), request, r.renderError, r.handler?.renderError)
      case 'not-implemented':
        return this.renderError(new HttpError(501, `Method ${method} is not implemented`), request, r.renderError)
      case 'method-not-allowed':
        return this.renderError(new HttpError(405, `${method} is not allowed on ${r.endpoint.path}`, { headers: { Allow: r.endpoint.allow } }), request, r.renderError, r.endpoint.renderError)
      case 'options':
        return new Response(null, { status: 204, headers: { Allow: r.endpoint.allow } })
    }
    const { handler } = r
    const state: ResponseState = { status: undefined, headers: new Headers() }
    let response: Response
    try {
      let kwargs = getQuery(url)
      let body: unknown
      if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
        const parsed = await readBody(request, { limit: handler.bodyLimit ?? this.options.bodyLimit, accepts: handler.accepts })
        body = parsed.body
        if (parsed.fields) Object.assign(kwargs, parsed.fields)
      }
      const controller = new handler.cls()
      controller.context = this.options.context
      controller.request = request
      controller.url = url
      controller.kwargs = kwargs
      controller.body = body
      controller.args = r.args
      controller.env = env
      controller.response = state
      if (handler.before) await handler.before.call(controller)
      let args: unknown[] = r.args
      if (handler.binder) {
        ;({ args, kwargs } = await handler.binder(r.args, kwargs))
        controller.kwargs = kwargs
      }
      const value = await handler.fn.apply(controller, callArguments(args, kwargs, handler.signature))
      response = toResponse(value, state)
    } catch (error) {
      return this.renderError(this.toHttpError(error, method, url), request, r.renderError, handler.renderError)
    }
    if (r.head) return withoutBody(response)
    return response
  }

  /** The OpenAPI 3.1 document of this application (see `generateOpenAPI`). */
  openapi(options?: OpenAPIOptions): Record<string, unknown> {
    return generateOpenAPI(this.table, options)
  }

  /** In-process test helper: `app.request('/path', init)` with a bare path. */
  request(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    if (input instanceof Request) return this.fetch(init ? new Request(input, init) : input)
    const url = typeof input === 'string' && input.startsWith('/') ? `http://localhost${input}` : input
    return this.fetch(new Request(url, init))
  }

  private toHttpError(error: unknown, method: string, url: URL): HttpError {
    if (isHttpError(error)) return error
    this.logger.error(`Unhandled error in ${method} ${url.pathname}`, error)
    return new HttpError(500, SERVER_ERROR_MESSAGE, { cause: error })
  }

  /** Tries the class's renderer, then the nearest module's, then the app's, then the standard envelope. */
  private async renderError(error: HttpError, request: Request, moduleRenderer: ErrorRenderer | undefined, classRenderer?: ErrorRenderer): Promise<Response> {
    for (const render of [classRenderer, moduleRenderer, this.options.renderError]) {
      if (!render) continue
      try {
        const custom = await render(error, request)
        if (custom) return request.method === 'HEAD' ? withoutBody(custom) : custom
      } catch (renderFailure) {
        this.logger.error('An error renderer failed', renderFailure)
      }
    }
    const response = errorResponse(error)
    return request.method === 'HEAD' ? withoutBody(response) : response
  }
}

/** Positional parts in order; the kwargs object after the positional slots when the handler asks for it. */
function callArguments(args: unknown[], kwargs: Kwargs, sig: { slots: number; kwargs: boolean }): unknown[] {
  if (!sig.kwargs) return args
  const out: unknown[] = args.slice()
  while (out.length < sig.slots) out.push(undefined)
  out.push(kwargs)
  return out
}

function withoutBody(response: Response): Response {
  response.body?.cancel().catch(() => {})
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers })
}

function collectSources(source: ControllerSource, cwd: string): ModuleSource[] {
  if (typeof source === 'object' && !Array.isArray(source)) {
    return Object.entries(source.modules).map(([key, mod]) => ({
      parts: key.split('/').filter(Boolean),
      file: `<module ${key || 'index'}>`,
      load: typeof mod === 'function' ? (mod as () => Promise<ModuleExports>) : async () => mod,
    }))
  }
  const prefixes = (Array.isArray(source) ? source : [source]).flatMap((p) => p.split(':')).filter(Boolean)
  return prefixes.flatMap((p) => discoverModules(p, cwd))
}

/** Builds an application from controller prefixes (or a module map). */
export function createApp(source: ControllerSource, options?: AppOptions): Promise<Application> {
  return Application.create(source, options)
}
