/**
 * The API's auth guard: `Authorization: DeepL-Auth-Key <key>` → `controller.principal` (the key record). DeepL
 * answers 403, never 401, for a missing or bad key (clients raise `AuthorizationError` only on 403): routeless's
 * `bearerAuth` with the `DeepL-Auth-Key` scheme and `status: 403` (a plain 403, no `WWW-Authenticate` challenge).
 * Developer keys use the API, organization admin keys the admin API only.
 */
import { bearerAuth, type Controller, type Guard, HttpError } from 'routeless'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import type { Services } from '../services.ts'
import { authenticateSecret, MISSING_KEY, UNKNOWN_KEY } from './authenticate.ts'

export type KeyKind = 'developer' | 'admin'

export function deeplKey(kind: KeyKind): Guard {
  return bearerAuth<ApiKeyRecord>({
    scheme: 'DeepL-Auth-Key',
    status: 403,
    messages: { missing: MISSING_KEY, invalid: UNKNOWN_KEY },
    // An unknown or deactivated key, or the wrong kind, is a 403 with its own message.
    verify: async (secret, controller: Controller<any>) => {
      const key = await authenticateSecret((controller.context as Services).keys, secret)
      if (kind === 'admin' && !key.isAdmin) throw new HttpError(403, 'This endpoint needs an organization admin key.')
      if (kind === 'developer' && key.isAdmin)
        throw new HttpError(403, 'Admin keys can only use the admin API (/v2/admin/...): use a developer key.')
      return key
    },
  })
}

/** The configured per-key rate limit (`Services.rateLimit`), run after authentication. */
export const limitRate: Guard = (controller) => (controller.context as Services).rateLimit(controller)
