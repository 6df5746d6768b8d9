/**
 * The form or JSON fields of a GET request's body. routeless reads no body for GET (RFC 9110 gives it no meaning),
 * but DeepL's clients send some GET parameters there: deepl-python's `requests` call puts `data=` in the body, so
 * `GET /v2/languages` arrives with `type=target` as a form body. On node:http (routeless/node, how this example is
 * served) the adapter hands the raw request to the app as `env.req`; its body is read here with routeless's own
 * parser (form, JSON or multipart; 413 past `limit`, 415 for other types). Served any other way there is no GET body
 * to read, and the answer is `{}`.
 */
import type { IncomingMessage } from 'node:http'
import { readBody, type Kwargs } from 'routeless'

export async function getBodyFields(env: Record<string, unknown> | undefined, limit: number): Promise<Kwargs> {
  const req = env?.req as IncomingMessage | undefined
  if (req === undefined || typeof req.headers !== 'object' || req.readableEnded) return {}
  const incoming = {
    method: 'GET',
    target: req.url ?? '/',
    header(name: string): string | null {
      const value = req.headers[name]
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
    },
    body: () => req as AsyncIterable<Uint8Array>,
    request(): Request {
      throw new Error('getBodyFields reads the body only')
    },
    url: () => new URL(req.url ?? '/', 'http://localhost'),
  }
  const parsed = await readBody(incoming, { limit })
  return parsed.fields ?? {}
}
