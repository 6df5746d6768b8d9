/**
 * The access log: a line per request (method, path, status, duration, request id) and the request id echoed in
 * `X-Request-ID` (the client's when it sent a sane one, else a fresh UUID; also `env.requestId`).
 * @module
 */
import type { Logger } from '../base/logging.ts'
import { fromRequest, type IncomingRequest } from '../lifecycle/request.ts'
import { toFetchResponse, withHeaders } from '../lifecycle/fetch-response.ts'
import type { Answer } from '../lifecycle/response.ts'
import type { Fetch, Wrapper } from './types.ts'

const REQUEST_ID = /^[\x21-\x7e]{1,128}$/

/**
 * The access log around the core's own path (no Fetch objects are built for it). `fieldsOf` adds a request's own
 * fields to its line (the trace and span ids, when tracing is on).
 */
export function accessLog(
  logger: Logger,
  fieldsOf?: (incoming: IncomingRequest) => Record<string, unknown> | undefined,
): Wrapper {
  return (next) => (incoming, env) => {
    const started = performance.now()
    const given = incoming.header('x-request-id')
    const requestId = given && REQUEST_ID.test(given) ? given : crypto.randomUUID()
    env.requestId = requestId
    const done = (answer: Answer): Answer => {
      const out = withHeaders(answer, [['X-Request-ID', requestId]])
      const target = incoming.target
      const q = target.indexOf('?')
      const fields: Record<string, unknown> = {
        method: incoming.method,
        path: q < 0 ? target : target.slice(0, q),
        status: out.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        request_id: requestId,
      }
      if (fieldsOf !== undefined) Object.assign(fields, fieldsOf(incoming))
      logger.info?.('request', fields)
      return out
    }
    const answer = next(incoming, env)
    return answer instanceof Promise ? answer.then(done) : done(answer)
  }
}

/** The access log around any fetch function (the same line and header). */
export function withAccessLog(next: Fetch, logger: Logger): Fetch {
  const handle = accessLog(logger)((incoming, env) => next(incoming.request(), env))
  return async (request, env) => toFetchResponse(await handle(fromRequest(request), env ?? {}))
}
