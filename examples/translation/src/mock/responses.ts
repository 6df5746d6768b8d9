/** The answers the deepl-mock layer gives itself, in DeepL's error body (`{"message": …}`). */
import { QUOTA_MESSAGE } from '../usage/meter.ts'

export const DEEPL_MOCK_MESSAGES = {
  expectedProxy: 'Expected a request via proxy.',
  tooManyRequests:
    'Too many requests: this deepl-mock session answers 429 a given number of times (mock-server-session-429-count).',
  quota: QUOTA_MESSAGE,
  documentNotDone: 'Document translation is not done',
  noResponse:
    'No response: this deepl-mock session leaves requests unanswered (mock-server-session-no-response-count).',
} as const

export function jsonResponse(status: number, body: string | Record<string, unknown>): Response {
  const json = typeof body === 'string' ? { message: body } : body
  return new Response(JSON.stringify(json), { status, headers: { 'Content-Type': 'application/json' } })
}
