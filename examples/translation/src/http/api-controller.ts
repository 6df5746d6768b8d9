/**
 * Base class of the API controllers: DeepL's error body, key authentication and the per-key rate limit before every
 * handler. Developer keys use the API; organization admin keys use the admin API only.
 */
import { Controller, HttpError } from 'routeless'
import { authenticate } from '../auth/authenticate.ts'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import type { Services } from '../services.ts'
import { renderDeepLError } from './deepl-error.ts'

export const TOO_MANY_REQUESTS = 'Too many requests'

export class ApiController extends Controller<Services> {
  static renderError = renderDeepLError
  /** Which keys may call this controller. */
  static keyKind: 'developer' | 'admin' = 'developer'

  /** The authenticated key (set by `before`). */
  declare key: ApiKeyRecord

  async before(): Promise<void> {
    this.key = await authenticate(this.context.keys, this.request)
    const kind = (this.constructor as typeof ApiController).keyKind
    if (kind === 'admin' && !this.key.isAdmin) throw new HttpError(403, 'This endpoint needs an organization admin key.')
    if (kind === 'developer' && this.key.isAdmin) throw new HttpError(403, 'Admin keys can only use the admin API (/v2/admin/...): use a developer key.')
    const wait = this.context.rateLimiter.take(this.key.keyId)
    if (wait > 0) throw new HttpError(429, TOO_MANY_REQUESTS, { headers: { 'Retry-After': String(wait) } })
  }

  /** True when the request body was JSON (some parameters are accepted only there). */
  protected get jsonBody(): boolean {
    const type = (this.request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
  }
}

export class AdminController extends ApiController {
  static keyKind: 'developer' | 'admin' = 'admin'
}
