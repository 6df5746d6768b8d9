/** DeepL's error body, `{"message": "…"}`, for every error this API answers (framework-made ones included). */
import type { HttpError } from 'routeless'

export function renderDeepLError(error: HttpError): Response {
  const headers = new Headers(error.headers)
  headers.set('content-type', 'application/json; charset=utf-8')
  const body = error.hasBody ? error.body : { message: error.message }
  return new Response(JSON.stringify(body), { status: error.status, headers })
}
