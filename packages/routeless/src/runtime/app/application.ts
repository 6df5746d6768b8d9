/**
 * The application: a route table built once at start-up and `fetch(request) → Response`, the whole core.
 * @module
 */
import type { ErrorRenderer } from '../base/controller.ts'
import { HttpError, isHttpError, RoutelessError } from '../base/errors.ts'
import { withExecutionContext, type ExecutionContext } from './execution-context.ts'
import type { Logger } from '../base/logging.ts'
import { DEFAULT_BODY_LIMIT, type AppOptions } from './options.ts'
import type { AppServices } from './services.ts'
import { controllerClasses, installLazyMembers, type Call } from '../lifecycle/call.ts'
import type { Pipeline } from '../lifecycle/handler-shape.ts'
import { HandlerLinker, type Evaluate, type HandlerFactories, type LifecycleParts } from '../handlers/handlers.ts'
import { renderCustom, standardError } from '../lifecycle/render-error.ts'
import { fromRequest, parseQuery, type IncomingRequest } from '../lifecycle/request.ts'
import { newKwargs } from '../lifecycle/query.ts'
import { toFetchResponse } from '../lifecycle/fetch-response.ts'
import type { Answer, ResponseDraft } from '../lifecycle/response.ts'
import type { UpgradeDecision } from '../lifecycle/websocket.ts'
import type { HostSockets } from '../lifecycle/host-sockets.ts'
import { resolve } from '../routing/resolver.ts'
import type { Handler, RouteTable } from '../routing/table.ts'
import type { OpenAPIOptions } from '../documents/openapi.ts'
import { wrap, type Handle } from '../wrappers/wrap.ts'
import { VERSION } from '../base/version.ts'

export { DEFAULT_BODY_LIMIT, type AppOptions, type ControllerSource, type ModuleMap } from './options.ts'
export type { AppServices } from './services.ts'

const SERVER_ERROR_MESSAGE = 'The server could not answer this request'

export class Application {
  /** The route table requests resolve against; `replaceTable` swaps it atomically (watch mode). */
  table: RouteTable
  readonly options: Required<Pick<AppOptions, 'bodyLimit'>> & AppOptions
  private readonly logger: Logger
  /**
   * Each handler's lifecycle (`runtime/lifecycle/handler-shape.ts`), linked with the table it belongs to, at the
   * handler's `id` (an array: a `Map` keyed by the handler object would hash it per request).
   */
  private pipelines: Pipeline[] = []
  /** The lifecycle inside its wrappers (`runtime/wrappers/wrap.ts`): what `handle` and `fetch` run. */
  private readonly wrapped: Handle
  /** The upgrade decision, inside the telemetry when it is on. */
  private readonly upgrading: (incoming: IncomingRequest, env: Record<string, unknown>) => Promise<UpgradeDecision>
  /** Upgrades through `fetch` on Bun, Deno and Workers, when a handler of the table takes WebSockets. */
  private hostSockets: HostSockets | undefined
  private bunSockets: ReturnType<HostSockets['bun']> | undefined
  /** Whether a handler of the table takes WebSockets (`takesSockets`). */
  private sockets = false
  /** Where an unhandled error is reported besides the log (the telemetry's, when on; decided at start-up). */
  private readonly unhandled: ((incoming: IncomingRequest, error: unknown) => void) | undefined

