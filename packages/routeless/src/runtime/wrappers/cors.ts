/**
 * CORS as configuration: an allow-list of origins, credentials, exposed headers, and preflights answered with the
 * right headers and `Vary`.
 * @module
 */
import { fromRequest, type IncomingRequest } from '../lifecycle/request.ts'
import { headerOf, toFetchResponse, withHeaders } from '../lifecycle/fetch-response.ts'
import type { Answer } from '../lifecycle/response.ts'
import type { Fetch, Wrapper } from './types.ts'

export interface CorsOptions {
  /** Allowed origins: a list (`https://app.example`), `'*'`, or a predicate. */
  origins: readonly string[] | '*' | ((origin: string) => boolean)
  /** Send `Access-Control-Allow-Credentials: true` (the origin is then echoed, never `*`). */
  credentials?: boolean
  /** Response headers the browser may read. */
  exposeHeaders?: readonly string[]
  /** Request headers allowed on preflight (default: echo what the browser asks for). */
  allowHeaders?: readonly string[]
  /** Preflight cache lifetime in seconds (default 600). */
  maxAge?: number
}

const PREFLIGHT_VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers'

/** CORS around the core. `allowOf` gives the `Allow` of the path a request names (undefined when none answers). */
export function cors(options: CorsOptions, allowOf: (incoming: IncomingRequest) => string | undefined): Wrapper {
  const allowed = originCheck(options)
  const wildcard = options.origins === '*' && !options.credentials
  const vary = wildcard ? undefined : 'Origin'
  const maxAge = String(options.maxAge ?? 600)
  const expose = options.exposeHeaders?.length ? options.exposeHeaders.join(', ') : undefined
  const decorate = (answer: Answer, origin: string | null): Answer => {
    const entries: [string, string][] = []
    if (vary) {
      const current = headerOf(answer, 'vary')
      if (!current) entries.push(['Vary', vary])
      else if (!current.split(',').some((v) => v.trim().toLowerCase() === 'origin'))
        entries.push(['Vary', `${current}, ${vary}`])
    }
    if (origin !== null && allowed(origin)) {
      entries.push(['Access-Control-Allow-Origin', wildcard ? '*' : origin])
      if (options.credentials) entries.push(['Access-Control-Allow-Credentials', 'true'])
      if (expose) entries.push(['Access-Control-Expose-Headers', expose])
    }
    return withHeaders(answer, entries)
  }
  return (next) => (incoming, env) => {
    const origin = incoming.header('origin')
    if (incoming.method === 'OPTIONS' && origin !== null && incoming.header('access-control-request-method') !== null) {
      const allow = allowOf(incoming)
      if (allow !== undefined) {
        const headers: [string, string][] = [
          ['Vary', PREFLIGHT_VARY],
          ['Allow', allow],
        ]
        if (allowed(origin)) {
          headers.push(['Access-Control-Allow-Origin', wildcard ? '*' : origin])
          if (options.credentials) headers.push(['Access-Control-Allow-Credentials', 'true'])
          headers.push(['Access-Control-Allow-Methods', allow])
          const allowHeaders = options.allowHeaders?.join(', ') ?? incoming.header('access-control-request-headers')
          if (allowHeaders) headers.push(['Access-Control-Allow-Headers', allowHeaders])
          headers.push(['Access-Control-Max-Age', maxAge])
        }
        return { status: 204, headers: new Headers(headers), type: undefined, body: null }
      }
    }
    const answer = next(incoming, env)
    return answer instanceof Promise ? answer.then((a) => decorate(a, origin)) : decorate(answer, origin)
  }
}

/** CORS around any fetch function (the same rules); `allowOf` gives the `Allow` of the path a request names. */
export function withCors(next: Fetch, options: CorsOptions, allowOf: (request: Request) => string | undefined): Fetch {
  const handle = cors(options, (incoming) => allowOf(incoming.request()))((incoming, env) =>
    next(incoming.request(), env),
  )
  return async (request, env) => toFetchResponse(await handle(fromRequest(request), env ?? {}))
}

/**
 * Whether an origin is allowed. A throwing predicate counts as "no". `'*'` with credentials is refused at start-up:
 * it would let every site make credentialed requests.
 */
export function originCheck(options: CorsOptions): (origin: string) => boolean {
  if (options.origins === '*' && options.credentials) {
    throw new RangeError(
      "cors: origins '*' with credentials would let every site send credentialed requests; list the origins",
    )
  }
  if (options.origins === '*') return () => true
  const origins = options.origins
  if (typeof origins === 'function') {
    return (origin) => {
      try {
        return origins(origin) === true
      } catch {
        return false
      }
    }
  }
  const list = new Set(origins)
  return (origin) => list.has(origin)
}
