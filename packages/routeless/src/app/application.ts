/**
 * The application: a route table built once at start-up and `fetch(request) → Promise<Response>`, the whole core.
 * @module
 */
import type { ErrorRenderer } from './controller.ts'
import { HttpError, isHttpError } from './errors.ts'
import { fromRequest, parseQuery, readBody, type IncomingRequest } from '../lifecycle/request.ts'
import { generateOpenAPI, type OpenAPIOptions } from '../tooling/openapi.ts'
import { resolve } from '../routing/resolver.ts'
import { notFoundHint } from '../tooling/explain.ts'
import { originCheck, withCors } from '../wrappers/cors.ts'
import { withAccessLog, withAccessLogHandle, type Logger } from './logging.ts'
import type { SocketHandlers, UpgradeDecision } from '../lifecycle/websocket.ts'
import { ResponseDraft, toFetchResponse, toReply, withoutBody, type Answer } from '../lifecycle/response.ts'
import { buildRouteTable, type Handler, type RouteTable } from '../routing/route-table.ts'
import { collectSources, DEFAULT_BODY_LIMIT, type AppOptions, type ControllerSource } from './options.ts'
import {
  bind,
  callArguments,
  controllerClasses,
  declaresBody,
  INCOMING,
  installLazyMembers,
  isEmpty,
  isThenable,
  type Call,
} from '../lifecycle/call.ts'
import { renderCustom, standardError } from '../lifecycle/render-error.ts'

export {
  collectSources,
  DEFAULT_BODY_LIMIT,
  type AppOptions,
  type ControllerSource,
  type ModuleMap,
} from './options.ts'

const SERVER_ERROR_MESSAGE = 'The server could not answer this request'

export class Application {
  /** The route table requests resolve against; `replaceTable` swaps it atomically (watch mode). */
  table: RouteTable
  readonly options: Required<Pick<AppOptions, 'bodyLimit'>> & AppOptions
  private readonly logger: Logger

  constructor(table: RouteTable, options: AppOptions = {}) {
    this.table = table
    const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
    if (!Number.isSafeInteger(bodyLimit) || bodyLimit < 0)
      throw new RangeError(`bodyLimit must be a whole number of bytes, got ${options.bodyLimit}`)
    this.options = { ...options, bodyLimit }
    this.logger = options.logger ?? { error: (m, e) => console.error(m, e) }
    if (options.cors) {
      // CORS speaks Fetch: with it on, adapters' requests go through it (so through a Request).
      const core = async (request: Request, env: Record<string, unknown> = {}) =>
        toFetchResponse(await this.answer(fromRequest(request), env))
      let fetch = withCors(core, options.cors, (request) => this.allowOf(request))
      if (options.accessLog) fetch = withAccessLog(fetch, this.logger)
      this.fetch = fetch
      this.handle = (incoming, env) => fetch(incoming.request(), env)
    } else {
      this.fetch = this.fetch.bind(this) // `app.fetch` is passed around unbound (serve({ fetch: app.fetch }))
      // The access log wraps the core's own path: no Fetch objects are built for it.
      if (options.accessLog)
        this.handle = withAccessLogHandle((incoming, env) => this.answer(incoming, env ?? {}), this.logger)
    }
    for (const cls of controllerClasses(table)) installLazyMembers(cls)
  }

  /** A start-up warning: to the logger's `warn` when it has one, else to stderr. */
  warn(message: string): void {
    if (this.logger.warn) this.logger.warn(message)
    else process.emitWarning(message, { code: 'ROUTELESS_WARNING' })
  }

  /** Swaps in a freshly built route table: requests already running finish on the old one. */
  replaceTable(table: RouteTable): void {
    for (const cls of controllerClasses(table)) installLazyMembers(cls)
    this.table = table
  }

  /** The `Allow` header of the path a request names, or undefined when no controller answers it. */
  private allowOf(request: Request): string | undefined {
    const r = resolve(this.table, 'OPTIONS', new URL(request.url).pathname)
    return r.kind === 'options' ? r.endpoint.allow : r.kind === 'match' ? r.endpoint.allow : undefined
  }

  /** Loads every controller module under `source` and builds the route table. */
  static async create(source: ControllerSource, options: AppOptions = {}): Promise<Application> {
    const cwd = options.cwd ?? process.cwd()
    const table = await buildRouteTable(collectSources(source, cwd), {
      cwd,
      types: options.types,
      manifest: options.manifest,
      auth: options.auth,
    })
    const app = new Application(table, options)
    for (const warning of table.warnings) app.warn(warning)
    return app
  }

  /** Answers one request. Never rejects: every failure becomes an error response. */
  async fetch(request: Request, env: Record<string, unknown> = {}): Promise<Response> {
    return toFetchResponse(await this.handle(fromRequest(request), env))
  }

  /**
   * The core as adapters call it: answers `incoming` with a `Reply` (or the `Response` a handler or a renderer
   * made) and builds no Fetch object unless a controller asks for one. The answer comes back synchronously when
   * nothing has to wait (no body to read, a synchronous handler), so an adapter can write it in the same tick.
   * Never throws and never rejects: every failure becomes an error answer.
   */
  handle(incoming: IncomingRequest, env: Record<string, unknown> = {}): Answer | Promise<Answer> {
    return this.answer(incoming, env)
  }