  /** `services`: what `createApp` loads beside the core (telemetry, OpenAPI, the docs page: `loadServices`). */
  constructor(
    table: RouteTable,
    options: AppOptions = {},
    private services: AppServices = {},
  ) {
    this.table = table
    const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
    if (!Number.isSafeInteger(bodyLimit) || bodyLimit < 0)
      throw new RangeError(`bodyLimit must be a whole number of bytes, got ${options.bodyLimit}`)
    this.options = { ...options, bodyLimit }
    this.logger = options.logger ?? { error: (m, e) => console.error(m, e) }
    if ((options.tracing || options.metrics) && !services.telemetry)
      throw new RoutelessError('ROUTELESS_ERR_TELEMETRY', 'tracing and metrics: build the application with createApp()')
    const telemetry = services.telemetry?.({
      table: () => this.table,
      accessLog: options.accessLog === true,
      version: VERSION,
      onError: (error) => this.logger.error('The metrics could not be collected', error),
    })
    const page = options.docs ? services.docs : undefined
    if (options.docs && !page)
      throw new RoutelessError('ROUTELESS_ERR_BUNDLE', 'docs: the API reference page is served by createApp() only')
    const docs = page?.docsOptionsOf(options.docs)
    if (docs) page!.checkDocsPath(table)
    const { accessLog, cors } = services
    if (options.explainNotFound) given(services.notFoundHint, 'explainNotFound')
    this.wrapped = wrap((incoming, env) => this.answer(incoming, env), {
      accessLog: options.accessLog ? given(accessLog, 'accessLog')(this.logger, telemetry?.logFields) : undefined,
      cors: options.cors ? given(cors, 'cors').cors(options.cors, (incoming) => this.allowOf(incoming)) : undefined,
      telemetry,
      docs:
        docs &&
        page!.wrapper(
          new page!.ApiReference(
            docs,
            (o) => this.openapi(o),
            services.asyncapi && ((o) => services.asyncapi!(this.table, o)),
          ),
          (error, incoming) => this.renderError(error, incoming, undefined),
        ),
    })
    const decide = (incoming: IncomingRequest, env: Record<string, unknown>) => this.decideUpgrade(incoming, env)
    this.upgrading = telemetry ? telemetry.upgrade(decide) : decide
    this.unhandled = telemetry?.unhandled
    if (options.checkReturns && !(services.checkReturn && services.returnCheck))
      throw new RoutelessError('ROUTELESS_ERR_BUNDLE', 'checkReturns: build the application with createApp()')
    this.fetch = this.fetch.bind(this) // `app.fetch` is passed around unbound (serve({ fetch: app.fetch }))
    this.pipelines = this.link(table)
  }

  /** A start-up warning: to the logger's `warn` when it has one, else to stderr. */
  warn(message: string): void {
    if (this.logger.warn) this.logger.warn(message)
    else if (typeof process === 'object' && process.emitWarning)
      process.emitWarning(message, { code: 'ROUTELESS_WARNING' })
    else console.warn(`routeless: ${message}`) // a Worker without nodejs_compat has no process
  }

  /**
   * Swaps in a freshly built route table: requests already running finish on the old one. `services`: what the new
   * table needs besides (watch mode's evaluator).
   */
  replaceTable(table: RouteTable, services: AppServices = {}): void {
    this.services = { ...this.services, ...services }
    const pipelines = this.link(table)
    this.table = table
    this.pipelines = pipelines
  }

  /** Links every handler to its code (`runtime/handlers/handlers.ts`) and installs its class's lazy members. */
  private link(table: RouteTable): Pipeline[] {
    const options = {
      context: this.options.context,
      bodyLimit: this.options.bodyLimit,
      partLimit: this.options.partLimit,
      defs: table.defs,
      serializers: table.serializers,
      checkReturns: this.options.checkReturns ? (message: string) => this.warn(message) : undefined,
      checkReturn: this.services.checkReturn,
      returnCheck: this.services.returnCheck,
      heartbeat: this.options.sse?.heartbeat,
      logError: (message: string, error: unknown) => this.logger.error(message, error),
      validator: table.validator,
      typedSocket: this.services.sockets?.typed,
      fail: (call: Call, error: unknown) => this.fail(call, error),
    }
    const linker = new HandlerLinker(
      options,
      table.code as HandlerFactories | undefined,
      this.services.evaluate ?? (table.evaluate as Evaluate | undefined),
      this.services.lifecycle ?? (table.lifecycle as LifecycleParts | undefined),
    )
    const pipelines: Pipeline[] = []
    let sockets = false
    for (const handler of table.handlers()) {
      pipelines[handler.id] = linker.link(handler)
      if (handler.method === 'WEBSOCKET') sockets = true
    }
    for (const cls of controllerClasses(table)) installLazyMembers(cls)
    this.hostSockets = sockets ? this.services.sockets : undefined
    this.sockets = sockets
    return pipelines
  }

  /**
   * The lifecycle of `handler` (one of this app's table): its generated function, its source and where it came from
   * (`routeless explain --code`).
   */
  pipelineOf(handler: Handler): Pipeline | undefined {
    return this.pipelines[handler.id]
  }

