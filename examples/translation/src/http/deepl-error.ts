/**
 * DeepL's error body, `{"message": "…"}`, for every error this API answers (framework-made ones included). A
 * parameter-schema 400 lists every failing parameter in `errors`; DeepL names one, so the first reason (written in
 * DeepL's wording by `schemas.ts`) becomes the message.
 */
import type { HttpError } from 'routeless'

export function renderDeepLError(error: HttpError): Response {
  const headers = new Headers(error.headers)
  headers.set('content-type', 'application/json; charset=utf-8')
  const issues = error.details?.errors as Array<{ name: string; reason: string }> | undefined
  const message = issues?.length ? issues[0]!.reason : error.message
  const body = error.hasBody ? error.body : { message }
  return new Response(JSON.stringify(body), { status: error.status, headers })
}
