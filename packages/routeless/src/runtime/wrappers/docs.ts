/**
 * `docs`: the API reference page at `/docs` (its files: runtime/documents/api-reference.ts), answered before the route table
 * is asked, so no controller, no route and no OpenAPI operation of the app's own is added for it. GET and HEAD only
 * (any other method: 405 with `Allow`); a path under `/docs` that is no file of the page: 404. Errors are the app's
 * own (its `renderError`). Other requests pass through at the cost of one string comparison.
 * @module
 */
import { HttpError } from '../base/errors.ts'
import type { IncomingRequest } from '../lifecycle/request.ts'
import { withoutBody, type Answer } from '../lifecycle/response.ts'
import { DOCS_PATH, DOCUMENT, PAGE, type ApiReference } from '../documents/api-reference.ts'
import type { Wrapper } from './types.ts'

/** How the app answers an error (its renderers, else the standard envelope). */
export type RenderError = (error: HttpError, incoming: IncomingRequest) => Answer | Promise<Answer>

const ALLOW = 'GET, HEAD'

/** Answers the requests for the page's files; passes every other request on. */
export function docs(reference: ApiReference, renderError: RenderError): Wrapper {
  return (next) => (incoming, env) => {
    const target = incoming.target
    if (!target.startsWith(DOCS_PATH)) return next(incoming, env)
    const q = target.indexOf('?')
    const path = q < 0 ? target : target.slice(0, q)
    let name: string
    if (path === DOCS_PATH) name = PAGE
    else if (path.startsWith(`${DOCS_PATH}/`)) name = path.slice(DOCS_PATH.length + 1)
    else return next(incoming, env) // `/docsets`: not the page's
    if ((name === PAGE && path !== DOCS_PATH) || !reference.has(name))
      return renderError(new HttpError(404, `The API reference has no file ${path}`), incoming)
    const method = incoming.method
    if (method !== 'GET' && method !== 'HEAD')
      return renderError(
        new HttpError(405, `${method} is not allowed on ${path}`, { headers: { Allow: ALLOW } }),
        incoming,
      )
    // The generated document: `?version=3.2` asks for OpenAPI 3.2; its server is the origin it is asked from.
    const version = q < 0 || name !== DOCUMENT ? null : new URLSearchParams(target.slice(q + 1)).get('version')
    if (version !== null && version !== '3.1' && version !== '3.2')
      return renderError(new HttpError(400, `version must be 3.1 or 3.2, got "${version}"`), incoming)
    return answer(reference, name, incoming, version ?? undefined)
  }
}

async function answer(
  reference: ApiReference,
  name: string,
  incoming: IncomingRequest,
  version: '3.1' | '3.2' | undefined,
): Promise<Answer> {
  const file = await reference.file(name, { origin: incoming.url().origin, version })
  const headers: [string, string][] = [
    ['cache-control', 'no-cache'],
    ['x-content-type-options', 'nosniff'],
  ]
  if (file.etag) {
    headers.push(['etag', file.etag])
    // RFC 9110 §13.1.2: a list of tags, or `*`; a match answers 304 without the body.
    const match = incoming.header('if-none-match')
    if (match && (match.trim() === '*' || match.split(',').some((t) => t.trim().replace(/^W\//, '') === file.etag)))
      return { status: 304, headers, type: undefined, body: null }
  }
  const reply: Answer = { status: 200, headers, type: file.type, body: file.body }
  return incoming.method === 'HEAD' ? withoutBody(reply) : reply
}
