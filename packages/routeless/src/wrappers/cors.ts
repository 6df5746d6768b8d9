/**
 * CORS as configuration: an allow-list of origins, credentials, exposed headers, and preflights answered with the
 * right headers and `Vary`.
 * @module
 */

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

type Fetch = (request: Request, env?: Record<string, unknown>) => Promise<Response>

/** Wraps a fetch function with CORS. `allowOf(path)` gives the `Allow` of a path (undefined when none answers). */
export function withCors(next: Fetch, options: CorsOptions, allowOf: (request: Request) => string | undefined): Fetch {
  const allowed = originCheck(options)
  const wildcard = options.origins === '*' && !options.credentials
  const vary = wildcard ? undefined : 'Origin'
  return async (request, env) => {
    const origin = request.headers.get('origin')
    const preflight =
      request.method === 'OPTIONS' && origin !== null && request.headers.has('access-control-request-method')
    if (preflight) {
      const allow = allowOf(request)
      const headers = new Headers({ Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers' })
      if (allow === undefined) return next(request, env)
      headers.set('Allow', allow)
      if (allowed(origin)) {
        headers.set('Access-Control-Allow-Origin', wildcard ? '*' : origin)
        if (options.credentials) headers.set('Access-Control-Allow-Credentials', 'true')
        headers.set('Access-Control-Allow-Methods', allow)
        const asked = request.headers.get('access-control-request-headers')
        const allowHeaders = options.allowHeaders?.join(', ') ?? asked
        if (allowHeaders) headers.set('Access-Control-Allow-Headers', allowHeaders)
        headers.set('Access-Control-Max-Age', String(options.maxAge ?? 600))
      }
      return new Response(null, { status: 204, headers })
    }
    const response = await next(request, env)
    if (origin === null) {
      if (vary) appendVary(response, vary)
      return response
    }
    const out = mutable(response)
    if (vary) appendVary(out, vary)
    if (allowed(origin)) {
      out.headers.set('Access-Control-Allow-Origin', wildcard ? '*' : origin)
      if (options.credentials) out.headers.set('Access-Control-Allow-Credentials', 'true')
      if (options.exposeHeaders?.length)
        out.headers.set('Access-Control-Expose-Headers', options.exposeHeaders.join(', '))
    }
    return out
  }
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

function appendVary(response: Response, value: string): void {
  try {
    const current = response.headers.get('vary')
    if (!current) response.headers.set('Vary', value)
    else if (!current.split(',').some((v) => v.trim().toLowerCase() === value.toLowerCase()))
      response.headers.set('Vary', `${current}, ${value}`)
  } catch {
    // immutable headers (a Response from fetch()): leave as is
  }
}

/** Responses from `fetch()` have immutable headers; copy those. */
function mutable(response: Response): Response {
  try {
    response.headers.set('x-routeless-probe', '1')
    response.headers.delete('x-routeless-probe')
    return response
  } catch {
    return new Response(response.body, response)
  }
}
