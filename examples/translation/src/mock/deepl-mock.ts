/**
 * TEST_MODE=deepl-mock: the layer in front of the application that makes this server answer like DeepL's mock
 * server (deepl-mock) for client test suites. It exists only in that mode (app.ts adds it). Per request, in
 * deepl-mock's order:
 *   1. the session named by `mock-server-session` (sessions.ts) is found or created;
 *   2. while the session has no-response requests left, the request gets no answer (held until the client gives up;
 *      after `noResponseHoldMs` the connection is answered 504 so nothing is held for ever);
 *   3. with `mock-server-session-expect-proxy` non-zero, a request without a `Forwarded` header is refused (400);
 *   4. the `DeepL-Auth-Key` gets an account on first use (accounts.ts; `invalid` and empty keys stay 403);
 *   5. `/v2/translate` (and the secondary route) answers 429 while the session has 429s left;
 *   6. `/v2/translate_secondary` is served as `/v2/translate` (deepl-mock's second translate path);
 *   7. `POST /v2/document` takes one document from the account's document / team-document limits (456 past them,
 *      given back when the upload fails), and in a session with document queue / translate times the document is
 *      shown `queued`, then `translating`, for those times (its result 503 until then);
 *   8. a document's `done` status carries `seconds_remaining: 0`, as deepl-mock's does (client suites compare it with
 *      a number; DeepL's own description leaves it out, and so does this server outside the test mode).
 * Everything else is the application itself.
 */
import { DEEPL_MOCK_MESSAGES, jsonResponse } from './responses.ts'
import type { MockAccounts } from './accounts.ts'
import { readSettings, type MockSession, type MockSessions } from './sessions.ts'
import type { FetchHandler } from '../trace-id.ts'

const AUTH = /^DeepL-Auth-Key\s+(.*)$/i
const TRANSLATE = new Set(['/v2/translate', '/v2/translate_secondary'])
const SECONDARY = '/v2/translate_secondary'
const DOCUMENT_STATUS = /^\/v2\/document\/([^/]+)$/
const DOCUMENT_RESULT = /^\/v2\/document\/([^/]+)\/result$/

export interface DeepLMockOptions {
  sessions: MockSessions
  accounts: MockAccounts
  /** How long a no-response request is held when the client does not give up first (default 5 minutes). */
  noResponseHoldMs?: number
  clock?: () => number
}

export function withDeepLMock(fetch: FetchHandler, options: DeepLMockOptions): FetchHandler {
  const clock = options.clock ?? Date.now
  const holdMs = options.noResponseHoldMs ?? 5 * 60 * 1000

  return async (request, env) => {
    const session = options.sessions.of(request.headers)
    if (session && session.remainingNoResponses > 0) {
      session.remainingNoResponses -= 1
      return noResponse(request.signal, holdMs)
    }
    if (session?.expectProxy && request.headers.get('forwarded') === null) {
      return jsonResponse(400, DEEPL_MOCK_MESSAGES.expectedProxy)
    }

    const secret = AUTH.exec(request.headers.get('authorization')?.trim() ?? '')?.[1]?.trim()
    const key =
      secret === undefined ? undefined : await options.accounts.ensure(secret, session ?? readSettings(request.headers))

    const url = new URL(request.url)
    const path = url.pathname
    if (TRANSLATE.has(path) && session && session.remaining429s > 0 && key) {
      session.remaining429s -= 1
      return jsonResponse(429, DEEPL_MOCK_MESSAGES.tooManyRequests)
    }
    if (path === SECONDARY) {
      url.pathname = '/v2/translate'
      return fetch(retarget(request, url), env)
    }

    if (path === '/v2/document' && request.method === 'POST' && key && !key.isAdmin) {
      if (!options.accounts.reserveDocument(key.keyId)) return jsonResponse(456, DEEPL_MOCK_MESSAGES.quota)
      const arrived = clock()
      let response: Response
      try {
        response = await fetch(request, env)
      } catch (error) {
        options.accounts.releaseDocument(key.keyId)
        throw error
      }
      if (response.status !== 200) options.accounts.releaseDocument(key.keyId)
      else if (session && (session.docQueueTime || session.docTranslateTime)) await remember(response, session, arrived)
      return response
    }

    const status = DOCUMENT_STATUS.exec(path)
    const result = DOCUMENT_RESULT.exec(path)
    const held = session && key && (status ?? result) ? simulated(session, (status ?? result)![1]!, clock()) : undefined
    if (held && status) return jsonResponse(200, held)
    if (held && result) return jsonResponse(503, DEEPL_MOCK_MESSAGES.documentNotDone)
    return status ? withDoneSeconds(await fetch(request, env)) : fetch(request, env)
  }
}

/** Answers nothing until the client disconnects (then the answer goes nowhere), or 504 after `holdMs`. */
function noResponse(signal: AbortSignal, holdMs: number): Promise<Response> {
  return new Promise((resolve) => {
    const answer = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', answer)
      resolve(jsonResponse(504, DEEPL_MOCK_MESSAGES.noResponse))
    }
    const timer = setTimeout(answer, holdMs)
    timer.unref?.()
    if (signal.aborted) answer()
    else signal.addEventListener('abort', answer, { once: true })
  })
}

function retarget(request: Request, url: URL): Request {
  const init: RequestInit & { duplex?: 'half' } = {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    duplex: 'half',
  }
  if (request.body === null) delete init.body
  return new Request(url, init)
}

/** Notes an uploaded document's id so that its status can be held back for the session's queue and translate times. */
async function remember(response: Response, session: MockSession, now: number): Promise<void> {
  try {
    const body = (await response.clone().json()) as { document_id?: unknown }
    if (typeof body.document_id === 'string') session.documents.set(body.document_id, now)
  } catch {
    // not JSON: nothing to hold back
  }
}

/** A `done` status answer with deepl-mock's `seconds_remaining: 0` added; any other answer as it is. */
async function withDoneSeconds(response: Response): Promise<Response> {
  if (response.status !== 200) return response
  const body = (await response.clone().json()) as Record<string, unknown>
  if (body.status !== 'done') return response
  const { document_id, status, ...rest } = body
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  return new Response(JSON.stringify({ document_id, status, seconds_remaining: 0, ...rest }), { status: 200, headers })
}

/** The status deepl-mock would show while the session's simulated queue / translation runs, else undefined. */
function simulated(session: MockSession, documentId: string, now: number): Record<string, unknown> | undefined {
  const started = session.documents.get(documentId)
  if (started === undefined) return undefined
  const queue = Math.max(0, session.docQueueTime ?? 0)
  const translate = Math.max(0, session.docTranslateTime ?? 0)
  const elapsed = now - started
  if (elapsed < queue) return { document_id: documentId, status: 'queued' }
  if (elapsed < queue + translate)
    return {
      document_id: documentId,
      status: 'translating',
      seconds_remaining: Math.ceil((queue + translate - elapsed) / 1000),
    }
  session.documents.delete(documentId)
  return undefined
}