  private answer(incoming: IncomingRequest, env: Record<string, unknown>): Answer | Promise<Answer> {
    const method = incoming.method
    const target = incoming.target
    const q = target.indexOf('?')
    const pathname = q < 0 ? target : target.slice(0, q)
    // 1. Resolve: a few map look-ups; every answer that needs no controller is made here. (`WEBSOCKET` names the
    //    upgrade handler: as an HTTP method token it is unknown, never a call.)
    const r = resolve(this.table, method === 'WEBSOCKET' ? 'UNKNOWN' : method, pathname)
    switch (r.kind) {
      case 'not-found':
        return this.renderError(
          new HttpError(
            404,
            `No controller answers ${method} ${pathname}${this.options.explainNotFound ? `: ${notFoundHint(this.table, method, pathname)}` : ''}`,
          ),
          incoming,
          r.renderError,
          r.handler?.renderError,
        )
      case 'not-implemented':
        return this.renderError(new HttpError(501, `Method ${method} is not implemented`), incoming, r.renderError)
      case 'method-not-allowed':
        return this.renderError(
          new HttpError(405, `${method} is not allowed on ${r.endpoint.path}`, {
            headers: { Allow: r.endpoint.allow },
          }),
          incoming,
          r.renderError,
          r.endpoint.renderError,
        )
      case 'options':
        return { status: 204, headers: [['allow', r.endpoint.allow]], type: undefined, body: null }
    }
    const call: Call = { r, incoming, pathname, env, kwargs: parseQuery(q < 0 ? '' : target.slice(q + 1)) }
    // 2. Read the body, for the methods that carry one, and for a GET that declares one (clients such as DeepL's send
    //    GET parameters as a form body) — after the guards and `before()`, when there are any, so an unauthenticated
    //    client learns 401/403 without the server reading (or judging) its body. HEAD and OPTIONS bodies are never read.
    if (method === 'GET' ? declaresBody(incoming) : method !== 'HEAD' && method !== 'OPTIONS') {
      return r.handler.guards.length > 0 || r.handler.before ? this.admitThenRead(call) : this.readThenRun(call)
    }
    return this.run(call, undefined)
  }

  private async admitThenRead(call: Call): Promise<Answer> {
    const { handler } = call.r
    const state = new ResponseDraft()
    let controller: InstanceType<Handler['cls']>
    try {
      controller = this.construct(call, undefined, state)
      for (const guard of handler.guards) await guard(controller)
      if (handler.before) await handler.before.call(controller)
      const parsed = await readBody(call.incoming, {
        limit: handler.bodyLimit ?? this.options.bodyLimit,
        accepts: handler.accepts,
        consumes: handler.consumes,
      })
      controller.body = parsed.body
      if (parsed.json) call.json = parsed.body
      if (parsed.fields) Object.assign(call.kwargs, parsed.fields)
    } catch (error) {
      return this.fail(call, error)
    }
    return this.runGuarded(call, controller, state, true)
  }

  private construct(call: Call, body: unknown, state: ResponseDraft): InstanceType<Handler['cls']> {
    const controller = new call.r.handler.cls()
    controller[INCOMING] = call.incoming
    controller.context = this.options.context
    controller.kwargs = call.kwargs
    controller.body = body
    controller.args = call.r.args
    controller.env = call.env
    controller.response = state
    return controller
  }

  private async readThenRun(call: Call): Promise<Answer> {
    const { handler } = call.r
    let body: unknown
    try {
      const parsed = await readBody(call.incoming, {
        limit: handler.bodyLimit ?? this.options.bodyLimit,
        accepts: handler.accepts,
        consumes: handler.consumes,
      })
      body = parsed.body
      if (parsed.json) call.json = body
      // A JSON body's fields are already a copy of their own: with no query to merge into, they are the keywords.
      if (parsed.fields)
        call.kwargs = parsed.json && isEmpty(call.kwargs) ? parsed.fields : Object.assign(call.kwargs, parsed.fields)
    } catch (error) {
      return this.fail(call, error)
    }
    return this.run(call, body)
  }

  /** 3. Construct the controller, 4. run the handler (synchronously when nothing on the way awaits). */
  private run(call: Call, body: unknown): Answer | Promise<Answer> {
    const { r } = call
    const { handler } = r
    const state = new ResponseDraft()
    let value: unknown
    try {
      const controller = this.construct(call, body, state)
      if (handler.guards.length > 0 || handler.before || handler.binder) return this.runGuarded(call, controller, state)
      if (handler.typed) {
        const bound = handler.typed(r.args, call.kwargs, call.json)
        controller.kwargs = bound.kwargs
        controller.args = bound.args
        value = handler.fn.apply(controller, callArguments(bound.args, bound.kwargs, handler.signature))
      } else value = handler.fn.apply(controller, callArguments(r.args, call.kwargs, handler.signature))
    } catch (error) {
      return this.fail(call, error)
    }
    if (isThenable(value))
      return Promise.resolve(value).then(
        (v) => this.finish(call, v, state),
        (e) => this.fail(call, e),
      )
    return this.finish(call, value, state)
  }

