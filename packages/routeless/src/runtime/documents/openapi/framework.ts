/**
 * The answers routeless gives on its own, documented on the operations where they can happen: 400 where a parameter
 * or a body is bound, 413 and 415 where a body is read, what the guards refuse with (401, 403, 429, with their
 * headers), and `5XX`. A handler whose type does not list its answers keeps `4XX` for those it throws.
 * @module
 */
import { STATUS_TEXT } from '../../base/errors.ts'
import type { Responses } from './answers.ts'
import type { ErrorBodies } from './errors.ts'
import type { ErrorSite } from './options.ts'
import type { Refusal } from './security.ts'

export interface FrameworkFacts {
  site: Omit<ErrorSite, 'status'>
  /** The handler's type lists every answer it gives (no `4XX` range then). */
  declared: boolean
  /** A path parameter, a query parameter or a body is bound, and can be refused. */
  binds: boolean
  /** routeless reads the request's body (every method but GET, HEAD and OPTIONS). */
  readsBody: boolean
  refusals: Refusal[]
}

const WHY: Record<number, string> = {
  400: 'A parameter or the body is invalid (each failing parameter is named)',
  401: 'Credentials are missing or wrong',
  403: 'The credentials do not allow this',
  413: 'The body is larger than the limit',
  415: 'The body is of a media type this operation does not take',
  429: 'Too many requests: retry after `Retry-After` seconds',
}

const HEADER_SCHEMAS: Record<string, Record<string, unknown>> = {
  'retry-after': { type: 'integer', minimum: 0, description: 'Seconds to wait' },
  'ratelimit-limit': { type: 'integer', minimum: 0 },
  'ratelimit-remaining': { type: 'integer', minimum: 0 },
  'ratelimit-reset': { type: 'integer', minimum: 0, description: 'Seconds until the window resets' },
}

/** Adds routeless's own answers to `out` (an answer the handler declares for a status is kept). */
export function addFrameworkAnswers(out: Responses, facts: FrameworkFacts, errors: ErrorBodies): void {
  const add = (status: number, headers: string[] = []) => {
    const key = String(status)
    if (out[key]) return
    const content = errors.content({ ...facts.site, status })
    out[key] = {
      description: WHY[status] ?? STATUS_TEXT[status] ?? `HTTP ${status}`,
      ...(headers.length ? { headers: Object.fromEntries(headers.map((h) => [h, headerObject(h)])) } : {}),
      ...(content ? { content } : {}),
    }
  }
  if (facts.binds || facts.readsBody) add(400)
  for (const refusal of facts.refusals) add(refusal.status, refusal.headers)
  // A rate limit's headers come with the answers it lets through too (when it counted the request).
  const counted = facts.refusals.find((r) => r.status === 429)?.headers.filter((h) => /^ratelimit-/i.test(h)) ?? []
  for (const [status, response] of Object.entries(out)) {
    if (!counted.length || !/^2/.test(status)) continue
    response.headers = {
      ...Object.fromEntries(counted.map((h) => [h, { schema: headerSchema(h) }])),
      ...response.headers,
    }
  }
  if (facts.readsBody) {
    add(413)
    add(415, ['Accept-Post', 'Accept-Patch'])
  }
  if (!facts.declared && !out['4XX']) {
    const content = errors.content({ ...facts.site, status: 400 })
    out['4XX'] = { description: 'Client error', ...(content ? { content } : {}) }
  }
  if (!out['5XX']) {
    const content = errors.content({ ...facts.site, status: 500 })
    out['5XX'] = { description: STATUS_TEXT[500], ...(content ? { content } : {}) }
  }
}

function headerObject(name: string): Record<string, unknown> {
  return { schema: headerSchema(name), required: true }
}

function headerSchema(name: string): Record<string, unknown> {
  return HEADER_SCHEMAS[name.toLowerCase()] ?? { type: 'string' }
}

/** Orders responses as readers expect: by status, ranges after the statuses they cover. */
export function sortResponses(out: Responses): Responses {
  const rank = (k: string) => (k === 'default' ? 1000 : k.endsWith('XX') ? Number(k[0]) * 100 + 99.5 : Number(k))
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => rank(a) - rank(b)))
}
