/**
 * The job's user id: the `User-ID` header, a body `user_id` and the token's `user_id` must agree (403 otherwise);
 * when none is given a `user_…` TypeID is minted.
 */
import { newTypeId } from '../typeid.ts'
import type { Auth } from './authenticate.ts'
import { apiError } from './errors.ts'

const USER_ID = /^[A-Za-z0-9._:@-]{1,128}$/

export function resolveUserId(auth: Auth, headers: Pick<Headers, 'get'>, bodyUserId: string | undefined): string {
  const header = headers.get('user-id')?.trim() || undefined
  const given = [header, bodyUserId, auth.claims.user_id].filter((v): v is string => typeof v === 'string' && v !== '')
  if (given.some((v) => v !== given[0])) throw apiError(403, 'Token is not authorized for this user ID.')
  const userId = given[0]
  if (userId === undefined) return newTypeId('user')
  if (!USER_ID.test(userId)) throw apiError(400, "Required field 'user_id' is missing or invalid.")
  return userId
}
