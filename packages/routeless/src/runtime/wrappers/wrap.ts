/**
 * The wrappers around the lifecycle, declared in one place: what runs around every request, whatever answers it
 * (a handler, a 404, a preflight). Outermost first:
 *
 * 1. **access log** (`accessLog`): a JSON line per request (with its trace and span ids when traced), and its
 *    `X-Request-ID`;
 * 2. **telemetry** (`telemetry.ts`: `tracing`, `metrics`): the request's server span, active while the rest runs, and
 *    its duration counted by route template; the metrics path answered;
 * 3. **CORS** (`cors`): preflights answered, allowed origins told so on every answer;
 * 4. **docs** (`docs`): the API reference page's files at `/docs`, answered before the route table is asked.
 *
 * Each is a `Wrapper`: it takes the next `Handle` and returns one, working on the core's own request and answer, so
 * no Fetch object is built for it on node or uWS.
 * @module
 */
import type { Telemetry } from './telemetry.ts'
import type { Handle, Wrapper } from './types.ts'

export type { Handle, Wrapper } from './types.ts'

/**
 * The wrappers the app's options turn on, made by the app with the parts it was given (`runtime/app/services.ts`: a Worker's
 * bundle carries only those its config asks for).
 */
export interface WrapOptions {
  /** A line per request (`access-log.ts`). */
  accessLog?: Wrapper
  /** Tracing and metrics, when either is on (`createTelemetry`). */
  telemetry?: Telemetry
  /** `cors.ts`'s. */
  cors?: Wrapper
  /** The API reference page (`docs.ts`, made by the app with the services `createApp` loads). */
  docs?: Wrapper
}

/** `core` inside the wrappers `options` turn on. */
export function wrap(core: Handle, options: WrapOptions): Handle {
  const wrappers: Wrapper[] = []
  if (options.accessLog) wrappers.push(options.accessLog)
  if (options.telemetry) wrappers.push(options.telemetry.wrapper)
  if (options.cors) wrappers.push(options.cors)
  if (options.docs) wrappers.push(options.docs)
  let handle = core
  for (let i = wrappers.length - 1; i >= 0; i--) handle = wrappers[i]!(handle)
  return handle
}
