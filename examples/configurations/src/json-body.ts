/**
 * Request bodies of this API are JSON objects. The controllers take the body raw (`static accepts = ['*\/*']`) and
 * decode it here, after `before()` has checked the session: an anonymous client learns 403 and nothing about its body.
 */
import { HttpError } from 'routeless'

/** The body as a JSON object; no body at all reads as `{}` so that each missing field is reported by name. */
export function readJsonObject(request: Request, body: unknown): Record<string, unknown> {
  if (body === undefined) return {}
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json' && !(type.startsWith('application/') && type.endsWith('+json'))) {
    throw new HttpError(415, `The body must be JSON sent as Content-Type: application/json${type ? `, not ${type}` : ''}`, {
      headers: { 'Accept-Patch': 'application/json', 'Accept-Post': 'application/json' },
    })
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body as Uint8Array)
  } catch {
    throw new HttpError(400, 'The body is not valid JSON: it is not UTF-8')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new HttpError(400, `The body is not valid JSON: ${(error as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, `The body must be a JSON object, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}`)
  }
  return value as Record<string, unknown>
}
