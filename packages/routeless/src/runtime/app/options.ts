/**
 * What an application is made from and with: its options (`AppOptions`), the controllers' source (prefixes, or a
 * module map for bundlers and tests) and the modules a source names (`collectSources`).
 * @module
 */
import type { AuthSpec } from '../guards/auth.ts'
import type { ErrorRenderer } from '../base/controller.ts'
import type { CorsOptions } from '../wrappers/cors.ts'
import type { MetricsOption, TracingOption } from '../wrappers/telemetry.ts'
import type { Logger } from '../base/logging.ts'
import type { Manifest } from '../contract/manifest.ts'
import type { CompiledModule } from '../handlers/app-module.ts'
import type { TypesMode } from '../contract/type-source.ts'
import type { DocsOptions } from '../documents/api-reference.ts'

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
  /** Guards for every handler of the tree (as a root module's `export const auth`), run before any module's. */
  auth?: AuthSpec
  /** Cross-origin resource sharing (off when not given). */
  cors?: CorsOptions
  /** Log one `request` line per request at level info, and echo `X-Request-ID` (default false). */
  accessLog?: boolean
  /**
   * How handler signatures are read: `'auto'` (default: the manifest when current, else the TypeScript checker, else
   * parameter names), `'manifest'` (never imports `typescript`), `'off'` (parameter names only, unchecked).
   */
  types?: TypesMode
  /**
   * Development: a 404's message says why nothing answers, as `routeless explain` does ("Posts.GET takes 1 path part,
   * got 0"). Off by default (it describes the controller tree); the CLI turns it on with `--watch` or
   * `NODE_ENV=development`.
   */
  explainNotFound?: boolean
  /**
   * Development: every value a typed handler returns is checked against its return type, and a mismatch logged as
   * a warning (a property its type does not declare, which the compiled serializer leaves out; a wrong type). Off by
   * default; the CLI turns it on with `--watch` or `NODE_ENV=development`.
   */
  checkReturns?: boolean
  /**
   * Most parts a multipart body may have (default 1 000): past it, a 413 naming the limit, as soon as the limit is
   * crossed and before any part is decoded.
   */
  partLimit?: number
  /**
   * OpenTelemetry tracing through `@opentelemetry/api` (an optional peer): a server span per request named
   * `METHOD /template`. Unset (default): on when an SDK registered a tracer provider before the app was created,
   * else off and free. `true`: on; `{ tracerProvider }`: on, with that provider; `false`: off.
   */
  tracing?: TracingOption
  /**
   * Prometheus metrics through `prom-client` (an optional peer): the request duration histogram and the requests in
   * flight by method, route template and status, exposed at `/metrics` (`{ path }` to choose, `{ registry }` for
   * another registry than prom-client's global one). Off by default.
   */
  metrics?: MetricsOption
  /**
   * Serve an API reference page of the app's OpenAPI document at `/docs` (Swagger UI, with "try it out"), from the
   * `swagger-ui-dist` package: `true` shows the document generated from the controllers; `{ openapi }` names the
   * path of a document the app serves itself, or gives the generated document's options (`info`, security schemes).
   */
  docs?: boolean | DocsOptions
  /** A signature manifest (for bundles: the one `routeless build` wrote), or its path (default `.routeless/manifest.json`). */
  manifest?: Manifest | string
  /**
   * The module `routeless build` generated beside the manifest (`import * as compiled from '../../app/.routeless/app.mjs'`),
   * for bundles; used when it was generated from this manifest by this version. Without it, `app.mjs` is read beside
   * the manifest file; when there is none, or it is stale, the same code is generated in memory at start-up.
   */
  compiled?: Partial<CompiledModule>
  /**
   * Server-sent event streams (handlers returning `AsyncIterable<Sse<T>>`): `heartbeat` is how long a stream may be
   * idle, in milliseconds, before a comment line is sent to keep proxies and clients from closing it (default
   * 15 000; 0: none).
   */
  sse?: { heartbeat?: number }
}

export type { ControllerSource, ModuleMap } from '../routing/discover.ts'
export { collectSources } from '../routing/discover.ts'

export const DEFAULT_BODY_LIMIT = 1024 * 1024
