/**
 * The API's auth guard: `Authorization: DeepL-Auth-Key <key>` → `controller.principal` (the key record). DeepL
 * answers 403, never 401, for a missing or bad key (clients raise `AuthorizationError` only on 403), so this is a
 * routeless guard of its own rather than `bearerAuth` (which challenges with 401). Developer keys use the API,
 * organization admin keys the admin API only.
 */
import { HttpError, type Controller, type Guard } from 'routeless'
import type { Services } from '../services.ts'
import { authenticate } from './authenticate.ts'

export type KeyKind = 'developer' | 'admin'

export function deeplKey(kind: KeyKind): Guard {
  return async (controller: Controller<any>) => {
    const key = await authenticate((controller.context as Services).keys, controller.headers)
    if (kind === 'admin' && !key.isAdmin) throw new HttpError(403, 'This endpoint needs an organization admin key.')
    if (kind === 'developer' && key.isAdmin)
      throw new HttpError(403, 'Admin keys can only use the admin API (/v2/admin/...): use a developer key.')
    controller.principal = key
  }
}

/** The configured per-key rate limit (`Services.rateLimit`), run after authentication. */
export const limitRate: Guard = (controller) => (controller.context as Services).rateLimit(controller)
