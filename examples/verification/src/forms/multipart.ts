/** v3 bodies are multipart/form-data only: this returns the decoded form fields, or answers 415. */
import type { Controller, Kwargs } from 'routeless'
import { apiError, MULTIPART_REQUIRED } from '../http/errors.ts'

export type Form = Kwargs

/**
 * The form fields of the request body. Any other content type answers 415; with `optional`, a request without a
 * body gives an empty form (token and replay take an optional body).
 */
export function multipartForm(controller: Pick<Controller, 'request' | 'body'>, options: { optional?: boolean } = {}): Form {
  const type = (controller.request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type === 'multipart/form-data') return (controller.body as Form | undefined) ?? Object.create(null)
  if (controller.body === undefined && options.optional) return Object.create(null)
  throw apiError(415, MULTIPART_REQUIRED)
}
