/** `X-Trace-ID` on every response (32 hex characters, like DeepL's), errors and OPTIONS answers included. */
import { randomBytes } from 'node:crypto'

export type FetchHandler = (request: Request, env?: Record<string, unknown>) => Promise<Response>

export function newTraceId(): string {
  return randomBytes(16).toString('hex')
}

export function withTraceId(fetch: FetchHandler): FetchHandler {
  return async (request, env) => {
    const response = await fetch(request, env)
    const id = newTraceId()
    try {
      response.headers.set('X-Trace-ID', id)
      return response
    } catch {
      // Immutable headers (a Response.redirect, for instance): copy the response.
      const headers = new Headers(response.headers)
      headers.set('X-Trace-ID', id)
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
    }
  }
}
