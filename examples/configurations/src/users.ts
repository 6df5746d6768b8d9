/**
 * The people who may log in. Passwords are kept only as scrypt hashes (`hashSecret`) and checked in constant time;
 * an unknown user costs the same scrypt as a wrong password, so timing does not tell which one it was.
 */
import { hashSecret, verifySecret } from '@routeless/example-kit'
import type { Kysely } from 'kysely'
import type { Schema } from './schema.ts'
import { usernameProblem } from './user-list.ts'

export type UserChange = 'created' | 'updated' | 'unchanged'

export class UserStore {
  /** Hash checked when the user does not exist, made once. */
  private decoy: Promise<string> | undefined

  constructor(private readonly db: Kysely<Schema>) {}

  /** Creates the user, or sets a new password (which ends the user's sessions); a same password changes nothing. */
  async save(username: string, password: string): Promise<UserChange> {
    const existing = await this.db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where('username', '=', username)
      .executeTakeFirst()
    if (existing && (await verifySecret(password, existing.password_hash))) return 'unchanged'
    const password_hash = await hashSecret(password)
    if (!existing) {
      await this.db
        .insertInto('users')
        .values({ username, password_hash })
        .onConflict((oc) => oc.column('username').doUpdateSet({ password_hash }))
        .execute()
      return 'created'
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash }).where('id', '=', existing.id).execute()
      await trx.deleteFrom('sessions').where('user_id', '=', existing.id).execute()
    })
    return 'updated'
  }

  /** The user's id when `password` is theirs. */
  async authenticate(username: string, password: string): Promise<number | undefined> {
    // A name no user can have is not looked up (PostgreSQL refuses text with NUL in it, for one).
    const user =
      usernameProblem(username) === undefined
        ? await this.db
            .selectFrom('users')
            .select(['id', 'password_hash'])
            .where('username', '=', username)
            .executeTakeFirst()
        : undefined
    if (!user) {
      this.decoy ??= hashSecret('not a password anyone has')
      await verifySecret(password, await this.decoy)
      return undefined
    }
    return (await verifySecret(password, user.password_hash)) ? user.id : undefined
  }
}