  /** The `Allow` header of the path a request names, or undefined when no controller answers it. */
  private allowOf(incoming: IncomingRequest): string | undefined {
    const r = resolve(this.table, 'OPTIONS', pathOf(incoming.target))
    return r.kind === 'options' ? r.endpoint.allow : r.kind === 'match' ? r.endpoint.allow : undefined
  }

  /**
   * Answers one request: the `Response` itself when nothing had to wait (no body to read, a synchronous handler), else
   * a promise of it, as every Fetch host takes (`await app.fetch(request)` reads both). Never rejects: every failure
   * becomes an error response. `env` is `this.env` (a Worker's bindings); a Workers-style `ctx` adds its `waitUntil`
   * to it (`runtime/app/execution-context.ts`).
   */
  fetch(request: Request, env: object = {}, ctx?: ExecutionContext): Response | Promise<Response> {
    // `env` is whatever the host gives second: Workers' bindings, Deno.serve's connection info (`remoteAddr`) …
    const given = env as Record<string, unknown>
    if (this.hostSockets !== undefined) {
      const upgraded = this.hostSockets.upgrade(this, request, given)
      if (upgraded !== undefined) return upgraded
    }
    try {
      const answer = this.wrapped(fromRequest(request), ctx ? withExecutionContext(given, ctx) : given)
      // (A promise of a ready answer costs the host a turn of its microtask queue: ~2k instructions on Deno.serve.)
      return answer instanceof Promise ? answer.then(toFetchResponse) : toFetchResponse(answer)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /**
   * The core as adapters call it: answers `incoming` with a `Reply` (or the `Response` a handler or a renderer
   * made) and builds no Fetch object unless a controller asks for one. The answer comes back synchronously when
   * nothing has to wait (no body to read, a synchronous handler), so an adapter can write it in the same tick.
   * Never throws and never rejects: every failure becomes an error answer.
   */
  handle(incoming: IncomingRequest, env: Record<string, unknown> = {}): Answer | Promise<Answer> {
    return this.wrapped(incoming, env)
  }

  /** Resolves the request, answers what needs no controller, and runs the handler's lifecycle for the rest. */
  private answer(incoming: IncomingRequest, env: Record<string, unknown>): Answer | Promise<Answer> {
    const method = incoming.method
    const target = incoming.target
    const end = pathEnd(target)
    // `WEBSOCKET` names the upgrade handler: as an HTTP method token it is unknown, never a call.
    const r = resolve(this.table, method === 'WEBSOCKET' ? 'UNKNOWN' : method, target, end)
    switch (r.kind) {
      case 'not-found':
        return this.renderError(
          new HttpError(
            404,
            `No controller answers ${method} ${target.slice(0, end)}` +
              (this.options.explainNotFound ? `: ${this.hint(method, target.slice(0, end))}` : ''),
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
    const call = newCall(r, incoming, end, env)
    try {
      // A failure from the body's read on, or after a wait, is answered there (`rt.fail`, which never throws): its
      // promise never rejects.
      return this.pipelines[r.handler.id]!.run(call)
    } catch (error) {
      return this.fail(call, error)
    }
  }

  /**
   * The error's answer; never throws nor rejects (a handler's code answers its failures after a wait with it:
   * `rt.fail`). An answer that cannot be made (details JSON cannot hold, a header that is not one) is logged and
   * answered with a plain 500.
   */
  private fail(call: Call, error: unknown): Answer | Promise<Answer> {
    try {
      if (this.unhandled !== undefined && !isHttpError(error)) this.unhandled(call.incoming, error)
      const answer = this.renderError(
        this.toHttpError(error, call.incoming.method, pathOf(call.incoming.target)),
        call.incoming,
        call.resolution.renderError,
        call.resolution.handler.renderError,
      )
      return answer instanceof Promise ? answer.then(undefined, (failure) => this.unanswerable(call, failure)) : answer
    } catch (failure) {
      return this.unanswerable(call, failure)
    }
  }

  private unanswerable(call: Call, failure: unknown): Answer {
    this.logger.error(
      `The error answer of ${call.incoming.method} ${pathOf(call.incoming.target)} could not be made`,
      failure,
    )
    return standardError(new HttpError(500, SERVER_ERROR_MESSAGE), call.incoming)
  }

  /**
   * Decides a WebSocket upgrade for `request` (a GET with `Upgrade: websocket`): resolves the path with the
   * `WEBSOCKET` handler and runs its lifecycle (guards, `before()`, the parameter binder and the handler), whose
   * last stage accepts with the socket handlers — or returns the HTTP answer that refuses (404 when no controller
   * takes WebSockets there, the handler's error). Adapters call this; it never rejects.
   */
  upgrade(request: Request, env: Record<string, unknown> = {}): Promise<UpgradeDecision> {
    return this.upgrading(fromRequest(request), env)
  }

  private async decideUpgrade(incoming: IncomingRequest, env: Record<string, unknown>): Promise<UpgradeDecision> {
    const pathname = pathOf(incoming.target)
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
    const origin = incoming.header('origin')
    if (this.options.cors && origin !== null && !this.services.cors!.originCheck(this.options.cors)(origin)) {
      return refuse(
        this.renderError(
          new HttpError(403, `Origin ${origin} may not open WebSockets here`),
          incoming,
          r.renderError,
          r.handler.renderError,
        ),
      )
    }
    const call = newCall(r, incoming, pathname.length, env)
    try {
      return (await this.pipelines[r.handler.id]!.run(call)) as unknown as UpgradeDecision
    } catch (error) {
      return refuse(this.fail(call, error))
    }
  }

  /** Why nothing answers (`explainNotFound`: `runtime/routing/not-found-hint.ts`). */
  private hint(method: string, pathname: string): string {
    return given(this.services.notFoundHint, 'explainNotFound')(this.table, method, pathname)
  }

  /** Whether a handler of the table takes WebSockets (the table as it is now: a reload under `--watch` may change it). */
  get takesSockets(): boolean {
    return this.sockets
  }

  /** `Bun.serve({ fetch: app.fetch, websocket: app.websocket })`: the frames of the sockets `fetch` upgraded on Bun. */
  get websocket(): ReturnType<HostSockets['bun']> | undefined {
    this.bunSockets ??= this.services.sockets?.bun(this)
    return this.bunSockets
  }

  /** Where adapters report a socket handler that threw (the socket is closed with 1011). */
  socketError(error: unknown): void {
    this.logger.error('A WebSocket handler failed', error)
  }

  /** The OpenAPI 3.1 document of this application (see `generateOpenAPI`). */
  openapi(options?: OpenAPIOptions): Record<string, unknown> {
    if (!this.services.openapi)
      throw new RoutelessError('ROUTELESS_ERR_BUNDLE', 'app.openapi(): build the application with createApp()')
    return this.services.openapi(this.table, options)
  }

  /** In-process test helper: `app.request('/path', init)` with a bare path. */
  async request(input: string | URL | Request, init?: RequestInit): Promise<Response> {
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

/** A part of the app its options ask for, or a start-up error saying where it is (`AppServices`). */
function given<T>(part: T | undefined, option: string): T {
  if (part !== undefined) return part
  throw new RoutelessError(
    'ROUTELESS_ERR_BUNDLE',
    `${option}: build the application with createApp() or createAppFromModules(); a Worker carries it when ` +
      'routeless.config.ts asked for it when it was built (run routeless build --target=worker again)',
  )
}

/** A request's `Call`, before its first stage: the query of its target (after `end`, its path's end) as the first keywords. */
function newCall(
  resolution: Call['resolution'],
  incoming: IncomingRequest,
  end: number,
  env: Record<string, unknown>,
): Call {
  const target = incoming.target
  return {
    resolution,
    incoming,
    env,
    kwargs: end < target.length ? parseQuery(target, end + 1) : newKwargs(),
    args: resolution.args,
    json: undefined,
    controller: undefined,
    response: undefined as unknown as ResponseDraft,
  }
}

/** The path of a request target (`/a/b?c` → `/a/b`). */
function pathOf(target: string): string {
  return target.slice(0, pathEnd(target))
}

/** Where the path of a request target ends: at its `?`, or its end. */
function pathEnd(target: string): number {
  const q = target.indexOf('?')
  return q < 0 ? target.length : q
}
