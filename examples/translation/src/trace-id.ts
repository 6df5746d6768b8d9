/** `X-Trace-ID` on every response (32 hex characters, like DeepL's), errors and OPTIONS answers included. */
import { randomBytes } from 'node:crypto'
import type { Application } from 'routeless'

export type FetchHandler = (request: Request, env?: Record<string, unknown>) => Response | Promise<Response>

export function newTraceId(): string {
  return randomBytes(16).toString('hex')
}

export function withTraceId(fetch: FetchHandler): FetchHandler {
  return async (request, env) => withTrace(await fetch(request, env), newTraceId())
}

/** `response` with `X-Trace-ID: id`; immutable headers (a Response.redirect, for instance) make a copy. */
function withTrace(response: Response, id: string): Response {
  try {
    response.headers.set('X-Trace-ID', id)
    return response
  } catch {
    const headers = new Headers(response.headers)
    headers.set('X-Trace-ID', id)
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
}

type Handle = Application['handle']
type HandledAnswer = Awaited<ReturnType<Handle>>

/** The same for `Application.handle` (what routeless/uws serves): the answer, a Reply or a Response, gets `X-Trace-ID`. */
export function handleWithTraceId(app: Application): Handle {
  return (incoming, env) => {
    const answer = app.handle(incoming, env)
    return answer instanceof Promise ? answer.then(traced) : traced(answer)
  }
}

function traced(answer: HandledAnswer): HandledAnswer {
  const id = newTraceId()
  if (answer instanceof Response) return withTrace(answer, id)
  const headers = answer.headers
  if (headers instanceof Headers) headers.set('X-Trace-ID', id)
  // Shared pairs are never changed: a new list.
  else answer.headers = [...(headers ?? []), ['x-trace-id', id]]
  return answer
}
