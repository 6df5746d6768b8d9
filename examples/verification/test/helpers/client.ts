/**
 * A small v3 client that speaks the wire protocol the official SDKs speak: the token call with partner id and API key
 * headers and no body, `SmileID-Token` on every other call, the telemetry headers, multipart bodies, and one token
 * refresh (then one retry) after a 401. A 2xx answer must be a JSON object.
 */
import { encodeMultipart, partsOf, type Part } from './multipart.ts'

type Fields = Parameters<typeof partsOf>[0]

export interface V3Response<T = any> {
  status: number
  headers: Headers
  body: T
}

export class V3Client {
  token: string | undefined
  tokenFetches = 0

  constructor(
    readonly baseUrl: string,
    readonly partnerId: string,
    readonly apiKey: string,
  ) {}

  async fetchToken(): Promise<string> {
    const res = await fetch(`${this.baseUrl}/v3/token`, {
      method: 'POST',
      headers: { 'smileid-partner-id': this.partnerId, 'smileid-api-key': this.apiKey, ...TELEMETRY },
    })
    this.tokenFetches++
    const body = (await res.json()) as { token?: string }
    if (res.status !== 200 || typeof body.token !== 'string')
      throw new Error(`token call failed: ${res.status} ${JSON.stringify(body)}`)
    this.token = body.token
    return body.token
  }

  async post(
    path: string,
    fields: Fields | Part[] | undefined,
    headers: Record<string, string> = {},
  ): Promise<V3Response> {
    return this.call('POST', path, fields, headers)
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<V3Response> {
    return this.call('GET', path, undefined, headers)
  }

  async put(path: string, fields: Fields, headers: Record<string, string> = {}): Promise<V3Response> {
    return this.call('PUT', path, fields, headers)
  }

  private async call(
    method: string,
    path: string,
    fields: Fields | Part[] | undefined,
    headers: Record<string, string>,
    retried = false,
  ): Promise<V3Response> {
    const token = this.token ?? (await this.fetchToken())
    const init: RequestInit = { method, headers: { 'SmileID-Token': token, ...TELEMETRY, ...headers } }
    if (fields !== undefined) {
      const { body, contentType } = encodeMultipart(Array.isArray(fields) ? fields : partsOf(fields))
      init.body = body
      ;(init.headers as Record<string, string>)['Content-Type'] = contentType
    }
    const res = await fetch(`${this.baseUrl}${path}`, init)
    if (res.status === 401 && !retried) {
      await res.body?.cancel()
      this.token = undefined
      await this.fetchToken()
      return this.call(method, path, fields, headers, true)
    }
    const text = await res.text()
    const body = text ? JSON.parse(text) : undefined
    if (res.status >= 200 && res.status < 300 && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new Error(`UnexpectedResponseError: ${res.status} ${text}`)
    }
    return { status: res.status, headers: res.headers, body }
  }

  /** Polls GET /v3/status/{id} every 25 ms while the job is processing (or not found yet). */
  async waitUntilComplete(jobId: string, timeoutMs = 5000): Promise<V3Response> {
    const end = Date.now() + timeoutMs
    for (;;) {
      const res = await this.get(`/v3/status/${jobId}`)
      if (res.body.status !== 'processing' && res.body.status !== 'not_found') return res
      if (Date.now() > end) throw new Error(`job ${jobId} still ${res.body.status}`)
      await new Promise((r) => setTimeout(r, 25))
    }
  }
}

export const TELEMETRY = {
  'SmileID-Source-SDK': 'node',
  'SmileID-Source-SDK-Version': '12.0.0',
  'User-Agent': `smileid-sdk-node/12.0.0 (node/${process.versions.node})`,
}
