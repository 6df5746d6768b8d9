/**
 * Internal to application.ts: an error as the API shows it — the first renderer (class, module, app) that answers, else
 * the standard envelope; HEAD answers keep the status and headers without the body.
 * @module
 */
import type { ErrorRenderer } from '../base/controller.ts'
import type { HttpError } from '../base/errors.ts'
import type { Logger } from '../base/logging.ts'
import type { IncomingRequest } from './request.ts'
import { errorReply, withoutBody, type Answer } from './response.ts'

/** The standard error envelope. */
export function standardError(error: HttpError, incoming: IncomingRequest): Answer {
  const answer = errorReply(error)
  return incoming.method === 'HEAD' ? withoutBody(answer) : answer
}

/** The first of `renderers` that answers `error`; a renderer that throws is logged and skipped. */
export async function renderCustom(
  error: HttpError,
  incoming: IncomingRequest,
  renderers: (ErrorRenderer | undefined)[],
  logger: Logger,
): Promise<Answer> {
  // Renderers take a Request: built here, before the first await. Fetch refuses some methods (TRACE, TRACK,
  // CONNECT): their renderers get a stand-in GET of the same URL, so the API's own error shape is kept.
  let request: Request
  try {
    request = incoming.request()
  } catch {
    try {
      request = new Request(incoming.url())
    } catch {
      return standardError(error, incoming)
    }
  }
  for (const render of renderers) {
    if (!render) continue
    try {
      const custom = await render(error, request)
      if (custom) return incoming.method === 'HEAD' ? withoutBody(custom) : custom
    } catch (renderFailure) {
      logger.error('An error renderer failed', renderFailure)
    }
  }
  return standardError(error, incoming)
}
