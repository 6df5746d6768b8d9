/**
 * Base classes of the API controllers: DeepL's error body, and the guards that run before every handler (and
 * before the body is read): key authentication, then the per-key rate limit.
 */
import { Controller } from 'routeless'
import { deeplKey, limitRate } from '../auth/key-guard.ts'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import type { Services } from '../services.ts'
import { renderDeepLError } from './deepl-error.ts'

export class ApiController extends Controller<Services> {
  static renderError = renderDeepLError
  static auth = [deeplKey('developer'), limitRate]

  /** The authenticated key (what the auth guard admitted). */
  get key(): ApiKeyRecord {
    return this.principal as ApiKeyRecord
  }
}

export class AdminController extends ApiController {
  static auth = [deeplKey('admin'), limitRate]
}