  /** Guards and `before()` (unless `admitted` already ran them), the binder, then the handler. */
  private async runGuarded(
    call: Call,
    controller: InstanceType<Handler['cls']>,
    state: ResponseDraft,
    admitted = false,
  ): Promise<Answer> {
    const { handler } = call.r
    try {
      if (!admitted) {
        for (const guard of handler.guards) await guard(controller)
        if (handler.before) await handler.before.call(controller)
      }
      const { args, kwargs } = await bind(handler, call.r.args, call.kwargs, controller, call.json)
      const value = await handler.fn.apply(controller, callArguments(args, kwargs, handler.signature))
      return this.finish(call, value, state)
    } catch (error) {
      return this.fail(call, error)
    }
  }

  /** 5. Turn the returned value into the answer. */
  private finish(call: Call, value: unknown, state: ResponseDraft): Answer | Promise<Answer> {
    let answer: Answer
    try {
      answer = toReply(value, state)
    } catch (error) {
      return this.fail(call, error)
    }
    return call.r.head ? withoutBody(answer) : answer
  }

  private fail(call: Call, error: unknown): Answer | Promise<Answer> {
    return this.renderError(
      this.toHttpError(error, call.incoming.method, call.pathname),
      call.incoming,
      call.r.renderError,
      call.r.handler.renderError,
    )
  }

  /**
   * Decides a WebSocket upgrade for `request` (a GET with `Upgrade: websocket`): resolves the path with the
   * `WEBSOCKET` handler, runs guards, `before()`, the parameter binder and the handler, and returns its socket
   * handlers — or the HTTP answer that refuses (404 when no controller takes WebSockets there, the handler's error).
   * Adapters call this; it never rejects.
   */
  async upgrade(request: Request, env: Record<string, unknown> = {}): Promise<UpgradeDecision> {
    const incoming = fromRequest(request)
    const target = incoming.target
    const q = target.indexOf('?')
    const pathname = q < 0 ? target : target.slice(0, q)
    const r = resolve(this.table, 'WEBSOCKET', pathname)
    const refuse = async (answer: Answer | Promise<Answer>): Promise<UpgradeDecision> => ({
      accepted: false,
      response: toFetchResponse(await answer),
    })
    if (r.kind !== 'match') {
      return refuse(
        this.renderError(
          new HttpError(404, `No controller takes WebSocket connections at ${pathname}`),
          incoming,
          r.renderError,
        ),
      )
    }
    // Browsers send Origin on upgrades and no preflight: with CORS configured, only allowed origins may connect.
    const origin = request.headers.get('origin')
    if (this.options.cors && origin !== null && !originCheck(this.options.cors)(origin)) {
      return refuse(
        this.renderError(
          new HttpError(403, `Origin ${origin} may not open WebSockets here`),
          incoming,
          r.renderError,
          r.handler.renderError,
        ),
      )
    }
    const call: Call = { r, incoming, pathname, env, kwargs: parseQuery(q < 0 ? '' : target.slice(q + 1)) }
    const { handler } = r
    try {
      const controller = this.construct(call, undefined, new ResponseDraft())
      for (const guard of handler.guards) await guard(controller)
      if (handler.before) await handler.before.call(controller)
      const { args, kwargs } = await bind(handler, r.args, call.kwargs, controller)
      const handlers = (await handler.fn.apply(
        controller,
        callArguments(args, kwargs, handler.signature),
      )) as SocketHandlers
      if (typeof handlers !== 'object' || handlers === null) {
        throw new TypeError(`${handler.className}.WEBSOCKET must return the socket handlers ({ open, message, close })`)
      }
      const protocol = (controller.response as ResponseDraft).touched?.get('sec-websocket-protocol') ?? undefined
      return { accepted: true, handlers, protocol }
    } catch (error) {
      return refuse(this.fail(call, error))
    }
  }

  /** Where adapters report a socket handler that threw (the socket is closed with 1011). */
  socketError(error: unknown): void {
    this.logger.error('A WebSocket handler failed', error)
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

  private toHttpError(error: unknown, method: string, pathname: string): HttpError {
    if (isHttpError(error)) return error
    this.logger.error(`Unhandled error in ${method} ${pathname}`, error)
    return new HttpError(500, SERVER_ERROR_MESSAGE, { cause: error })
  }

  /** Tries the class's renderer, then the nearest module's, then the app's, then the standard envelope. */
  private renderError(
    error: HttpError,
    incoming: IncomingRequest,
    moduleRenderer: ErrorRenderer | undefined,
    classRenderer?: ErrorRenderer,
  ): Answer | Promise<Answer> {
    if (classRenderer || moduleRenderer || this.options.renderError)
      return renderCustom(error, incoming, [classRenderer, moduleRenderer, this.options.renderError], this.logger)
    return standardError(error, incoming)
  }
}

/** Builds an application from controller prefixes (or a module map). */
export function createApp(source: ControllerSource, options?: AppOptions): Promise<Application> {
  return Application.create(source, options)
}
