/**
 * What an application is given beside its route table and options: the parts of routeless a Worker bundle leaves
 * out (telemetry and its optional peers, the OpenAPI generator, the API reference page, which reads its files from
 * `swagger-ui-dist`). `createApp` and `createAppFromModules` load them here, with dynamic imports, so that the
 * `Application` itself imports none of them.
 * @module
 */
import type { AppOptions } from './options.ts'
import type { Telemetry, TelemetryContext } from '../wrappers/telemetry.ts'
import type { generateOpenAPI } from '../documents/openapi.ts'
import type { generateAsyncAPI } from '../documents/asyncapi.ts'
import type { ApiReference, checkDocsPath, docsOptionsOf } from '../documents/api-reference.ts'
import type { docs } from '../wrappers/docs.ts'
import type { ReturnCheck, returnCheck } from '../lifecycle/answer-check.ts'
import type { JsonSchema } from '../contract/manifest.ts'
import type { Evaluate, LifecycleParts } from '../handlers/handlers.ts'
import type { accessLog } from '../wrappers/access-log.ts'
import type { cors, originCheck } from '../wrappers/cors.ts'
import type { notFoundHint } from '../routing/not-found-hint.ts'
import type { HostSockets } from '../lifecycle/host-sockets.ts'
import { CORE_SERVICES } from './core-services.ts'
import { otelRegistered } from '../base/otel-global.ts'
import { buildTools } from './build-tools.ts'

export interface AppServices {
  /** The `accessLog` option's wrapper. */
  accessLog?: typeof accessLog
  /** The `cors` option's wrapper, and its check of a WebSocket upgrade's origin. */
  cors?: { cors: typeof cors; originCheck: typeof originCheck }
  /** WebSocket upgrades through `app.fetch` on Bun, Deno and Workers (`runtime/lifecycle/host-sockets.ts`). */
  sockets?: HostSockets
  /** The `explainNotFound` option's hint. */
  notFoundHint?: typeof notFoundHint
  /** The telemetry the options ask for (`createTelemetry` with its peers imported), or undefined when off. */
  telemetry?: (context: TelemetryContext) => Telemetry | undefined
  /** `checkReturns`: the development-mode check of returned values (it compiles validators: `runtime/app/build-tools.ts`). */
  checkReturn?: (schema: JsonSchema, defs: Record<string, JsonSchema>) => ReturnCheck
  /** Each handler's check made of `checkReturn` (per declared status when it has answers), with it. */
  returnCheck?: typeof returnCheck
  /** `app.openapi()`, and the document of the docs page. */
  openapi?: typeof generateOpenAPI
  /** `/docs/asyncapi.json`: the WebSockets' and event streams' document, served beside OpenAPI's on the docs page. */
  asyncapi?: typeof generateAsyncAPI
  /** What only some handlers' code uses (`runtime/handlers/handlers.ts`'s `LifecycleParts`); none when absent. */
  lifecycle?: LifecycleParts
  /** Evaluates at start-up the code of a handler the built module lacks (development: `runtime/app/build-tools.ts`). */
  evaluate?: Evaluate
  /** The `docs` page. */
  docs?: {
    ApiReference: typeof ApiReference
    checkDocsPath: typeof checkDocsPath
    docsOptionsOf: typeof docsOptionsOf
    wrapper: typeof docs
  }
}

/**
 * Imports what `options` need beside the core: the telemetry and its peers (only when metrics or tracing are asked
 * for, or tracing is left to detection and an SDK registered something), the OpenAPI generator, the docs page.
 */
export async function loadServices(options: AppOptions): Promise<AppServices> {
  const { tracing, metrics } = options
  const telemetry = Boolean(metrics || tracing || (tracing === undefined && otelRegistered()))
  const [wrappers, { generateOpenAPI }, page, wrapper, checkReturn, answers, { generateAsyncAPI }] = await Promise.all([
    telemetry ? import('../wrappers/telemetry.ts') : undefined,
    import('../documents/openapi.ts'),
    options.docs ? import('../documents/api-reference.ts') : undefined,
    options.docs ? import('../wrappers/docs.ts') : undefined,
    options.checkReturns ? buildTools.checkReturn() : undefined,
    options.checkReturns ? import('../lifecycle/answer-check.ts') : undefined,
    import('../documents/asyncapi.ts'),
  ])
  const peers = wrappers && (await wrappers.loadTelemetryPeers(options))
  return {
    ...CORE_SERVICES,
    telemetry: wrappers && peers && ((context) => wrappers.createTelemetry(options, peers, context)),
    openapi: generateOpenAPI,
    asyncapi: generateAsyncAPI,
    checkReturn,
    returnCheck: answers?.returnCheck,
    docs: page && wrapper && { ...page, wrapper: wrapper.docs },
  }
}
